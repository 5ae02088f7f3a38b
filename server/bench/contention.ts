import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { addMonths, monthStart, reportPaths, selfServeTable, uploadPath, XLSX_MIME } from '@paydesk/domain';
import ExcelJS from 'exceljs';

/**
 * npm run bench, part two: a slow download and a slowly sent upload must not slow anyone else down. The real
 * server runs in a process of its own (on PGlite in a fresh folder, or on the PostgreSQL of DATABASE_URL); this
 * process signs in over and over and reports the sign-in p50/p95, first alone, then while a Self Serve export is
 * read by a client that takes its time and an adjustments upload trickles in.
 *
 *   npx tsx server/bench/contention.ts pglite     (seeds the demo scale into a temporary folder first)
 *   DATABASE_URL=… npx tsx server/bench/contention.ts postgres
 */
const which = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
const PASSWORD = process.env.DEMO_PASSWORD ?? 'Bench-Pass-2026!';
const SIGNINS = Number(process.env.BENCH_CONTENTION_SIGNINS ?? 30);
const repo = path.resolve(import.meta.dirname, '../..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-contention-'));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DEMO_PASSWORD: PASSWORD,
  LOG_LEVEL: 'warn',
  UPLOAD_BODY_TIMEOUT_SECONDS: '600',
  // The bench signs in from one address many times a minute: the sign-in limit would answer 429.
  RATE_LIMITS: 'off',
};
if (which === 'pglite') delete env.DATABASE_URL;
else if (!env.DATABASE_URL) throw new Error('postgres: set DATABASE_URL');

const server: ChildProcess = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(repo, 'server/src/main.ts')],
  {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
await new Promise<void>((resolve, reject) => {
  server.stdout?.on('data', (chunk: Buffer) => {
    if (chunk.toString().includes('PayDesk is running')) resolve();
  });
  server.on('exit', (code) => reject(new Error(`the server ended (${code})`)));
});
const base = `http://127.0.0.1:${port}`;

async function signin(email: string): Promise<string> {
  const res = await fetch(`${base}/api/app/account/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
/** Sign-in times: SIGNINS of them, and more while `until` (the slow work) is still under way. */
async function signinTimes(until?: { done: boolean }): Promise<{ p50: number; p95: number; n: number }> {
  const times: number[] = [];
  for (let i = 0; i < SIGNINS || (until && !until.done); i++) {
    const start = performance.now();
    await signin('sales@paydesk.local');
    times.push(performance.now() - start);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), n: times.length };
}

const admin = await signin('admin@paydesk.local');
await signinTimes(); // warm-up

/** Downloads the Self Serve export of the latest month, reading 8 KB every 100 ms. */
function slowExport(): Promise<number> {
  const body = JSON.stringify({
    dt: addMonths(monthStart(new Date()), -1),
    columns: selfServeTable.columns.map((c) => c.id),
  });
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${reportPaths.selfServeExport}`,
      { method: 'POST', headers: { 'content-type': 'application/json', cookie: admin } },
      (res) => {
        let bytes = 0;
        res.pause();
        const tick = setInterval(() => {
          const chunk = (res.read(8192) ?? res.read()) as Buffer | null;
          if (chunk) bytes += chunk.length;
        }, 100);
        res.on('end', () => {
          clearInterval(tick);
          resolve(bytes);
        });
        res.on('readable', () => undefined);
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Uploads an adjustments workbook (headers only, so nothing changes) 256 bytes every 100 ms. */
async function slowUpload(): Promise<number> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Adjustments');
  sheet.addRow(['YearMonth', 'MID', 'Category', 'Description', 'Amount']);
  const file = Buffer.from(await book.xlsx.writeBuffer());
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${uploadPath('adjustments')}`, {
      method: 'POST',
      headers: { 'content-type': XLSX_MIME, 'content-length': String(file.length), cookie: admin },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    let sent = 0;
    const tick = setInterval(() => {
      const next = file.subarray(sent, sent + 256);
      sent += next.length;
      if (next.length > 0) req.write(next);
      if (sent >= file.length) {
        clearInterval(tick);
        req.end();
      }
    }, 100);
  });
}

const alone = await signinTimes();
const started = performance.now();
const progress = { done: false };
const busy = Promise.all([slowExport(), slowUpload()]).finally(() => {
  progress.done = true;
});
const during = await signinTimes(progress);
const [exportedBytes, uploadStatus] = await busy;
const seconds = ((performance.now() - started) / 1000).toFixed(1);

const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(
  `\nSign-in while a slow download and a slow upload are under way (${which}, ${SIGNINS} sign-ins each)`,
);
console.table([
  { condition: 'alone', 'sign-ins': alone.n, p50: ms(alone.p50), p95: ms(alone.p95) },
  {
    condition: `during ${seconds} s of a ${Math.round(exportedBytes / 1024)} KB export read slowly and a trickled upload (answered ${uploadStatus})`,
    'sign-ins': during.n,
    p50: ms(during.p50),
    p95: ms(during.p95),
    target: `p95 ≤ 2 × alone + 20 ms ${during.p95 <= 2 * alone.p95 + 20 ? '✓' : '✗'}`,
  },
]);

server.kill('SIGTERM');
await new Promise((resolve) => server.on('exit', resolve));
fs.rmSync(dataDir, { recursive: true, force: true });

import fs from 'node:fs';
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import { type Quarter, reportQuarter, XLSX_MIME } from '@paydesk/domain';
import { originatorFrom, runPciBilling } from '../src/areas/pci/billingRun';
import { loadConfig } from '../src/config';
import { connect } from '../src/db/connect';
import { configurePiiKeys } from '../src/platform/pii';
import { SpreadsheetThread } from '../src/platform/spreadsheetThreads';
import { benchApp } from './benchApp';

/**
 * One spreadsheet job of the benchmark, alone in its own process so that its peak memory is its own:
 * `export <body.json> <out.xlsx>`, `import <url> <file.xlsx>`, `report <yr> <qr>` (the processing quarter
 * report's workbook and PDF, as its job builds them) or `pci-run <YYYY-MM-01>` (the PCI billing run of the month
 * with its NACHA file, in a transaction rolled back). Prints {seconds, peakMb, status, body}.
 */
const [job, arg1, arg2] = process.argv.slice(2);
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
const connected = await connect({ databaseUrl: config.DATABASE_URL });
const { close } = connected;
const { app, close: closeApp } = await benchApp(connected, config);
const signin = await app.inject({
  method: 'POST',
  url: '/api/app/account/signin',
  payload: { email: 'admin@paydesk.local', password: process.env.DEMO_PASSWORD ?? 'Bench-Pass-2026!' },
});
const cookie = signin.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
// As the server does when it starts (main.ts): an export or import finds its spreadsheet thread ready.
await SpreadsheetThread.warm();
// An export is downloaded through a socket, as a browser does: the file streams to disk, and the peak is the
// server's own (app.inject would hold the whole answer in this process).
const address = job === 'export' ? await app.listen({ port: 0, host: '127.0.0.1' }) : '';

global.gc?.();
const baseline = process.memoryUsage().rss;
let peak = baseline;
const timer = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 5);
const start = performance.now();
let status = 0;
let body = '';
if (job === 'export') {
  const payload = fs.readFileSync(arg1 as string, 'utf8');
  status = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      `${address}/api/selfserve/export`,
      {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        pipeline(res, fs.createWriteStream(arg2 as string)).then(() => resolve(res.statusCode ?? 0), reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
} else if (job === 'pci-run') {
  configurePiiKeys(config);
  const admin = await connected.db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', '=', 'admin@paydesk.local')
    .executeTakeFirstOrThrow();
  class RollBack extends Error {}
  await connected.db
    .transaction()
    .execute(async (trx) => {
      const outcome = await runPciBilling(trx, {
        month: arg1 as string,
        user: admin,
        ip: null,
        originator: originatorFrom(config),
      });
      status = outcome.created ? 200 : 409;
      body = JSON.stringify({ entries: outcome.run.entries, bytes: outcome.file.length });
      throw new RollBack();
    })
    .catch((e) => {
      if (!(e instanceof RollBack)) throw e;
    });
} else if (job === 'report') {
  const quarter = reportQuarter(Number(arg1), Number(arg2) as Quarter);
  if (!quarter) throw new Error(`${arg1} Q${arg2} is not a report quarter`);
  // Imported here only, as the job does: the other jobs' processes must not carry its libraries.
  const { buildQuarterReport } = await import('../src/areas/processing/report');
  const report = await buildQuarterReport(connected.db, quarter);
  status = 200;
  body = JSON.stringify({
    workbook: report.workbook.length,
    pdf: report.pdf.length,
    pages: report.sections.length,
  });
} else {
  const res = await app.inject({
    method: 'POST',
    url: arg1 as string,
    headers: { cookie, 'content-type': XLSX_MIME },
    payload: fs.createReadStream(arg2 as string),
  });
  status = res.statusCode;
  body = res.body.slice(0, 500);
}
const seconds = (performance.now() - start) / 1000;
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(
  JSON.stringify({
    seconds,
    peakMb: Math.round(peak / 1048576),
    baselineMb: Math.round(baseline / 1048576),
    status,
    body,
  }),
);
await closeApp();
await close();

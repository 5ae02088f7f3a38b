import http from 'node:http';
import {
  addMonths,
  monthStart,
  reportPaths,
  selfServeTable,
  uploadExportFilePath,
  uploadPath,
  XLSX_MIME,
} from '@paydesk/domain';
import ExcelJS from 'exceljs';
import pg from 'pg';

/**
 * The contention bench's other users (server/bench/contention.ts starts this process): the slow and the heavy work
 * that sign-in is timed against. They run in a process of their own, as they would on other people's machines:
 * reading a 12 MB export and unpacking the dashboard's 4 MB answer twenty times a second is the clients' work, not
 * the server's, and in the timing process its event loop would hold the sign-in answers back. For the same reason
 * the dashboard's answers are read as bytes, not unpacked (askAsABrowser).
 *
 * Messages from the parent: `slow` (the slow download and the trickled upload, once), `prepare` (the residual file
 * to import), `heavy` (the heavy work, round after round, until `stop`). Each answers when done.
 */
const base = process.env.CONTENTION_BASE ?? '';
const admin = process.env.CONTENTION_COOKIE ?? '';
const heavyKinds = (process.env.BENCH_CONTENTION_HEAVY ?? 'export,import,dashboard').split(',');
const send = (message: unknown) => process.send?.(message);

/**
 * Downloads the Self Serve export of the latest month, reading 8 KB every 100 ms for its first SLOW_SECONDS (at
 * the large scale the whole file would take minutes at that pace), then the rest as it comes.
 */
const SLOW_SECONDS = 10;
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
        const slowUntil = performance.now() + SLOW_SECONDS * 1000;
        res.pause();
        const tick = setInterval(() => {
          if (performance.now() > slowUntil) {
            clearInterval(tick);
            res.removeAllListeners('readable');
            res.on('data', (chunk: Buffer) => {
              bytes += chunk.length;
            });
            res.resume();
            return;
          }
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

/** Downloads the Self Serve export of the latest month as fast as it comes; its size in bytes. */
async function fullExport(): Promise<number> {
  const res = await fetch(`${base}${reportPaths.selfServeExport}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: admin },
    body: JSON.stringify({
      dt: addMonths(monthStart(new Date()), -1),
      columns: selfServeTable.columns.map((c) => c.id),
    }),
  });
  if (res.status !== 200) throw new Error(`export answered ${res.status}`);
  return (await res.arrayBuffer()).byteLength;
}

/**
 * A real residual import: the latest TSYS month's file, as the product exports it, with every row moved to a
 * month far in the future (an import replaces whole months, so no real month changes). Each round imports a month of
 * its own, as a monthly file does (FUTURE_MONTHS of them, from 2099-12 back, then again from 2099-12: a month
 * imported before is replaced row by row; the demo scale has one to three rounds, the large one or two);
 * removeImported drops them all.
 */
const FUTURE_MONTHS = 4;
const futureMonth = (round: number) => addMonths('2099-12-01', -(round % FUTURE_MONTHS)).slice(0, 7);
async function residualSheet(): Promise<{ book: ExcelJS.Workbook; sheet: ExcelJS.Worksheet }> {
  const res = await fetch(`${base}${uploadExportFilePath('residual_tsys')}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: admin },
    body: JSON.stringify({ month: addMonths(monthStart(new Date()), -2) }),
  });
  if (res.status !== 200) throw new Error(`residual export answered ${res.status}`);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(await res.arrayBuffer());
  const sheet = book.worksheets[0];
  if (!sheet) throw new Error('the residual export has no sheet');
  return { book, sheet };
}
/** The file of `month`: the sheet's rows moved to it. One at a time (they share the sheet). */
async function residualFile(
  { book, sheet }: { book: ExcelJS.Workbook; sheet: ExcelJS.Worksheet },
  month: string,
): Promise<Buffer> {
  sheet.eachRow((row, n) => {
    if (n > 1) row.getCell(1).value = month;
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}
async function importResiduals(file: Buffer): Promise<void> {
  const res = await fetch(`${base}${uploadPath('residual_tsys')}`, {
    method: 'POST',
    headers: { 'content-type': XLSX_MIME, cookie: admin },
    body: file,
  });
  if (res.status !== 200)
    throw new Error(`import answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
}
async function removeImported(): Promise<void> {
  if (!process.env.DATABASE_URL) return; // on PGlite the folder is thrown away
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  for (let round = 0; round < FUTURE_MONTHS; round++) {
    const month = futureMonth(round);
    await client.query(`delete from residuals where month = '${month}-01'`);
    // The month became a partition of its own (2026_12_02_0010_residuals_by_month): gone, the next run imports it anew.
    await client.query(`drop table if exists residuals_${month.replace('-', '_')}`);
  }
  await client.end();
}

/** The slowest dashboard call, asked again and again until `until.done`; how many times it answered. */
async function dashboardLoop(until: { done: boolean }): Promise<number> {
  let answered = 0;
  while (!until.done) {
    await askAsABrowser('/api/isoanalyticsdata', '{}');
    answered++;
  }
  return answered;
}

/**
 * Posts `body` as a browser would (accepting a compressed answer) and reads the answer's bytes as they come, without
 * unpacking them: unpacking is the browser's work, on its own machine.
 */
function askAsABrowser(path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, br', cookie: admin },
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`${path} answered ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The residual files, one per future month, made before the heavy work: writing one is seconds of this process's
 * CPU at the large scale, which would hold the dashboard loop back.
 */
let residuals: { files: Buffer[]; rows: number } | null = null;
const stopping = { done: false };

process.on('message', (message: { run?: 'slow' | 'prepare' | 'heavy'; stop?: true }) => {
  const work = async () => {
    if (message.stop) {
      stopping.done = true;
      return;
    }
    if (message.run === 'slow') {
      const [exportedBytes, uploadStatus] = await Promise.all([slowExport(), slowUpload()]);
      send({ slow: { exportedBytes, uploadStatus } });
    } else if (message.run === 'prepare') {
      const sheet = await residualSheet();
      const files: Buffer[] = [];
      if (heavyKinds.includes('import'))
        for (let round = 0; round < FUTURE_MONTHS; round++)
          files.push(await residualFile(sheet, futureMonth(round)));
      residuals = { files, rows: sheet.sheet.rowCount - 1 };
      send({ prepared: residuals.rows });
    } else if (message.run === 'heavy') {
      const source = residuals;
      if (!source) throw new Error('heavy before prepare');
      let exportedBytes = 0;
      let rounds = 0;
      const dashboard = heavyKinds.includes('dashboard') ? dashboardLoop(stopping) : Promise.resolve(0);
      do {
        const file = source.files[rounds % FUTURE_MONTHS] ?? null;
        const [bytes] = await Promise.all([
          heavyKinds.includes('export') ? fullExport() : 0,
          file === null ? undefined : importResiduals(file),
          heavyKinds.includes('export') || heavyKinds.includes('import')
            ? undefined
            : new Promise((resolve) => setTimeout(resolve, 5000)),
        ]);
        exportedBytes = bytes;
        rounds++;
      } while (!stopping.done);
      const dashboardCalls = await dashboard;
      await removeImported();
      send({ heavy: { rounds, exportedBytes, dashboardCalls, rows: residuals?.rows ?? 0 } });
    }
  };
  work().catch((err) => {
    console.error(err);
    process.exit(1);
  });
});
// The parent ended (done, or failed): so does this process, whatever it was doing.
process.on('disconnect', () => process.exit(0));
send({ ready: true });

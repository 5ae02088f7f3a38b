import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { XLSX_MIME } from '@paydesk/domain';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { Mailer } from '../src/platform/mailer';
import { Turns } from '../src/platform/turns';
import { IMPORT_BUSY } from '../src/platform/uploads';
import { XLSX_LIMITS } from '../src/platform/xlsxReader';
import { Client, DEMO_PASSWORD, type TestApp, testApp } from './helpers';
import { NS, type Part, workbookParts, zip } from './workbooks';

/**
 * Hostile workbooks, built here byte by byte, must be refused with a readable 400 that changes nothing, writes
 * nothing to disk and keeps the heap small; a slow upload must not hold the database.
 */

let t: TestApp;
let admin: Client;
let mid: string;
// Our own temp folder, so that other processes on the machine cannot disturb the "nothing left on disk" check.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-imports-'));
/**
 * What the import left in the temp folder. tsx keeps its compile cache there (tsx-<uid>) when the spreadsheet thread
 * first loads its TypeScript: code, not the upload's data, so it is not counted.
 */
const leftInTmp = () => fs.readdirSync(tmp).filter((name) => !/^tsx-\d+$/.test(name));
const previousTmp = process.env.TMPDIR;

beforeAll(async () => {
  process.env.TMPDIR = tmp;
  t = await testApp();
  admin = new Client(t.app);
  await admin.signin('admin@paydesk.local');
  const { rows } = await sql<{ mid: string }>`select mid from merchants order by mid limit 1`.execute(t.db);
  mid = rows[0]?.mid as string;
});
afterAll(async () => {
  await t?.close();
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  fs.rmSync(tmp, { recursive: true, force: true });
});

// ---------------------------------------------------------------- building workbooks

const HEADERS = ['YearMonth', 'MID', 'Category', 'Description', 'Amount'];

const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
const headerRow = () =>
  `<row r="1">${HEADERS.map((h, i) => inline(`${String.fromCharCode(65 + i)}1`, h)).join('')}</row>`;
const adjustmentRow = (n: number, month: string) =>
  `<row r="${n}">${inline(`A${n}`, month)}${inline(`B${n}`, mid)}${inline(`C${n}`, 'Fee')}${inline(`D${n}`, 'test')}<c r="E${n}"><v>12.5</v></c></row>`;

/** What the adjustments table holds, as one comparable value. */
async function adjustments(): Promise<string> {
  const { rows } = await sql<{ n: number; total: string; months: string }>`
    select count(*)::int as n, coalesce(sum(amount), 0)::text as total,
           coalesce(string_agg(distinct month::text, ',' order by month::text), '') as months
    from adjustments`.execute(t.db);
  return JSON.stringify(rows[0]);
}

/**
 * Uploads a hostile file and checks the refusal: a 400 in the import's shape, the table unchanged, nothing
 * left in the temp folder, and the heap never far above where it started.
 */
async function refused(file: Buffer, message: RegExp) {
  const before = await adjustments();
  const tmpBefore = leftInTmp();
  const heapBefore = process.memoryUsage().heapUsed;
  let peak = heapBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 2);
  const res = await admin.upload('/api/uploadadjustments', file).finally(() => clearInterval(sampler));
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  expect(body.success).toBe(false);
  expect(body.message).toMatch(message);
  expect(body.problems[0].message).toBe(body.message);
  expect(await adjustments()).toBe(before);
  expect(leftInTmp()).toEqual(tmpBefore);
  // The file itself is at most a few MB; what it would unpack to is far larger.
  expect(peak - heapBefore).toBeLessThan(64 * 1024 * 1024);
  return body;
}

// A shared-strings part of ~100 MB (2 million 40-character texts) that packs to ~100 KB.
const bombXml = Buffer.from(
  `<sst xmlns="${NS}">${`<si><t>${'x'.repeat(40)}</t></si>`.repeat(2_000_000)}</sst>`,
);
const bombPacked = deflateRawSync(bombXml);
const bombSize = bombXml.length;
// ~100 MB of elements the reader skips, so only the size bound can stop it.
const paddingPacked = deflateRawSync(Buffer.from(`<sst xmlns="${NS}">${'<pad/>'.repeat(17_000_000)}</sst>`));

describe('hostile workbooks', () => {
  it('refuses a shared-strings bomb that says how large it is, before unpacking it', async () => {
    const file = zip(
      workbookParts(headerRow(), {
        sharedStrings: { name: 'xl/sharedStrings.xml', data: '', packed: bombPacked, declared: bombSize },
      }),
    );
    expect(file.length).toBeLessThan(1024 * 1024);
    await refused(file, /too large when unpacked/);
  });

  it('refuses a shared-strings part that lies about its size, while unpacking it', async () => {
    const file = zip(
      workbookParts(headerRow(), {
        sharedStrings: { name: 'xl/sharedStrings.xml', data: '', packed: paddingPacked, declared: 1000 },
      }),
    );
    await refused(file, /too large when unpacked/);
  });

  it('refuses shared strings beyond their count, however they are packed', async () => {
    const file = zip(
      workbookParts(headerRow(), {
        sharedStrings: { name: 'xl/sharedStrings.xml', data: '', packed: bombPacked, declared: 1000 },
      }),
    );
    await refused(file, /too much text: more than 1,000,000 different texts or 16,000,000 characters/);
  });

  it('refuses a sheet that unpacks a hundredfold, placed before the workbook and its relationships', async () => {
    const parts = workbookParts(`${headerRow()}${'<row/>'.repeat(4_000_000)}`);
    const sheet = parts.pop() as Part;
    await refused(zip([sheet, ...parts]), /too large when unpacked/);
  });

  it('refuses a value beyond the last column it reads', async () => {
    const far = `<row r="2">${inline('A2', '2031-05')}${inline('GS2', 'far')}</row>`;
    const body = await refused(zip(workbookParts(headerRow() + far)), /Row 2 has a value in column GS/);
    expect(body.problems[0].row).toBe(2);
    expect(XLSX_LIMITS.columns).toBe(200);
  });

  it('refuses a cell longer than Excel allows', async () => {
    const huge = `<row r="2">${inline('A2', '2031-05')}${inline('D2', 'y'.repeat(40_000))}</row>`;
    await refused(zip(workbookParts(headerRow() + huge)), /Cell D2 holds more than 32,767 characters/);
  });

  it('refuses a sheet with more rows than an import reads', async () => {
    // A wrong header keeps the rows from being staged; the row limit still ends the read.
    let rows = `<row r="1">${inline('A1', 'Wrong')}</row>`;
    const many: string[] = [];
    for (let n = 2; n <= XLSX_LIMITS.rows + 1; n++)
      many.push(`<row r="${n}"><c r="A${n}"><v>1</v></c></row>`);
    rows += many.join('');
    const body = await refused(zip(workbookParts(rows)), /more than 200,000 rows after the header/);
    expect(body.problems[0].row).toBe(XLSX_LIMITS.rows + 1);
  });

  it('refuses a file that is not a zip and a zip that is not a workbook', async () => {
    await refused(Buffer.from('PK\u0003\u0004 not really'), /could not be read as an \.xlsx workbook/);
    await refused(zip([{ name: 'hello.txt', data: 'hello' }]), /could not be read as an \.xlsx workbook/);
  });
});

describe('well-formed workbooks', () => {
  it('imports a workbook whose sheet comes before the workbook and its relationships', async () => {
    const parts = workbookParts(headerRow() + adjustmentRow(2, '2031-05') + adjustmentRow(3, '2031-05'));
    const sheet = parts.pop() as Part;
    const tmpBefore = leftInTmp();
    const res = await admin.upload('/api/uploadadjustments', zip([sheet, ...parts]));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rows).toBe(2);
    const { rows } = await sql<{ n: number; total: string }>`
      select count(*)::int as n, sum(amount)::text as total from adjustments where month = '2031-05-01'`.execute(
      t.db,
    );
    expect(rows[0]).toEqual({ n: 2, total: '25.00' });
    expect(leftInTmp()).toEqual(tmpBefore);
  });

  it('keeps tabs, line breaks, backslashes and COPY markers in a cell exactly as sent', async () => {
    // Rows are staged with COPY, whose text format gives tab, newline, backslash, `\N` and `\.` a meaning.
    const texts = [
      'tab\there',
      'line\nbreak',
      'carriage\rreturn',
      'back\\slash',
      '\\.',
      '\\N',
      'ends with a backslash\\',
      '\\t is not a tab',
      'a\t\\\n\r\\N\tb',
    ];
    const xml = (s: string) => s.replace(/[&<>\t\n\r]/g, (ch) => `&#${ch.charCodeAt(0)};`);
    const rows = texts.map(
      (text, i) =>
        `<row r="${i + 2}">${inline(`A${i + 2}`, '2031-07')}${inline(`B${i + 2}`, mid)}${inline(`C${i + 2}`, 'Fee')}` +
        `${inline(`D${i + 2}`, xml(text))}<c r="E${i + 2}"><v>${i + 1}</v></c></row>`,
    );
    const res = await admin.upload('/api/uploadadjustments', zip(workbookParts(headerRow() + rows.join(''))));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rows).toBe(texts.length);
    const stored = await sql<{ description: string }>`
      select description from adjustments where month = '2031-07-01' order by amount`.execute(t.db);
    expect(stored.rows.map((r) => r.description)).toEqual(texts);

    // The same values sent as the JSON form of the upload.
    const json = await admin.post('/api/uploadadjustments', {
      filename: 'hostile.xlsx',
      records: texts.map((text, i) => ['2031-08', mid, 'Fee', text, i + 1]),
    });
    expect(json.statusCode, json.body).toBe(200);
    const fromJson = await sql<{ description: string }>`
      select description from adjustments where month = '2031-08-01' order by amount`.execute(t.db);
    expect(fromJson.rows.map((r) => r.description)).toEqual(texts);
  });

  it('imports an Excel workbook written by exceljs: shared strings, a date-formatted month, styles', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Adjustments').addRows([
      HEADERS,
      [new Date(Date.UTC(2031, 5, 1)), mid, 'Fee', 'written by exceljs', 7.25],
      [new Date(Date.UTC(2031, 5, 1)), mid, 'Fee', { richText: [{ text: 'rich ' }, { text: 'text' }] }, 2.75],
    ]);
    wb.addWorksheet('Notes').addRow(['not read']);
    const res = await admin.upload('/api/uploadadjustments', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await sql<{ description: string; amount: string }>`
      select description, amount::text as amount from adjustments where month = '2031-06-01' order by amount`.execute(
      t.db,
    );
    expect(rows).toEqual([
      { description: 'rich text', amount: '2.75' },
      { description: 'written by exceljs', amount: '7.25' },
    ]);
  });
});

// ---------------------------------------------------------------- the body of an upload

/** Sends a request over a real socket; `answer` settles with everything the server sent once it closes. */
function rawRequest(port: number, head: string) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
  });
  const answer = new Promise<string>((resolve, reject) => {
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
  socket.write(head);
  return { socket, answer, received: () => received };
}

const cookie = () => [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
const uploadHead = (length: number) =>
  `POST /api/uploadadjustments HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${XLSX_MIME}\r\n` +
  `Content-Length: ${length}\r\nCookie: ${cookie()}\r\n` +
  'Connection: close\r\n\r\n';

const within = <T>(promise: Promise<T>, seconds: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} took over ${seconds} s`)), seconds * 1000),
    ),
  ]);

describe('upload bodies', () => {
  let slow: FastifyInstance;
  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    // A second app over the same database whose uploads must arrive within a second.
    const config = loadConfig({
      APP_URL: 'http://paydesk.test',
      LOG_LEVEL: 'silent',
      UPLOAD_BODY_TIMEOUT_SECONDS: '1',
    });
    slow = await buildApp({ db: t.db, config, mailer: new Mailer(t.jobs), jobs: t.jobs }, { logger: false });
    await slow.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await slow?.close();
  });

  const portOf = (app: FastifyInstance) => (app.server.address() as net.AddressInfo).port;

  it('a slowly sent upload does not hold the database: others sign in while it arrives', async () => {
    const file = zip(workbookParts(headerRow() + adjustmentRow(2, '2031-07')));
    const arrived = new Promise<void>((resolve) => t.app.server.once('request', () => resolve()));
    const upload = rawRequest(portOf(t.app), uploadHead(file.length));
    upload.socket.write(file.subarray(0, 100));
    await arrived;
    // Give the server its turns to route the request (and, before the fix, open its transaction).
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    const other = new Client(t.app);
    await within(other.signin('finance@paydesk.local', DEMO_PASSWORD), 30, 'a sign-in during a slow upload');
    expect(upload.received()).toBe('');
    upload.socket.write(file.subarray(100));
    const answer = await within(upload.answer, 60, 'the upload');
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
  });

  it('cuts off an upload whose body does not arrive in time, with a 408 and a closed connection', async () => {
    const before = await adjustments();
    const upload = rawRequest(portOf(slow), uploadHead(50_000));
    upload.socket.write(Buffer.alloc(1000));
    const answer = await within(upload.answer, 60, 'the cut-off');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('The file took longer than 1 second to arrive');
    expect(await adjustments()).toBe(before);
  });

  it('refuses a body declared larger than the limit without reading it, and a file sent where none is taken', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/uploadadjustments',
      headers: { 'content-type': XLSX_MIME, 'content-length': String(41 * 1024 * 1024), cookie: cookie() },
      payload: Buffer.alloc(10),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The file is larger than 40 MB');
    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/app/account/signin',
      headers: { 'content-type': XLSX_MIME },
      payload: Buffer.alloc(10),
    });
    expect(signin.statusCode).toBe(400);
    expect(signin.json().message).toBe('This call does not take a file');
  });
});

describe('import slots', () => {
  it('lets two imports run, lines up the next ones, and turns away the rest with 503', async () => {
    const slots = new Turns(2, 1, IMPORT_BUSY);
    const a = slots.take();
    const b = slots.take();
    await Promise.all([a.ready, b.ready]);
    const c = slots.take();
    let cStarted = false;
    void c.ready.then(() => {
      cStarted = true;
    });
    const d = slots.take();
    await expect(d.ready).rejects.toMatchObject({ status: 503 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(cStarted).toBe(false);
    a.release();
    await c.ready;
    // A waiting request that goes away leaves the line without taking a turn.
    const e = slots.take();
    e.release();
    await expect(e.ready).rejects.toMatchObject({ status: 400 });
    b.release();
    c.release();
    const f = slots.take();
    const g = slots.take();
    await Promise.all([f.ready, g.ready]);
  });
});

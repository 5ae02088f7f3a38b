import { Writable } from 'node:stream';
import { type MessagePort, parentPort } from 'node:worker_threads';
import type { UploadColumn } from '@paydesk/domain';
import type { CopyBatch } from '../db/copy';
import { ImportEncoder } from './importRows';
import type { SheetColumn } from './spreadsheets';
import { Inbox } from './spreadsheetThreads';
import { readFirstSheet, SpreadsheetRefused, UNREADABLE } from './xlsxReader';
import { type XlsxValue, XlsxWriter } from './xlsxWriter';

/**
 * The body of the spreadsheet thread (started by spreadsheetThreads.ts through spreadsheetThread.mjs, which lowers
 * its priority first): the CPU-heavy part of one export or one import, so that it yields the two cores to sign-in
 * and the other requests of the main thread.
 *   - workbook: rows arrive from the main thread, which reads them from the database; the zip's bytes go back.
 *   - import: the uploaded file is read and checked here; COPY lines for the staging table go back in batches,
 *     and the main thread writes them inside the request's transaction (all-or-nothing stays there).
 */
export type ThreadJob =
  | { kind: 'workbook'; name: string; columns: readonly (SheetColumn & { width: number })[] }
  | {
      kind: 'import';
      columns: readonly UploadColumn[];
      maxProblems: number;
      file: Uint8Array;
      /** COPY lines per batch (importRows.ts, BATCH_BYTES). */
      batchBytes: number;
    };

export type ToWorkbook = { rows: readonly (readonly unknown[])[] } | { finish: true };
export type FromWorkbook = { bytes: ArrayBuffer | null } | { error: string };

export type ToImport = { taken: true };
export type FromImport =
  | { batch: ArrayBuffer; rows: number }
  | { done: Pick<ImportEncoder, 'problems' | 'extraProblems' | 'encoded'> }
  | { refused: string; row: number }
  | { error: string };

/** A copy in memory of its own, which can be handed to the other thread without copying again. */
function transferable(chunks: readonly Uint8Array[]): ArrayBuffer {
  const length = chunks.reduce((sum, c) => sum + c.length, 0);
  const copy = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    copy.set(c, at);
    at += c.length;
  }
  return copy.buffer;
}

async function workbook(
  port: MessagePort,
  inbox: Inbox<ToWorkbook>,
  job: Extract<ThreadJob, { kind: 'workbook' }>,
) {
  let written: Buffer[] = [];
  // Collects what the writer produces until the main thread takes it, once per message; the main thread holds
  // the next rows back while the answer drains, so this is at most one chunk's bytes.
  const out = new Writable({
    highWaterMark: 64 * 1024 * 1024,
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk);
      done();
    },
  });
  const writer = new XlsxWriter(
    out,
    job.name,
    job.columns.map((c) => ({ header: c.header, width: c.width, money: c.type === 'money' })),
  );
  const takeWritten = (): ArrayBuffer | null => {
    if (written.length === 0) return null;
    const bytes = transferable(written);
    written = [];
    return bytes;
  };
  await writer.start();
  for (;;) {
    const message = await inbox.next();
    if ('finish' in message) await writer.finish();
    else await writer.addRows(message.rows.map((row) => row.map((v, i) => cell(v, job.columns[i]?.type))));
    const bytes = takeWritten();
    port.postMessage({ bytes } satisfies FromWorkbook, bytes ? [bytes] : []);
    if ('finish' in message) return;
  }
}

/**
 * Money and numbers become numeric cells; dates stay as their YYYY-MM-DD text; timestamps are written
 * 'YYYY-MM-DD HH:mm:ss UTC' (the server does not know the reader's time zone).
 */
function cell(value: unknown, type: SheetColumn['type']): XlsxValue {
  if (value === null || value === undefined) return null;
  if ((type === 'money' || type === 'decimal' || type === 'integer' || type === 'percent') && value !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : String(value);
  }
  if (value instanceof Date) {
    const iso = value.toISOString();
    return type === 'datetime' ? `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` : iso.slice(0, 10);
  }
  return typeof value === 'number' || typeof value === 'boolean' ? value : String(value);
}

async function importRows(
  port: MessagePort,
  inbox: Inbox<ToImport>,
  job: Extract<ThreadJob, { kind: 'import' }>,
) {
  const send = async (batch: CopyBatch) => {
    const bytes = transferable([batch.contents().data]);
    port.postMessage({ batch: bytes, rows: batch.rows } satisfies FromImport, [bytes]);
    // The main thread answers once it has taken this batch to be written: it takes a few ahead of the database
    // (imports.ts, BATCHES_AHEAD), then answers only as earlier ones are written, so no more are held.
    await inbox.next();
  };
  const encoder = new ImportEncoder(job.columns, job.maxProblems, send, false, job.batchBytes);
  try {
    await readFirstSheet(Buffer.from(job.file.buffer, job.file.byteOffset, job.file.length), (n, values) =>
      encoder.row(n, values),
    );
  } catch (err) {
    const refused = err instanceof SpreadsheetRefused ? err : new SpreadsheetRefused(UNREADABLE);
    port.postMessage({ refused: refused.message, row: refused.row } satisfies FromImport);
    return;
  }
  await encoder.end();
  const { problems, extraProblems, encoded } = encoder;
  port.postMessage({ done: { problems, extraProblems, encoded } } satisfies FromImport);
}

/** One job after another, for as long as the thread is kept (spreadsheetThreads.ts ends it after a failure). */
async function serve(port: MessagePort) {
  const inbox = new Inbox<{ job: ThreadJob } | ToWorkbook | ToImport>(port);
  port.postMessage({ ready: true });
  for (;;) {
    const { job } = (await inbox.next()) as { job: ThreadJob };
    try {
      if (job.kind === 'workbook') await workbook(port, inbox as Inbox<ToWorkbook>, job);
      else await importRows(port, inbox as Inbox<ToImport>, job);
    } catch (err) {
      port.postMessage({ error: err instanceof Error ? err.message : String(err) });
    }
  }
}

void serve(parentPort as MessagePort);

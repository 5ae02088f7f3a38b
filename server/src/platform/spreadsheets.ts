import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { workbookInWorker } from './workbookWorkers';
import type { SheetColumn } from './workbookWriter';

export type { CellValue, SheetColumn } from './workbookWriter';

/** Rows per message to the export worker: small enough that copying them is a short turn of the event loop. */
const ROWS_PER_MESSAGE = 500;

/**
 * An .xlsx workbook written as it is produced, straight to the HTTP answer. The rows are read here (from a held
 * cursor, chunk by chunk); the workbook is written by a worker thread (workbookWorkers.ts).
 */
export async function sendWorkbook(
  reply: FastifyReply,
  filename: string,
  sheetName: string,
  columns: readonly SheetColumn[],
  produce: (addRows: (rows: readonly Record<string, unknown>[]) => Promise<void>) => Promise<void>,
): Promise<FastifyReply> {
  const out = new PassThrough();
  reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${filename.replace(/[^A-Za-z0-9._ -]/g, '_')}"`)
    .header('cache-control', 'no-store')
    .send(out);
  const book = workbookInWorker(sheetName, columns, (bytes) => out.write(bytes));
  try {
    await produce(async (rows) => {
      for (let i = 0; i < rows.length; i += ROWS_PER_MESSAGE) {
        await book.write(rows.slice(i, i + ROWS_PER_MESSAGE).map((row) => columns.map((c) => row[c.key])));
      }
      // A slow client holds the next chunk back instead of letting the answer pile up in memory.
      if (out.writableNeedDrain) await drainedOrClosed(out);
      if (out.destroyed) throw new Error('The client went away during the download');
    });
    await book.end();
    out.end();
  } catch (err) {
    book.abort();
    // The answer has started: the only way left to say it failed is to cut the download short.
    reply.log.warn({ err }, 'export stopped');
    out.destroy(err as Error);
  }
  return reply;
}

function drainedOrClosed(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

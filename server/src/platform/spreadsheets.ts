import { PassThrough } from 'node:stream';
import type { ColumnType } from '@paydesk/domain';
import type { FastifyReply } from 'fastify';
import { bulkStep, giveUpBulkTurn } from './signinFirst';
import type { FromWorkbook, ToWorkbook } from './spreadsheetThread';
import { SpreadsheetThread } from './spreadsheetThreads';
import { drainedOrClosed } from './xlsxWriter';

export type CellValue = string | number | boolean | Date | null;

export interface SheetColumn {
  key: string;
  header: string;
  type?: ColumnType | 'month';
}

/**
 * An .xlsx workbook written as it is produced, straight to the HTTP answer (see xlsxWriter.ts). This thread reads
 * the rows; the spreadsheet thread (spreadsheetThreads.ts) turns them into the zip's bytes.
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
  let thread: SpreadsheetThread<ToWorkbook, FromWorkbook> | null = null;
  try {
    const writer = await SpreadsheetThread.start<ToWorkbook, FromWorkbook>({
      kind: 'workbook',
      name: sheetName,
      columns: columns.map((c) => ({ ...c, width: Math.min(40, Math.max(10, c.header.length + 2)) })),
    });
    thread = writer;
    // One message is with the thread at a time: the next chunk's rows are read from the database while it works.
    let inThread: Promise<void> = Promise.resolve();
    const send = async (message: ToWorkbook) => {
      await inThread;
      await bulkStep();
      writer.post(message);
      inThread = (async () => {
        const answer = await writer.inbox.next();
        if ('error' in answer) throw new Error(answer.error);
        if (answer.bytes === null) return;
        if (out.destroyed) throw new Error('The client went away during the download');
        // A slow client holds the next chunk back instead of letting the answer pile up in memory.
        if (!out.write(Buffer.from(answer.bytes))) {
          // A client that reads slowly: the export now costs little while it waits, so the next bulk request runs.
          giveUpBulkTurn(reply.request);
          await drainedOrClosed(out);
        }
      })();
      // A failure surfaces at the next send or at the end; until then it must not count as unhandled.
      inThread.catch(() => {});
    };
    await produce(async (rows) => {
      // A few hundred rows a message: copying a message to the thread is one turn of this thread's event loop.
      for (let i = 0; i < rows.length; i += 500) {
        await send({ rows: rows.slice(i, i + 500).map((row) => columns.map((c) => row[c.key])) });
      }
    });
    await send({ finish: true });
    await inThread;
    out.end();
    writer.release();
  } catch (err) {
    // The answer has started: the only way left to say it failed is to cut the download short.
    reply.log.warn({ err }, 'export stopped');
    out.destroy(err as Error);
    await thread?.stop();
  }
  return reply;
}

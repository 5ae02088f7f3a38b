import { PassThrough } from 'node:stream';
import type { ColumnType } from '@paydesk/domain';
import type { FastifyReply } from 'fastify';
import { type XlsxValue, XlsxWriter } from './xlsxWriter';

export type CellValue = string | number | boolean | Date | null;

export interface SheetColumn {
  key: string;
  header: string;
  type?: ColumnType | 'month';
}

/** An .xlsx workbook written as it is produced, straight to the HTTP answer (see xlsxWriter.ts). */
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
  const writer = new XlsxWriter(
    out,
    sheetName,
    columns.map((c) => ({
      header: c.header,
      width: Math.min(40, Math.max(10, c.header.length + 2)),
      money: c.type === 'money',
    })),
  );
  try {
    await writer.start();
    // A slow client holds the next chunk back (the writer waits for the answer to drain) instead of letting the
    // answer pile up in memory.
    await produce(async (rows) => {
      // A slice at a time, so turning a chunk's rows into cells is not one long turn of the event loop either.
      for (let i = 0; i < rows.length; i += 100) {
        await writer.addRows(
          rows.slice(i, i + 100).map((row) => columns.map((c) => cell(row[c.key], c.type))),
        );
      }
    });
    await writer.finish();
  } catch (err) {
    // The answer has started: the only way left to say it failed is to cut the download short.
    reply.log.warn({ err }, 'export stopped');
    writer.abort();
    out.destroy(err as Error);
  }
  return reply;
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

import { PassThrough } from 'node:stream';
import type { ColumnType } from '@paydesk/domain';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

export type CellValue = string | number | boolean | Date | null;

export interface SheetColumn {
  key: string;
  header: string;
  type?: ColumnType | 'month';
}

/** An .xlsx workbook written as it is produced, straight to the HTTP answer. */
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
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({
    key: c.key,
    header: c.header,
    width: Math.min(40, Math.max(10, c.header.length + 2)),
    ...(c.type === 'money' ? { style: { numFmt: '#,##0.00' } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  // One style object per column, shared by its cells: exceljs remembers the style id of an object it has seen, but
  // gives every new cell a fresh copy of its column's style, so without this each cell's style is built and looked
  // up again (a third of an export's time).
  const styles = columns.map((c) => (c.type === 'money' ? { numFmt: '#,##0.00' } : {}));
  try {
    await produce(async (rows) => {
      for (const row of rows) {
        const added = sheet.addRow(columns.map((c) => cell(row[c.key], c.type)));
        added.eachCell({ includeEmpty: false }, (c, i) => {
          c.style = styles[i - 1] as Partial<ExcelJS.Style>;
        });
        added.commit();
      }
      // A slow client holds the next chunk back instead of letting the answer pile up in memory.
      if (out.writableNeedDrain) await drainedOrClosed(out);
      if (out.destroyed) throw new Error('The client went away during the download');
    });
    sheet.commit();
    await workbook.commit();
  } catch (err) {
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

/**
 * Money and numbers become numeric cells; dates stay as their YYYY-MM-DD text; timestamps are written
 * 'YYYY-MM-DD HH:mm:ss UTC' (the server does not know the reader's time zone).
 */
function cell(value: unknown, type: SheetColumn['type']): CellValue {
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

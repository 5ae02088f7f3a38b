import { PassThrough, type Readable } from 'node:stream';
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
  produce: (addRows: (rows: readonly Record<string, unknown>[]) => void) => Promise<void>,
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
  await produce((rows) => {
    for (const row of rows) sheet.addRow(columns.map((c) => cell(row[c.key], c.type))).commit();
  });
  sheet.commit();
  await workbook.commit();
  return reply;
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

/**
 * Reads the first sheet of an .xlsx stream row by row (the file is never held whole). Each row arrives as
 * its 1-based row number and its cell values from the first column on.
 */
export async function readFirstSheet(
  input: Readable,
  onRow: (rowNumber: number, values: CellValue[]) => Promise<void> | void,
): Promise<void> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  let first = true;
  for await (const worksheet of reader) {
    for await (const row of worksheet as AsyncIterable<ExcelJS.Row>) {
      if (!first) continue;
      const raw = Array.isArray(row.values) ? row.values.slice(1) : [];
      await onRow(row.number, raw.map(plain));
    }
    first = false;
  }
}

function plain(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    value instanceof Date
  )
    return value;
  if (typeof value === 'object') {
    const v = value as {
      result?: unknown;
      text?: unknown;
      richText?: Array<{ text: string }>;
      error?: unknown;
    };
    if (v.richText) return v.richText.map((r) => r.text).join('');
    if (v.result !== undefined) return plain(v.result);
    if (typeof v.text === 'string') return v.text;
    if (v.error !== undefined) return String(v.error);
  }
  return String(value);
}

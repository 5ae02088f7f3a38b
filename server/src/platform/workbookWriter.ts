import type { Writable } from 'node:stream';
import type { ColumnType } from '@paydesk/domain';
import ExcelJS from 'exceljs';

export type CellValue = string | number | boolean | Date | null;

export interface SheetColumn {
  key: string;
  header: string;
  type?: ColumnType | 'month';
}

/**
 * An .xlsx workbook streamed to `stream` row by row: one sheet with a bold, frozen header row and money columns
 * formatted. Used inside the export worker (workbookWorker.ts), so that writing cells never holds the server's
 * event loop.
 */
export function workbookWriter(stream: Writable, sheetName: string, columns: readonly SheetColumn[]) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
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
  return {
    /** Rows as arrays of values in the columns' order (cheaper to pass between threads than objects). */
    addRows(rows: readonly (readonly unknown[])[]) {
      for (const row of rows) {
        const added = sheet.addRow(columns.map((c, i) => cell(row[i], c.type)));
        added.eachCell({ includeEmpty: false }, (c, i) => {
          c.style = styles[i - 1] as Partial<ExcelJS.Style>;
        });
        added.commit();
      }
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
    },
  };
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

/** A list shown in a detail modal and written to one sheet of the export. */
export interface Dataset {
  title: string;
  columns: readonly DatasetColumn[];
  rows: readonly Record<string, unknown>[];
}

export interface DatasetColumn {
  key: string;
  header: string;
  numeric?: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Spec document 1 §7: 'Dashboard' plus the local date and time, e.g. `Dashboard 2026-11-21 09-05-03.xlsx`. */
export function dashboardFileName(at: Date): string {
  const date = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}-${pad(at.getMinutes())}-${pad(at.getSeconds())}`;
  return `Dashboard ${date} ${time}.xlsx`;
}

/** One sheet per dataset, named `Sheet 0`, `Sheet 1`, … in order. */
export function sheetName(index: number): string {
  return `Sheet ${index}`;
}

/** A cell as written: numbers stay numbers, absent values stay empty. */
export function cellValue(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  return String(value);
}

/**
 * The workbook of the datasets, written in the browser. exceljs is fetched only when a file is asked
 * for, so it stays out of the screens' bundles.
 */
export async function datasetsWorkbook(datasets: readonly Dataset[]): Promise<Blob> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'PayDesk';
  workbook.created = new Date();
  datasets.forEach((dataset, index) => {
    const sheet = workbook.addWorksheet(sheetName(index));
    sheet.columns = dataset.columns.map((column) => ({
      header: column.header,
      key: column.key,
      width: Math.max(10, Math.min(40, column.header.length + 4)),
    }));
    sheet.getRow(1).font = { bold: true };
    for (const row of dataset.rows) {
      sheet.addRow(Object.fromEntries(dataset.columns.map((c) => [c.key, cellValue(row[c.key])])));
    }
  });
  const buffer = await workbook.xlsx.writeBuffer();
  return new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}

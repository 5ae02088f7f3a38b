import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { workbookInWorker } from '../src/platform/workbookWorkers';
import type { SheetColumn } from '../src/platform/workbookWriter';

const columns: SheetColumn[] = [
  { key: 'mid', header: 'MID' },
  { key: 'volume', header: 'Volume', type: 'money' },
  { key: 'opened', header: 'Opened', type: 'date' },
  { key: 'worked', header: 'Worked', type: 'datetime' },
];

async function write(rows: unknown[][], batch = 500) {
  const chunks: Buffer[] = [];
  const book = workbookInWorker('Rows', columns, (bytes) => chunks.push(bytes));
  for (let i = 0; i < rows.length; i += batch) await book.write(rows.slice(i, i + batch));
  await book.end();
  const read = new ExcelJS.Workbook();
  await read.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  return read.getWorksheet('Rows');
}

describe('the export worker', () => {
  it('writes every row in order, in the columns’ types, across batches sent ahead', async () => {
    const rows = Array.from({ length: 2_345 }, (_, i) => [
      `MID${String(i).padStart(6, '0')}`,
      (i * 12.34).toFixed(2),
      new Date(Date.UTC(2026, 0, 1 + (i % 300))),
      new Date(Date.UTC(2026, 10, 22, 13, 5, i % 60)),
    ]);
    const sheet = await write(rows, 100);
    expect(sheet?.rowCount).toBe(rows.length + 1);
    expect(sheet?.getRow(1).values).toEqual([undefined, 'MID', 'Volume', 'Opened', 'Worked']);
    for (const i of [0, 1, 999, 2_344]) {
      const row = sheet?.getRow(i + 2);
      expect(row?.getCell(1).value).toBe(`MID${String(i).padStart(6, '0')}`);
      expect(row?.getCell(2).value).toBe(Number((i * 12.34).toFixed(2)));
      expect(row?.getCell(2).numFmt).toBe('#,##0.00');
      expect(row?.getCell(3).value).toBe(
        new Date(Date.UTC(2026, 0, 1 + (i % 300))).toISOString().slice(0, 10),
      );
      expect(row?.getCell(4).value).toBe(`2026-11-22 13:05:${String(i % 60).padStart(2, '0')} UTC`);
    }
  });

  it('after an export given up halfway, the next one is whole (the stopped worker is not reused)', async () => {
    const book = workbookInWorker('Rows', columns, () => undefined);
    await book.write([['MID1', '1.00', null, null]]);
    book.abort();
    await expect(book.write([['MID2', '2.00', null, null]])).rejects.toThrow();
    const sheet = await write([['MID3', '3.00', null, null]]);
    expect(sheet?.rowCount).toBe(2);
    expect(sheet?.getRow(2).getCell(1).value).toBe('MID3');
  });

  it('runs exports side by side, each into its own file', async () => {
    const [a, b, c] = await Promise.all(
      ['A', 'B', 'C'].map((p) =>
        write(Array.from({ length: 700 }, (_, i) => [`${p}${i}`, '0.00', null, null])),
      ),
    );
    expect([a, b, c].map((s) => s?.getRow(701).getCell(1).value)).toEqual(['A699', 'B699', 'C699']);
  });
});

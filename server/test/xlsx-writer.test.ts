import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { CellValue } from '../src/platform/spreadsheets';
import { readFirstSheet } from '../src/platform/xlsxReader';
import { columnLetters, sheetName, type XlsxValue, XlsxWriter } from '../src/platform/xlsxWriter';

/** Everything written to `out`, once it ends. */
function collect(out: PassThrough): Promise<Buffer> {
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve, reject) => {
    out.on('end', () => resolve(Buffer.concat(chunks)));
    out.on('error', reject);
  });
}

const columns = [
  { header: 'Name & <Co>', width: 14, money: false },
  { header: 'Volume', width: 10, money: true },
  { header: 'Count', width: 10, money: false },
  { header: 'Active', width: 10, money: false },
];

const hostile = [
  'Smith & Sons <"quoted">',
  '  leading and trailing  ',
  'tab\there, line\nbreak',
  'ünïcödé € 漢字 🙂',
  ']]> <![CDATA[ &amp;',
  'x'.repeat(5000),
];

async function write(rows: XlsxValue[][], name = 'October 2026'): Promise<Buffer> {
  const out = new PassThrough();
  const file = collect(out);
  const writer = new XlsxWriter(out, name, columns);
  await writer.start();
  // In several chunks, as an export sends them.
  for (let i = 0; i < rows.length; i += 1000) await writer.addRows(rows.slice(i, i + 1000));
  await writer.finish();
  return file;
}

describe('XlsxWriter', () => {
  it('writes a workbook that exceljs and our own reader read back exactly', async () => {
    const rows: XlsxValue[][] = [
      ...hostile.map((text, i) => [text, i * 1000.25, i, i % 2 === 0]),
      [null, null, null, null],
      ['only a name', null, -3, null],
      // Beyond the first chunk and past column letters of one character.
      ...Array.from({ length: 2500 }, (_, i) => [`row ${i}`, -(i + 1) / 4, i, false] as XlsxValue[]),
    ];
    const file = await write(rows);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.name).toBe('October 2026');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(1).values).toEqual([undefined, ...columns.map((c) => c.header)]);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(columns.map((_, i) => sheet.getColumn(i + 1).width)).toEqual(columns.map((c) => c.width));
    for (const [i, row] of rows.entries()) {
      const got = sheet.getRow(i + 2);
      row.forEach((v, c) => {
        expect(got.getCell(c + 1).value ?? null).toEqual(v);
      });
      if (row[1] !== null) expect(got.getCell(2).numFmt).toBe('#,##0.00');
      expect(got.getCell(1).numFmt).toBeUndefined();
    }

    const read: CellValue[][] = [];
    await readFirstSheet(file, (_, values) => {
      read.push(values);
    });
    // Our reader leaves out trailing empty cells.
    const trimmed = rows.map((row) => {
      const copy = [...row];
      while (copy.length > 0 && copy.at(-1) === null) copy.pop();
      return copy;
    });
    expect(read).toEqual([columns.map((c) => c.header), ...trimmed]);
  });

  it('drops the characters XML cannot hold instead of writing a file Excel refuses', async () => {
    const file = await write([['bell\u0007 and nul\u0000 here', 1, 1, true]]);
    const read: CellValue[][] = [];
    await readFirstSheet(file, (_, values) => {
      read.push(values);
    });
    expect(read[1]?.[0]).toBe('bell and nul here');
  });

  it('stops with an error, not a hang, when the client goes away mid-download', async () => {
    const out = new PassThrough({ highWaterMark: 1024 });
    const writer = new XlsxWriter(out, 'S', columns);
    await writer.start();
    out.destroy();
    const rows = Array.from({ length: 5000 }, (_, i) => [`row ${i} ${'y'.repeat(50)}`, i, i, true]);
    await expect(
      (async () => {
        for (let i = 0; i < 20; i++) await writer.addRows(rows);
        await writer.finish();
      })(),
    ).rejects.toThrow(/went away/);
  });
});

describe('sheet names and columns', () => {
  it('makes any name one Excel accepts', () => {
    expect(sheetName('Q3 2026')).toBe('Q3 2026');
    expect(sheetName('a/b\\c[d]:e*f?g')).toBe('a b c d  e f g');
    expect(sheetName('x'.repeat(40))).toHaveLength(31);
    expect(sheetName(' / ')).toBe('Sheet1');
  });

  it('letters columns as Excel does', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnLetters)).toEqual([
      'A',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });
});

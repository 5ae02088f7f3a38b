import { describe, expect, it } from 'vitest';
import type { CellValue } from '../src/platform/spreadsheets';
import { readFirstSheet, SpreadsheetRefused } from '../src/platform/xlsxReader';
import { columnLetters } from '../src/platform/xlsxWriter';
import { NS, workbookParts, zip } from './workbooks';

// The reader takes most cells by a quick path (`quickCell` in xlsxReader.ts) and the rest through the XML
// scanner's events. These tests write the same cells in both shapes, and check both against the values the test
// itself put in the file.

const SHARED = ['Smith & Sons', 'ünïcödé € 漢字', 'plain', '', 'Fish <and> chips', 'x'.repeat(300)];
const sharedStringsXml = `<sst xmlns="${NS}">${SHARED.map((s) => `<si><t xml:space="preserve">${escapeXml(s)}</t></si>`).join('')}</sst>`;
/** Style 1 shows a date (built-in format 14), style 2 a custom date format, style 3 a number. */
const stylesXml =
  `<styleSheet xmlns="${NS}"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm"/></numFmts>` +
  '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="4"/></cellXfs></styleSheet>';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Cell {
  /** The cell as written, in the shape the quick path takes when it can. */
  xml: string;
  /** What the reader must answer for it (null: no value). */
  value: CellValue;
}

const excelDate = (serial: number) => new Date(Math.round((serial - 25569) * 86_400_000));

/** One cell of every kind a workbook holds, at `ref` (or without a reference when `ref` is null). */
function cellOf(kind: number, ref: string | null, next: () => number): Cell {
  const r = ref === null ? '' : ` r="${ref}"`;
  const n = Math.floor(next() * 1_000_000) / 100;
  switch (kind) {
    case 0: {
      const i = Math.floor(next() * SHARED.length);
      return { xml: `<c${r} t="s"><v>${i}</v></c>`, value: SHARED[i] as string };
    }
    case 1:
      return { xml: `<c${r}><v>${n}</v></c>`, value: n };
    case 2:
      return { xml: `<c${r} s="3"><v>${-n}</v></c>`, value: -n };
    case 3:
      return { xml: `<c${r} s="1"><v>45536</v></c>`, value: excelDate(45536) };
    case 4:
      return { xml: `<c${r} s="2" t="n"><v>45567.5</v></c>`, value: excelDate(45567.5) };
    case 5:
      return { xml: `<c${r} t="str"><v>word ${n}</v></c>`, value: `word ${n}` };
    case 6:
      // An entity: the scanner decodes it.
      return { xml: `<c${r} t="str"><v>A &amp; B ${n}</v></c>`, value: `A & B ${n}` };
    case 7:
      return { xml: `<c${r} t="b"><v>${n > 5000 ? 1 : 0}</v></c>`, value: n > 5000 };
    case 8:
      return { xml: `<c${r} s="1"/>`, value: null };
    case 9:
      return { xml: `<c${r} t="inlineStr"><is><t>inline ${n}</t></is></c>`, value: `inline ${n}` };
    case 10:
      return { xml: `<c${r}><f>A1*2</f><v>${n}</v></c>`, value: n };
    case 11:
      return { xml: `<c${r} t="e"><v>#N/A</v></c>`, value: '#N/A' };
    case 12:
      return { xml: `<c${r} t="str"><v>line\r\nend</v></c>`, value: 'line\nend' };
    case 13:
      return { xml: `<c${r}><v></v></c>`, value: null };
    case 14:
      return { xml: `<c${r} t="str"><v>ünï 漢 🙂 ${n}</v></c>`, value: `ünï 漢 🙂 ${n}` };
    default:
      // Attributes in single quotes.
      return { xml: `<c${ref === null ? '' : ` r='${ref}'`} t='str'><v>quoted</v></c>`, value: 'quoted' };
  }
}
const KINDS = 16;

/** The same cell in a shape the quick path never takes: white space before its tag's end. */
const slow = (xml: string) => xml.replace(/^<c([^>]*?)(\/?)>/, '<c$1 $2>');

/** Rows of random cells, some without references, with gaps; the XML in both shapes and the rows expected. */
function sheet(rows: number, seed: number) {
  const next = random(seed);
  const quick: string[] = [];
  const scanned: string[] = [];
  const expected: Array<[number, CellValue[]]> = [];
  for (let row = 1; row <= rows; row++) {
    const values: CellValue[] = [];
    const cells: Cell[] = [];
    let column = -1;
    const count = 1 + Math.floor(next() * 30);
    for (let k = 0; k < count; k++) {
      // Mostly the next column, sometimes a gap; sometimes no reference (then it is the next column).
      const referenced = next() < 0.9;
      column += referenced && next() < 0.2 ? 1 + Math.floor(next() * 5) : 1;
      const cell = cellOf(
        Math.floor(next() * KINDS),
        referenced ? `${columnLetters(column)}${row}` : null,
        next,
      );
      cells.push(cell);
      if (cell.value !== null) {
        while (values.length < column) values.push(null);
        values[column] = cell.value;
      }
    }
    quick.push(`<row r="${row}">${cells.map((c) => c.xml).join('')}</row>`);
    scanned.push(`<row r="${row}">${cells.map((c) => slow(c.xml)).join('')}</row>`);
    expected.push([row, values]);
  }
  return { quick: quick.join(''), scanned: scanned.join(''), expected };
}

async function read(sheetData: string): Promise<Array<[number, CellValue[]]>> {
  const file = zip(
    workbookParts(sheetData, {
      sharedStrings: { name: 'xl/sharedStrings.xml', data: sharedStringsXml },
      styles: { name: 'xl/styles.xml', data: stylesXml },
    }),
  );
  const rows: Array<[number, CellValue[]]> = [];
  await readFirstSheet(file, (n, values) => {
    rows.push([n, values]);
  });
  return rows;
}

describe('reading a sheet', () => {
  it('reads every kind of cell as written, by the quick path and by the scanner alike, across chunks', async () => {
    // About 1.5 MB of sheet XML: the reader gets it in 64 KB chunks, so cells are cut at many places.
    const { quick, scanned, expected } = sheet(3000, 20261124);
    expect(quick.length).toBeGreaterThan(1_000_000);
    expect(await read(quick)).toEqual(expected);
    expect(await read(scanned)).toEqual(expected);
  });

  it('refuses by the quick path what it refuses by the scanner', async () => {
    const tooFar = `<c r="${columnLetters(200)}1"><v>1</v></c>`;
    const tooLong = `<c r="A1" t="str"><v>${'x'.repeat(32_768)}</v></c>`;
    const badShared = '<c r="A1" t="s"><v>99</v></c>';
    for (const cell of [tooFar, tooLong, badShared]) {
      const messages: string[] = [];
      for (const xml of [cell, slow(cell)]) {
        const error = await read(`<row r="1">${xml}</row>`).then(
          () => null,
          (err: unknown) => err,
        );
        expect(error, xml.slice(0, 40)).toBeInstanceOf(SpreadsheetRefused);
        messages.push((error as Error).message);
      }
      expect(messages[0]).toBe(messages[1]);
    }
  });

  it('leaves to the scanner a cell that is not well-formed, which it refuses', async () => {
    for (const cell of [
      '<c r="A1"><v>1</v></d>',
      '<c r="A1" r="B1"><v>1</v></c>',
      '<c r="A1\u0001"><v>1</v></c>',
    ]) {
      await expect(read(`<row r="1">${cell}</row>`), cell).rejects.toBeInstanceOf(SpreadsheetRefused);
    }
  });
});

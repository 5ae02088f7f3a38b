import { StringDecoder } from 'node:string_decoder';
import { createInflateRaw } from 'node:zlib';
import type { CellValue } from './spreadsheets';
import { columnLetters } from './xlsxWriter';
import { isPlainXml, type XmlHandlers, XmlScanner } from './xmlScanner';

const MiB = 1024 * 1024;

/**
 * The most an import unpacks. An .xlsx is a zip of XML parts that can expand a thousandfold, so every part is
 * bounded by what it really inflates to (declared sizes are checked first, but they can lie), and what is kept
 * in memory (the shared strings) is bounded by count and length. Nothing is written to disk.
 */
export const XLSX_LIMITS = {
  /**
   * The sheet's XML. It streams through the parser and is never held, so this bounds time rather than memory:
   * 100,000 rows of the Residual layout (26 columns) unpack to about 95 MB, 200,000 rows to about 190 MB.
   */
  sheetBytes: 256 * MiB,
  /** Shared strings are held for the whole read: this part's size bounds that memory. */
  sharedStringsBytes: 32 * MiB,
  /** workbook.xml, its relationships and the styles: a few kilobytes in real files. */
  otherPartBytes: 4 * MiB,
  /**
   * Unpacked ÷ packed size of any part larger than `ratioFloorBytes`. Real sheet XML packs 4–20:1; a zip bomb
   * packs about 1000:1.
   */
  ratio: 100,
  ratioFloorBytes: 1 * MiB,
  /** Distinct texts in the shared-strings part (a 200,000-row file with unique names and MIDs has ~400,000). */
  sharedStrings: 1_000_000,
  /** Characters of all shared strings together (held as JavaScript strings: at most ~32 MB). */
  sharedStringChars: 16_000_000,
  /** Characters in one cell: Excel's own limit. */
  cellChars: 32_767,
  /** The widest layout has 26 columns; an export of every column of a table stays well under this. */
  columns: 200,
  /** Rows holding a value, the header included: the 200,000 records of the JSON form plus the header. */
  rows: 200_001,
  /**
   * Characters in one XML tag or text run. The XML parser holds a node whole until it ends; the longest real
   * one is a 32,767-character cell written with entities.
   */
  xmlNodeChars: 1 * MiB,
  /** Files in the zip (a workbook has about ten). */
  zipEntries: 10_000,
} as const;

export const UNREADABLE = 'The file could not be read as an .xlsx workbook';

/** The file is refused for what it holds; the message is for the person who sent it. */
export class SpreadsheetRefused extends Error {
  constructor(
    message: string,
    /** The sheet row the refusal is about; 0 for the file as a whole. */
    readonly row = 0,
  ) {
    super(message);
  }
}

const unreadable = () => new SpreadsheetRefused(UNREADABLE);
const tooLarge = (what: string, limit: number) =>
  new SpreadsheetRefused(
    `The file is too large when unpacked: its ${what} would be more than ${Math.round(limit / MiB)} MB ` +
      `(or more than ${XLSX_LIMITS.ratio} times its packed size). Split it into smaller files and import them one by one.`,
  );

/**
 * Reads the first sheet (the first tab in Excel) of an .xlsx held in memory, row by row. Each row arrives as
 * its 1-based row number and its cell values from column A on. Numbers with a date format arrive as Dates.
 */
export async function readFirstSheet(
  file: Buffer,
  onRow: (rowNumber: number, values: CellValue[]) => Promise<void> | void,
): Promise<void> {
  const parts = centralDirectory(file);
  const workbook = await readWorkbook(file, parts);
  const sheetPart = parts.get(workbook.sheet);
  if (!sheetPart) throw unreadable();
  const sharedStrings = workbook.sharedStrings
    ? await readSharedStrings(file, parts.get(workbook.sharedStrings))
    : [];
  const dateStyles = workbook.styles
    ? await readDateStyles(file, parts.get(workbook.styles))
    : new Set<number>();
  await readSheet(file, sheetPart, { sharedStrings, dateStyles, date1904: workbook.date1904 }, onRow);
}

// ---------------------------------------------------------------- zip

interface ZipEntry {
  flags: number;
  method: number;
  packed: number;
  unpacked: number;
  dataStart: number;
}

/** The zip's parts by lower-case name, from its central directory (so the order of entries does not matter). */
function centralDirectory(file: Buffer): Map<string, ZipEntry> {
  let end = -1;
  for (let i = file.length - 22; i >= Math.max(0, file.length - 22 - 0xffff); i--) {
    if (file.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw unreadable();
  const count = file.readUInt16LE(end + 10);
  const size = file.readUInt32LE(end + 12);
  const offset = file.readUInt32LE(end + 16);
  // Zip64 (the 0xFFFF… marks) is only needed beyond 4 GB or 65,535 entries: never for an upload we accept.
  if (count > XLSX_LIMITS.zipEntries || offset + size > end) throw unreadable();
  const entries = new Map<string, ZipEntry>();
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > end || file.readUInt32LE(p) !== 0x02014b50) throw unreadable();
    const flags = file.readUInt16LE(p + 8);
    const method = file.readUInt16LE(p + 10);
    const packed = file.readUInt32LE(p + 20);
    const unpacked = file.readUInt32LE(p + 24);
    const nameLength = file.readUInt16LE(p + 28);
    const local = file.readUInt32LE(p + 42);
    const name = file.toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength);
    p += 46 + nameLength + file.readUInt16LE(p + 30) + file.readUInt16LE(p + 32);
    if (local + 30 > file.length || file.readUInt32LE(local) !== 0x04034b50) throw unreadable();
    const dataStart = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
    if (dataStart + packed > file.length) throw unreadable();
    const key = name.replace(/^\/+/, '').toLowerCase();
    // Two parts of one name: which one Excel would read is unclear, so neither is guessed.
    if (entries.has(key)) throw unreadable();
    entries.set(key, { flags, method, packed, unpacked, dataStart });
  }
  return entries;
}

/**
 * Inflates one part chunk by chunk into `onText`, refusing it before inflating when its declared size is over
 * the bound and while inflating as soon as what it really produces is.
 */
async function inflatePart(
  file: Buffer,
  entry: ZipEntry,
  what: string,
  limit: number,
  onText: (text: string) => Promise<boolean | undefined> | boolean | undefined,
): Promise<void> {
  // Bit 0: encrypted. Only stored (0) and deflated (8) parts are real workbooks.
  if (entry.flags & 1 || (entry.method !== 0 && entry.method !== 8)) throw unreadable();
  const bound =
    entry.method === 0
      ? Math.min(limit, entry.packed)
      : Math.min(limit, Math.max(XLSX_LIMITS.ratioFloorBytes, entry.packed * XLSX_LIMITS.ratio));
  if (entry.unpacked > bound || (entry.method === 0 && entry.packed > limit)) throw tooLarge(what, limit);
  const packed = file.subarray(entry.dataStart, entry.dataStart + entry.packed);
  const decoder = new StringDecoder('utf8');
  if (entry.method === 0) {
    await onText(decoder.write(packed) + decoder.end());
    return;
  }
  // The inflater waits for each chunk to be taken before producing the next, so memory stays at one chunk.
  const inflater = createInflateRaw({ chunkSize: 64 * 1024 });
  inflater.end(packed);
  let seen = 0;
  try {
    for await (const chunk of inflater as AsyncIterable<Buffer>) {
      seen += chunk.length;
      if (seen > bound) throw tooLarge(what, limit);
      if ((await onText(decoder.write(chunk))) === false) return;
    }
  } catch (err) {
    if (err instanceof SpreadsheetRefused) throw err;
    throw unreadable();
  } finally {
    inflater.destroy();
  }
  await onText(decoder.end());
}

/**
 * Parses one XML part (xmlScanner.ts), element names without their namespace prefix. `afterChunk` runs after each
 * chunk (the place for async work, such as writing rows); answering false stops reading. `reads` narrows what the
 * scanner decodes: the attributes of which elements, and whether text is wanted at the moment.
 */
async function parsePart(
  file: Buffer,
  entry: ZipEntry | undefined,
  what: string,
  limit: number,
  handlers: XmlHandlers,
  afterChunk?: () => Promise<boolean> | boolean,
  reads: {
    attributesOf?: (name: string) => boolean;
    text?: () => boolean;
    shortcut?: (xml: string, lt: number) => number;
  } = {},
): Promise<void> {
  if (!entry) throw unreadable();
  const scanner = new XmlScanner(
    handlers,
    XLSX_LIMITS.xmlNodeChars,
    reads.attributesOf,
    reads.text,
    reads.shortcut,
  );
  let stopped = false;
  try {
    await inflatePart(file, entry, what, limit, async (text) => {
      scanner.write(text);
      stopped = afterChunk ? !(await afterChunk()) : false;
      return !stopped;
    });
    if (!stopped) scanner.close();
  } catch (err) {
    if (err instanceof SpreadsheetRefused) throw err;
    throw unreadable();
  }
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const attribute = (attributes: Record<string, string>, name: string) => {
  for (const [key, value] of Object.entries(attributes)) if (localName(key) === name) return value;
  return undefined;
};

// ---------------------------------------------------------------- workbook, shared strings, styles

interface WorkbookParts {
  sheet: string;
  sharedStrings: string | null;
  styles: string | null;
  date1904: boolean;
}

async function readWorkbook(file: Buffer, parts: Map<string, ZipEntry>): Promise<WorkbookParts> {
  let firstSheetId: string | undefined;
  let date1904 = false;
  await parsePart(file, parts.get('xl/workbook.xml'), 'workbook', XLSX_LIMITS.otherPartBytes, {
    open: (name, attributes) => {
      if (name === 'workbookPr') date1904 = ['1', 'true'].includes(attributes.date1904 ?? '');
      if (name === 'sheet' && firstSheetId === undefined) firstSheetId = attribute(attributes, 'id');
    },
  });
  const targets = new Map<string, string>();
  let sharedStrings: string | null = null;
  let styles: string | null = null;
  await parsePart(file, parts.get('xl/_rels/workbook.xml.rels'), 'workbook', XLSX_LIMITS.otherPartBytes, {
    open: (name, attributes) => {
      if (name !== 'Relationship' || !attributes.Target) return;
      const target = partName(attributes.Target);
      if (attributes.Id) targets.set(attributes.Id, target);
      if (attributes.Type?.endsWith('/sharedStrings')) sharedStrings = target;
      if (attributes.Type?.endsWith('/styles')) styles = target;
    },
  });
  const sheet = firstSheetId === undefined ? undefined : targets.get(firstSheetId);
  if (!sheet) throw unreadable();
  return { sheet, sharedStrings, styles, date1904 };
}

/** A relationship's target as a part name: relative to xl/ unless absolute. */
function partName(target: string): string {
  const segments: string[] = target.startsWith('/') ? [] : ['xl'];
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '' && segment !== '.') segments.push(segment);
  }
  return segments.join('/').toLowerCase();
}

async function readSharedStrings(file: Buffer, entry: ZipEntry | undefined): Promise<string[]> {
  const strings: string[] = [];
  let chars = 0;
  let current = '';
  let inText = false;
  let phonetic = 0;
  await parsePart(
    file,
    entry,
    'shared text',
    XLSX_LIMITS.sharedStringsBytes,
    {
      open: (name) => {
        if (name === 'si') current = '';
        else if (name === 'rPh') phonetic++;
        else if (name === 't' && phonetic === 0) inText = true;
      },
      text: (text) => {
        if (inText) current += text;
      },
      close: (name) => {
        if (name === 't') inText = false;
        else if (name === 'rPh') phonetic--;
        else if (name === 'si') {
          if (current.length > XLSX_LIMITS.cellChars) throw cellTooLong();
          chars += current.length;
          strings.push(current);
          if (strings.length > XLSX_LIMITS.sharedStrings || chars > XLSX_LIMITS.sharedStringChars)
            throw new SpreadsheetRefused(
              `The file holds too much text: more than ${XLSX_LIMITS.sharedStrings.toLocaleString('en-US')} different texts or ` +
                `${XLSX_LIMITS.sharedStringChars.toLocaleString('en-US')} characters. Split it into smaller files and import them one by one.`,
            );
        }
      },
    },
    undefined,
    { attributesOf: () => false, text: () => inText },
  );
  return strings;
}

const cellTooLong = (row = 0, column?: number) =>
  new SpreadsheetRefused(
    `${column === undefined ? 'A cell' : `Cell ${columnLetters(column)}${row}`} holds more than ` +
      `${XLSX_LIMITS.cellChars.toLocaleString('en-US')} characters, Excel's own limit for a cell`,
    row,
  );

/** Built-in number formats that show a date or time. */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

/** The cell styles (indexes into cellXfs) whose number format shows a date, so their numbers are dates. */
async function readDateStyles(file: Buffer, entry: ZipEntry | undefined): Promise<Set<number>> {
  const customDates = new Set<number>();
  const styleFormats: number[] = [];
  let inCellXfs = false;
  await parsePart(file, entry, 'styles', XLSX_LIMITS.otherPartBytes, {
    open: (name, attributes) => {
      if (name === 'numFmt' && isDateFormat(attributes.formatCode ?? ''))
        customDates.add(Number(attributes.numFmtId));
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) styleFormats.push(Number(attributes.numFmtId ?? 0));
    },
    close: (name) => {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  const dates = new Set<number>();
  styleFormats.forEach((id, style) => {
    if (DATE_FORMAT_IDS.has(id) || customDates.has(id)) dates.add(style);
  });
  return dates;
}

/** A format shows a date when, outside quoted text, colours and escapes, it has a day, month, year or time. */
function isDateFormat(code: string): boolean {
  return /[dmyhs]/i.test(code.replace(/"[^"]*"|\[[^\]]*\]|\\.|_.|\*./g, ''));
}

// ---------------------------------------------------------------- the sheet

interface SheetContext {
  sharedStrings: readonly string[];
  dateStyles: ReadonlySet<number>;
  date1904: boolean;
}

async function readSheet(
  file: Buffer,
  entry: ZipEntry,
  context: SheetContext,
  onRow: (rowNumber: number, values: CellValue[]) => Promise<void> | void,
): Promise<void> {
  const ready: Array<[number, CellValue[]]> = [];
  let inSheetData = false;
  let finished = false;
  let rowNumber = 0;
  let rowsWithValues = 0;
  let values: CellValue[] | null = null;
  let column = -1;
  let type = 'n';
  let style = 0;
  let raw: string | null = null;
  let inline: string | null = null;
  let capturing = false;
  let phonetic = 0;

  const cellValue = (): CellValue => {
    switch (type) {
      case 's': {
        if (raw === null) return null;
        const text = context.sharedStrings[Number(raw)];
        if (text === undefined) throw unreadable();
        return text;
      }
      case 'inlineStr':
        return inline;
      case 'str':
      case 'e':
        return raw;
      case 'b':
        return raw === null ? null : raw.trim() === '1' || raw.trim() === 'true';
      case 'd': {
        if (raw === null) return null;
        const date = new Date(raw);
        return Number.isNaN(date.getTime()) ? raw : date;
      }
      default: {
        if (raw === null || raw.trim() === '') return null;
        const n = Number(raw);
        if (!Number.isFinite(n)) return raw;
        if (!context.dateStyles.has(style)) return n;
        // Excel counts days from 1899-12-30 (or 1904-01-01 in the 1904 date system).
        return new Date(Math.round((n - 25569 + (context.date1904 ? 1462 : 0)) * 86_400_000));
      }
    }
  };

  /** A cell begins: its place, type and style; no value yet. */
  const startCell = (cellColumn: number, cellType: string, cellStyle: number) => {
    column = cellColumn;
    type = cellType;
    style = cellStyle;
    raw = null;
    inline = null;
  };

  const endCell = (row: CellValue[]) => {
    const value = cellValue();
    if (value === null) return;
    if (typeof value === 'string' && value.length > XLSX_LIMITS.cellChars)
      throw cellTooLong(rowNumber, column);
    if (column >= XLSX_LIMITS.columns)
      throw new SpreadsheetRefused(
        `Row ${rowNumber} has a value in column ${columnLetters(column)}; an import reads at most ` +
          `${XLSX_LIMITS.columns} columns (A to ${columnLetters(XLSX_LIMITS.columns - 1)})`,
        rowNumber,
      );
    while (row.length < column) row.push(null);
    row[column] = value;
  };

  /**
   * Most of a sheet is cells of one shape, `<c r="B2" t="s" s="1"><v>12</v></c>` or `<c r="B2"/>`: this reads
   * such a cell in one pass, without cutting its attributes out of the text, several times quicker than the
   * scanner's events for its four tags. Anything else (other attributes or values, white space, inline text,
   * formulas, entities, a cell cut by the chunk's end) answers -1 and the scanner reads it.
   */
  const quickCell = (xml: string, lt: number): number => {
    if (values === null || xml.charCodeAt(lt + 1) !== 0x63 /* c */) return -1;
    let cellColumn = column + 1;
    let cellType = 'n';
    let cellStyle = 0;
    let seen = 0;
    let at = lt + 2;
    // Attributes: one space, r, t or s (each once), =", a value of the plainest kind, ".
    while (xml.charCodeAt(at) === 0x20) {
      const attribute = xml.charCodeAt(at + 1);
      if (xml.charCodeAt(at + 2) !== 0x3d /* = */ || xml.charCodeAt(at + 3) !== 0x22 /* " */) return -1;
      const from = at + 4;
      const close = xml.indexOf('"', from);
      if (close < 0) return -1;
      if (attribute === 0x72 /* r */ && !(seen & 1)) {
        cellColumn = plainReference(xml, from, close);
        if (cellColumn < 0) return -1;
        seen |= 1;
      } else if (attribute === 0x74 /* t */ && !(seen & 2)) {
        const known = cellTypeAt(xml, from, close);
        if (known === undefined) return -1;
        cellType = known;
        seen |= 2;
      } else if (attribute === 0x73 /* s */ && !(seen & 4)) {
        cellStyle = plainDigits(xml, from, close);
        if (cellStyle < 0) return -1;
        seen |= 4;
      } else return -1;
      at = close + 1;
    }
    let text: string | null = null;
    let after: number;
    if (xml.charCodeAt(at) === 0x2f /* / */) {
      if (xml.charCodeAt(at + 1) !== 0x3e) return -1;
      after = at + 2;
    } else {
      if (!xml.startsWith('><v>', at)) return -1;
      const textEnd = xml.indexOf('<', at + 4);
      if (textEnd < 0 || !xml.startsWith('</v></c>', textEnd)) return -1;
      text = xml.slice(at + 4, textEnd);
      if (!isPlainXml(text)) return -1;
      after = textEnd + 8;
    }
    startCell(cellColumn, cellType, cellStyle);
    raw = text;
    endCell(values);
    return after;
  };

  await parsePart(
    file,
    entry,
    'sheet',
    XLSX_LIMITS.sheetBytes,
    {
      open: (name, attributes) => {
        if (name === 'sheetData') inSheetData = true;
        if (!inSheetData) return;
        if (name === 'row') {
          rowNumber = attributes.r ? Number(attributes.r) : rowNumber + 1;
          if (!Number.isInteger(rowNumber) || rowNumber < 1) throw unreadable();
          values = [];
          column = -1;
        } else if (name === 'c' && values) {
          startCell(
            attributes.r ? columnIndex(attributes.r) : column + 1,
            attributes.t ?? 'n',
            Number(attributes.s ?? 0),
          );
        } else if (name === 'v' || (name === 't' && phonetic === 0)) {
          capturing = true;
          if (name === 'v') raw = '';
          else inline ??= '';
        } else if (name === 'rPh') phonetic++;
      },
      text: (text) => {
        if (!capturing) return;
        if (raw !== null && inline === null) raw += text;
        else inline += text;
      },
      close: (name) => {
        if (!inSheetData) return;
        if (name === 'v' || name === 't') capturing = false;
        else if (name === 'rPh') phonetic--;
        else if (name === 'c' && values) endCell(values);
        else if (name === 'row' && values) {
          if (values.length > 0 && ++rowsWithValues > XLSX_LIMITS.rows)
            throw new SpreadsheetRefused(
              `The sheet has more than ${(XLSX_LIMITS.rows - 1).toLocaleString('en-US')} rows after the header. ` +
                'Split it into smaller files and import them one by one.',
              rowNumber,
            );
          ready.push([rowNumber, values]);
          values = null;
        } else if (name === 'sheetData') {
          inSheetData = false;
          finished = true;
        }
      },
    },
    async () => {
      for (const [n, row] of ready) await onRow(n, row);
      ready.length = 0;
      // Whatever follows the rows (merged cells, print settings) is not needed.
      return !finished;
    },
    { attributesOf: (name) => name === 'row' || name === 'c', text: () => capturing, shortcut: quickCell },
  );
}

/** "C12" → 2. Letters beyond any real column stay large, so they are refused as too far right. */
function columnIndex(reference: string): number {
  let index = 0;
  for (let i = 0; i < reference.length; i++) {
    let code = reference.charCodeAt(i);
    if (code >= 97 && code <= 122) code -= 32;
    if (code < 65 || code > 90) break;
    index = Math.min(index * 26 + (code - 64), 1e9);
  }
  if (index === 0) throw unreadable();
  return index - 1;
}

/** A cell reference of capital letters (at most three, as Excel's) then digits, as its column; else -1. */
function plainReference(xml: string, from: number, to: number): number {
  let index = 0;
  let at = from;
  for (let c = xml.charCodeAt(at); c >= 65 && c <= 90 && at - from < 3; c = xml.charCodeAt(++at))
    index = index * 26 + (c - 64);
  if (at === from || at === to) return -1;
  for (; at < to; at++) {
    const c = xml.charCodeAt(at);
    if (c < 48 || c > 57) return -1;
  }
  return index - 1;
}

/** One to six digits, as a number; else -1. */
function plainDigits(xml: string, from: number, to: number): number {
  if (to <= from || to - from > 6) return -1;
  let n = 0;
  for (let at = from; at < to; at++) {
    const c = xml.charCodeAt(at);
    if (c < 48 || c > 57) return -1;
    n = n * 10 + (c - 48);
  }
  return n;
}

const CELL_TYPES = ['s', 'n', 'str', 'b', 'e', 'd', 'inlineStr'];

/** The cell type written between `from` and `to`, when it is one of the known ones. */
function cellTypeAt(xml: string, from: number, to: number): string | undefined {
  for (const known of CELL_TYPES) if (known.length === to - from && xml.startsWith(known, from)) return known;
  return undefined;
}

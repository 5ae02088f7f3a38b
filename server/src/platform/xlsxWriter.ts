import type { Writable } from 'node:stream';
import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A one-sheet .xlsx written as it is produced: the sheet's XML is built row by row as text and deflated on the way
 * out, all on the calling thread (an export calls it from the spreadsheet thread, spreadsheetThreads.ts). It writes only what an export needs (a bold,
 * frozen header row, column widths, money in #,##0.00, numbers, text and booleans), which makes it several times
 * faster than a general workbook library that builds an object per row and per cell. The zip is plain (no
 * Zip64): an export stays far below its 4 GB limit, and the writer refuses to go past it.
 */
export interface XlsxColumn {
  header: string;
  /** Width in characters. */
  width: number;
  /** Shown with the money format #,##0.00. */
  money: boolean;
}

export type XlsxValue = string | number | boolean | null;

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Cell styles (indexes into cellXfs below). */
const STYLE = { header: 1, money: 2 } as const;
const STYLES =
  `${XML_HEAD}<styleSheet xmlns="${NS}"><numFmts count="1"><numFmt numFmtId="164" formatCode="#,##0.00"/></numFmts>` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

const CONTENT_TYPES =
  `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '</Types>';

const ROOT_RELS = `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

const WORKBOOK_RELS =
  `${XML_HEAD}<Relationships xmlns="${PKG_REL}">` +
  `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`;

/** Characters XML 1.0 cannot hold at all (Excel would refuse the file): dropped. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to drop
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const XML_SPECIAL = new RegExp(`[&<>"]|${NOT_XML.source}`);

export function xmlText(text: string): string {
  if (!XML_SPECIAL.test(text)) return text;
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A sheet's name as Excel allows it: at most 31 characters, none of []:*?/\, not empty. */
export function sheetName(name: string): string {
  const cleaned = name
    .replace(NOT_XML, '')
    .replace(/[[\]:*?/\\]/g, ' ')
    .trim()
    .slice(0, 31);
  return cleaned === '' ? 'Sheet1' : cleaned;
}

export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

export class XlsxWriter {
  private readonly zip: ZipWriter;
  private readonly letters: string[];
  /** The start of each cell of a data row, by column: `<c r="B` (the row number follows) plus its style. */
  private readonly cellStyles: string[];
  private sheet: ZipEntryStream | null = null;
  private row = 0;

  constructor(
    out: Writable,
    private readonly name: string,
    private readonly columns: readonly XlsxColumn[],
  ) {
    this.zip = new ZipWriter(out);
    this.letters = columns.map((_, i) => columnLetters(i));
    this.cellStyles = columns.map((c) => (c.money ? ` s="${STYLE.money}"` : ''));
  }

  /** Writes the workbook's small parts and opens the sheet with its header row. */
  async start(): Promise<void> {
    await this.zip.file('[Content_Types].xml', CONTENT_TYPES);
    await this.zip.file('_rels/.rels', ROOT_RELS);
    await this.zip.file(
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets>` +
        `<sheet name="${xmlText(sheetName(this.name))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    );
    await this.zip.file('xl/_rels/workbook.xml.rels', WORKBOOK_RELS);
    await this.zip.file('xl/styles.xml', STYLES);
    this.sheet = this.zip.stream('xl/worksheets/sheet1.xml');
    const cols = this.columns
      .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`)
      .join('');
    const header = this.columns
      .map(
        (c, i) =>
          `<c r="${this.letters[i]}1" s="${STYLE.header}" t="inlineStr"><is><t>${xmlText(c.header)}</t></is></c>`,
      )
      .join('');
    this.row = 1;
    await this.sheet.write(
      `${XML_HEAD}<worksheet xmlns="${NS}" xmlns:r="${REL}"><sheetViews><sheetView workbookViewId="0">` +
        '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
        `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData><row r="1">${header}</row>`,
    );
  }

  /** Adds rows, each its values column by column. */
  async addRows(rows: readonly (readonly XlsxValue[])[]): Promise<void> {
    if (!this.sheet) throw new Error('start() first');
    let xml = '';
    for (const values of rows) {
      const r = ++this.row;
      xml += `<row r="${r}">`;
      for (let i = 0; i < this.columns.length; i++) {
        const v = values[i];
        if (v === null || v === undefined) continue;
        const ref = `${this.letters[i]}${r}`;
        if (typeof v === 'number') {
          if (Number.isFinite(v)) xml += `<c r="${ref}"${this.cellStyles[i]}><v>${v}</v></c>`;
        } else if (typeof v === 'boolean') xml += `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
        else {
          const space = v !== v.trim() ? ' xml:space="preserve"' : '';
          xml += `<c r="${ref}" t="inlineStr"><is><t${space}>${xmlText(v)}</t></is></c>`;
        }
      }
      xml += '</row>';
      // Handed on every few dozen rows: text held for a whole chunk would live long enough to reach the old heap
      // (an export would leave a hundred megabytes of garbage there).
      if (xml.length >= 32 * 1024) {
        await this.sheet.write(xml);
        xml = '';
      }
    }
    if (xml !== '') await this.sheet.write(xml);
  }

  /** Closes the sheet and the zip. */
  async finish(): Promise<void> {
    if (!this.sheet) throw new Error('start() first');
    await this.sheet.write('</sheetData></worksheet>');
    await this.sheet.end();
    await this.zip.finish();
  }
}

// ---------------------------------------------------------------- zip

interface Written {
  name: Buffer;
  crc: number;
  packed: number;
  size: number;
  offset: number;
  /** Its sizes follow its data (a data descriptor): true for a streamed part. */
  descriptor: boolean;
}

interface ZipEntryStream {
  write(text: string): Promise<void>;
  end(): Promise<void>;
}

const MAX_ZIP = 0xffffffff;
// Bit 11: the name is UTF-8. Bit 3: the sizes and checksum follow the data.
const UTF8 = 0x0800;
const DESCRIPTOR = 0x0008;
const DEFLATE = 8;
const LEVEL = 1;

/** The time of writing as a zip stores it (MS-DOS time and date, local time). */
function dosTime(d = new Date()): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

class ZipWriter {
  private offset = 0;
  private readonly modified = dosTime();
  private readonly written: Written[] = [];

  constructor(private readonly out: Writable) {}

  private async emit(chunk: Buffer): Promise<void> {
    if (this.out.destroyed) throw new Error('The client went away during the download');
    this.offset += chunk.length;
    if (this.offset > MAX_ZIP) throw new Error('The spreadsheet is too large for a zip without Zip64');
    if (!this.out.write(chunk)) await drainedOrClosed(this.out);
  }

  private localHeader(entry: Omit<Written, 'offset'>): Buffer {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(UTF8 | (entry.descriptor ? DESCRIPTOR : 0), 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(this.modified.time, 10);
    header.writeUInt16LE(this.modified.date, 12);
    header.writeUInt32LE(entry.crc, 14);
    header.writeUInt32LE(entry.packed, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(entry.name.length, 26);
    return Buffer.concat([header, entry.name]);
  }

  /** A small part, deflated at once. */
  async file(name: string, text: string): Promise<void> {
    const raw = Buffer.from(text, 'utf8');
    const packed = deflateRawSync(raw, { level: LEVEL });
    const entry = {
      name: Buffer.from(name, 'utf8'),
      crc: crc32(raw),
      packed: packed.length,
      size: raw.length,
      descriptor: false,
    };
    this.written.push({ ...entry, offset: this.offset });
    await this.emit(this.localHeader(entry));
    await this.emit(packed);
  }

  /**
   * A large part, deflated as it is written; its sizes and checksum follow it. It is deflated here, on the
   * writing thread (the spreadsheet thread, at a low priority), not on libuv's pool, where it would compete with
   * sign-in's argon2 at full priority: every few hundred kilobytes of text are deflated at once and ended with a
   * sync flush, which leaves the part one valid deflate stream (the pieces only never refer back across a joint).
   */
  stream(name: string): ZipEntryStream {
    const entry: Written = {
      name: Buffer.from(name, 'utf8'),
      crc: 0,
      packed: 0,
      size: 0,
      offset: this.offset,
      descriptor: true,
    };
    this.written.push(entry);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const deflatePending = async (last: boolean) => {
      const packed = deflateRawSync(Buffer.concat(pending, pendingBytes), {
        level: LEVEL,
        finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH,
      });
      pending = [];
      pendingBytes = 0;
      entry.packed += packed.length;
      await this.emit(packed);
    };
    const started = this.emit(this.localHeader(entry));
    return {
      write: async (text) => {
        await started;
        const raw = Buffer.from(text, 'utf8');
        entry.crc = crc32(raw, entry.crc);
        entry.size += raw.length;
        if (entry.size > MAX_ZIP) throw new Error('The spreadsheet is too large for a zip without Zip64');
        pending.push(raw);
        pendingBytes += raw.length;
        if (pendingBytes >= 256 * 1024) await deflatePending(false);
      },
      end: async () => {
        await started;
        await deflatePending(true);
        const descriptor = Buffer.alloc(16);
        descriptor.writeUInt32LE(0x08074b50, 0);
        descriptor.writeUInt32LE(entry.crc, 4);
        descriptor.writeUInt32LE(entry.packed, 8);
        descriptor.writeUInt32LE(entry.size, 12);
        await this.emit(descriptor);
      },
    };
  }

  /** The central directory and its end record. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const e of this.written) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(20, 6);
      header.writeUInt16LE(UTF8 | (e.descriptor ? DESCRIPTOR : 0), 8);
      header.writeUInt16LE(DEFLATE, 10);
      header.writeUInt16LE(this.modified.time, 12);
      header.writeUInt16LE(this.modified.date, 14);
      header.writeUInt32LE(e.crc, 16);
      header.writeUInt32LE(e.packed, 20);
      header.writeUInt32LE(e.size, 24);
      header.writeUInt16LE(e.name.length, 28);
      header.writeUInt32LE(e.offset, 42);
      await this.emit(Buffer.concat([header, e.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.written.length, 8);
    end.writeUInt16LE(this.written.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.emit(end);
    this.out.end();
  }
}

export function drainedOrClosed(stream: Writable): Promise<void> {
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

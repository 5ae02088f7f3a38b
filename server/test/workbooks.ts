import { crc32, deflateRawSync } from 'node:zlib';

// Workbooks built part by part, for tests of the reader: hostile ones, and ones whose XML a test chooses.

export interface Part {
  name: string;
  data: Buffer | string;
  /** The uncompressed size the zip claims, when it should lie. */
  declared?: number;
  /** An already deflated body (then `data` is not used). */
  packed?: Buffer;
}

/** A zip of the parts in the order given. */
export function zip(parts: readonly Part[]): Buffer {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const raw = typeof part.data === 'string' ? Buffer.from(part.data) : part.data;
    const packed = part.packed ?? deflateRawSync(raw);
    const name = Buffer.from(part.name);
    const crc = part.packed ? 0 : crc32(raw);
    const size = part.declared ?? raw.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    chunks.push(local, name, packed);
    central.push(entry, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, directory, end]);
}

export const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
export const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The parts of a workbook whose first sheet holds `sheetData`, in the usual order unless told. */
export function workbookParts(
  sheetData: string,
  extra: { sharedStrings?: Part; styles?: Part } = {},
): Part[] {
  return [
    {
      name: '[Content_Types].xml',
      data: '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    },
    {
      name: 'xl/workbook.xml',
      data: `<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data:
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
        (extra.sharedStrings
          ? `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`
          : '') +
        (extra.styles ? `<Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/>` : '') +
        '</Relationships>',
    },
    ...(extra.sharedStrings ? [extra.sharedStrings] : []),
    ...(extra.styles ? [extra.styles] : []),
    {
      name: 'xl/worksheets/sheet1.xml',
      data: `<worksheet xmlns="${NS}"><sheetData>${sheetData}</sheetData></worksheet>`,
    },
  ];
}

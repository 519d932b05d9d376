/**
 * Workbooks written byte by byte for the tests of hostile files (no binary fixtures): a minimal
 * zip writer (stored or deflated parts, sizes that may lie) and the few parts an .xlsx needs.
 */
import { deflateRawSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export interface ZipPart {
  name: string;
  data: Buffer | string;
  /** The uncompressed size the zip claims (a lie when set). */
  declaredSize?: number;
}

/** A zip of `parts`, each deflated. */
export function zip(parts: ZipPart[]): Uint8Array {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const data = typeof p.data === 'string' ? Buffer.from(p.data, 'utf8') : p.data;
    const packed = deflateRawSync(data, { level: 9 });
    const name = Buffer.from(p.name, 'utf8');
    const size = p.declaredSize ?? data.length;
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(packed.length, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    central.push(header, name);
    offset += local.length + name.length + packed.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, dir, end]));
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`;

/** A worksheet part around `rows` (the `<row>` elements). */
export const sheetXml = (rows: string) => xml(`<worksheet xmlns="${MAIN}"><sheetData>${rows}</sheetData></worksheet>`);
/** A row of inline strings. */
export const rowXml = (n: number, cells: string[]) =>
  `<row r="${n}">${cells.map((t, i) => `<c r="${String.fromCharCode(65 + i)}${n}" t="inlineStr"><is><t>${t}</t></is></c>`).join('')}</row>`;

export interface WorkbookParts {
  /** Each sheet's XML (sheetXml), or its raw bytes; the first is the one the import reads. */
  sheets: (string | Buffer)[];
  /** sharedStrings.xml, when given. */
  sharedStrings?: string | Buffer;
  /** Sizes the zip claims for the sheets (index → bytes). */
  declared?: Record<number, number>;
}

/** A minimal .xlsx: content types, relationships, the workbook, its sheets and shared strings. */
export function workbook(w: WorkbookParts): Uint8Array {
  const sheetNames = w.sheets.map((_, i) => `sheet${i + 1}.xml`);
  const types =
    `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
    `<Default Extension="xml" ContentType="application/xml"/>` +
    `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
    sheetNames
      .map((n) => `<Override PartName="/xl/worksheets/${n}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`)
      .join('') +
    (w.sharedStrings !== undefined
      ? `<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>`
      : '') +
    `</Types>`;
  const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
  const book = `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>${sheetNames.map((_, i) => `<sheet name="S${i + 1}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`;
  const bookRels =
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    sheetNames.map((n, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/${n}"/>`).join('') +
    (w.sharedStrings !== undefined ? `<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : '') +
    `</Relationships>`;
  return zip([
    { name: '[Content_Types].xml', data: xml(types) },
    { name: '_rels/.rels', data: xml(rels) },
    { name: 'xl/workbook.xml', data: xml(book) },
    { name: 'xl/_rels/workbook.xml.rels', data: xml(bookRels) },
    ...(w.sharedStrings !== undefined ? [{ name: 'xl/sharedStrings.xml', data: w.sharedStrings }] : []),
    ...w.sheets.map((data, i) => ({ name: `xl/worksheets/${sheetNames[i]}`, data, ...(w.declared?.[i] !== undefined ? { declaredSize: w.declared[i] } : {}) })),
  ]);
}

/** sharedStrings.xml with `count` one-letter texts. */
export function sharedStringsXml(count: number): Buffer {
  const head = Buffer.from(xml(`<sst xmlns="${MAIN}" count="${count}" uniqueCount="${count}">`));
  return Buffer.concat([head, Buffer.from('<si><t>a</t></si>'.repeat(count)), Buffer.from('</sst>')]);
}

/** A sheet of `rows` rows of one number each (a row bomb), as bytes. */
export function rowBomb(rows: number): Buffer {
  const parts: string[] = [];
  for (let n = 1; n <= rows; n++) parts.push(`<row r="${n}"><c r="A${n}"><v>1</v></c></row>`);
  return Buffer.from(sheetXml(parts.join('')));
}

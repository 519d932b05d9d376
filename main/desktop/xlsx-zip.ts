/**
 * What an .xlsx may expand to, checked before a workbook parser sees it (issue 25: a file under the
 * 20 MB cap took 3.6 GB, another expanded to one 300 MB cell). An .xlsx is a zip: its central
 * directory is read first (how many parts, how big each says it is), then every part is inflated
 * as a stream whose output is counted and dropped, so a part that lies about its size is caught
 * as it grows, never held. Only then does exceljs read the file, and it can take no more than this.
 */
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { badRequest } from '../service/errors.js';

export const XLSX_LIMITS = {
  /** Parts of the zip (a workbook has a dozen; each sheet adds one or two). */
  maxEntries: 1000,
  /** Worksheets: the import reads the first one. */
  maxSheets: 256,
  /** One part, inflated: a 20,001-row sheet of plain cells is well under this. */
  maxEntryBytes: 64 * 1024 * 1024,
  /** All parts together, inflated. */
  maxTotalBytes: 128 * 1024 * 1024,
  /** Distinct texts of the workbook (sharedStrings.xml): 20,000 rows of a dozen texts each fit. */
  maxSharedStrings: 250_000,
};
export type XlsxLimits = typeof XLSX_LIMITS;

const MB = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;
const refuse = (why: string) => badRequest(`This workbook cannot be imported: ${why}`);
const notAWorkbook = () => badRequest('Not a readable .xlsx workbook');

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  declaredSize: number;
  localOffset: number;
}

/** The central directory's entries; a file that is not a zip (or is a ZIP64 one) is refused. */
function centralDirectory(buf: Buffer, limits: XlsxLimits): Entry[] {
  // The end-of-central-directory record: 22 bytes, then a comment of at most 65,535.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw notAWorkbook();
  const count = buf.readUInt16LE(eocd + 10);
  const size = buf.readUInt32LE(eocd + 12);
  const offset = buf.readUInt32LE(eocd + 16);
  // ZIP64 markers: a workbook under 20 MB never needs them.
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) throw notAWorkbook();
  if (count > limits.maxEntries) throw refuse(`it has ${count} parts (at most ${limits.maxEntries})`);
  if (offset + size > buf.length) throw notAWorkbook();
  const entries: Entry[] = [];
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw notAWorkbook();
    const nameLength = buf.readUInt16LE(p + 28);
    const next = p + 46 + nameLength + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    if (next > buf.length) throw notAWorkbook();
    entries.push({
      name: buf.toString('utf8', p + 46, p + 46 + nameLength),
      method: buf.readUInt16LE(p + 10),
      compressedSize: buf.readUInt32LE(p + 20),
      declaredSize: buf.readUInt32LE(p + 24),
      localOffset: buf.readUInt32LE(p + 42),
    });
    p = next;
  }
  return entries;
}

/** The part's compressed bytes, found through its local header. */
function dataOf(buf: Buffer, e: Entry): Buffer {
  const p = e.localOffset;
  if (p + 30 > buf.length || buf.readUInt32LE(p) !== 0x04034b50) throw notAWorkbook();
  const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
  if (start + e.compressedSize > buf.length) throw notAWorkbook();
  return buf.subarray(start, start + e.compressedSize);
}

/**
 * Inflates a part as a stream and counts it: more than `cap` bytes stops it at once. `onChunk` sees
 * each piece (counting shared strings); nothing is kept.
 */
async function inflatedSize(data: Buffer, method: number, cap: number, onChunk?: (chunk: Buffer) => void): Promise<number> {
  if (method === 0) {
    onChunk?.(data);
    return data.length;
  }
  if (method !== 8) throw notAWorkbook();
  const inflate = createInflateRaw();
  let total = 0;
  try {
    for await (const chunk of Readable.from([data]).pipe(inflate)) {
      const c = chunk as Buffer;
      total += c.length;
      if (total > cap) return total;
      onChunk?.(c);
    }
  } catch (e) {
    if (e instanceof Error && 'code' in e && String(e.code).startsWith('Z_')) throw notAWorkbook();
    throw e;
  } finally {
    inflate.destroy();
  }
  return total;
}

/** Counts `<si>` / `<si ` openings across chunk boundaries. */
function sharedStringCounter() {
  let count = 0;
  let tail = '';
  return {
    add(chunk: Buffer) {
      const text = tail + chunk.toString('latin1');
      count += (text.match(/<si[\s>]/g) ?? []).length;
      // Keep what could be the start of an opening cut by the chunk's end ("<s", "<si").
      tail = text.slice(-3);
    },
    count: () => count,
  };
}

/**
 * Refuses, with what is wrong, a workbook that could take more than the limits once read: too many
 * parts or sheets, a part or the whole bigger than allowed when inflated (declared or actual), too
 * many shared strings. Runs in bounded memory whatever the file holds.
 */
export async function checkWorkbookSize(bytes: Uint8Array, limits: XlsxLimits = XLSX_LIMITS): Promise<void> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = centralDirectory(buf, limits);
  const sheets = entries.filter((e) => /^xl\/worksheets\/[^/]+\.xml$/i.test(e.name)).length;
  if (sheets > limits.maxSheets) throw refuse(`it has ${sheets} sheets (at most ${limits.maxSheets})`);
  // What the parts say first: the cheapest refusal.
  let declared = 0;
  for (const e of entries) {
    if (e.declaredSize > limits.maxEntryBytes) throw refuse(`${e.name.slice(0, 80)} expands to more than ${MB(limits.maxEntryBytes)}`);
    declared += e.declaredSize;
  }
  if (declared > limits.maxTotalBytes) throw refuse(`it expands to more than ${MB(limits.maxTotalBytes)}`);
  // Then what they really hold: a part may say 1 KB and inflate to gigabytes.
  let total = 0;
  for (const e of entries) {
    const strings = /^xl\/sharedStrings\.xml$/i.test(e.name) ? sharedStringCounter() : undefined;
    const cap = Math.min(limits.maxEntryBytes, limits.maxTotalBytes - total);
    const tooManyStrings = () => refuse(`it has more than ${limits.maxSharedStrings.toLocaleString('en')} distinct texts`);
    const size = await inflatedSize(
      dataOf(buf, e),
      e.method,
      cap,
      strings
        ? (c) => {
            // Stopped as soon as the count passes the limit, not at the end of the part.
            strings.add(c);
            if (strings.count() > limits.maxSharedStrings) throw tooManyStrings();
          }
        : undefined,
    );
    if (size > cap) {
      throw refuse(
        cap < limits.maxEntryBytes
          ? `it expands to more than ${MB(limits.maxTotalBytes)}`
          : `${e.name.slice(0, 80)} expands to more than ${MB(limits.maxEntryBytes)}`,
      );
    }
    total += size;
  }
}

/**
 * File names, identifiers and media types of attachments. The client's file name is metadata
 * only: it never becomes part of a path on disk (see storage.ts).
 */
import { randomBytes } from 'node:crypto';
import { executableSignature } from '../../../../common/messages/threat.js';

export { type FileNameProblem, MAX_FILENAME_LENGTH, fileNameProblem } from '../../../../common/messages/file-names.js';

/**
 * The extension kept in the attachment id: the last extension of the name, lowercased, when it is
 * 1-10 characters of [a-z0-9]; otherwise none.
 */
export function safeExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return '';
  const ext = name.slice(dot + 1).toLowerCase();
  return /^[a-z0-9]{1,10}$/.test(ext) ? ext : '';
}

/** Attachment ids: 32 lowercase hex characters (128 random bits), then `.<ext>` when the name has a safe extension. */
export const ATTACHMENT_ID = /^[0-9a-f]{32}(\.[a-z0-9]{1,10})?$/;

export function newAttachmentId(originalName: string): string {
  const ext = safeExtension(originalName);
  return randomBytes(16).toString('hex') + (ext ? `.${ext}` : '');
}

const TOKEN = '[a-z0-9!#$&^_.+-]{1,127}';
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}$`);

/** The declared media type, lowercase without parameters, when it is a syntactically valid type/subtype. */
export function normalizeMediaType(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const base = raw.split(';')[0]!.trim().toLowerCase();
  return MEDIA_TYPE.test(base) ? base : undefined;
}

export const OCTET_STREAM = 'application/octet-stream';

/** Signatures cheap enough to check on the first bytes. */
function sniff(head: Uint8Array): string | undefined {
  const at = (offset: number, bytes: number[]) => bytes.every((b, i) => head[offset + i] === b);
  const ascii = (offset: number, text: string) =>
    at(
      offset,
      [...text].map((c) => c.charCodeAt(0)),
    );
  if (ascii(0, '%PDF-')) return 'application/pdf';
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (at(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (at(0, [0x50, 0x4b, 0x03, 0x04])) return 'application/zip';
  return undefined;
}

/** Declared types that a ZIP signature is consistent with (Office, OpenDocument, EPUB, Java and Android archives). */
const isZipFamily = (t: string) =>
  t === 'application/zip' ||
  t === 'application/x-zip-compressed' ||
  t === 'application/epub+zip' ||
  t === 'application/java-archive' ||
  t === 'application/vnd.android.package-archive' ||
  t.startsWith('application/vnd.openxmlformats-officedocument.') ||
  t.startsWith('application/vnd.oasis.opendocument.');

/** Types whose content always starts with a signature `sniff` knows. */
const SIGNED_TYPES: Record<string, string> = {
  'application/pdf': 'application/pdf',
  'application/x-pdf': 'application/pdf',
  'image/png': 'image/png',
  'image/jpeg': 'image/jpeg',
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/gif': 'image/gif',
  'image/webp': 'image/webp',
};

const TEXT_BY_EXTENSION: Record<string, string> = { txt: 'text/plain', csv: 'text/csv' };

/**
 * The media type stored and served for an upload: the part's declared content type, checked
 * against the first bytes where that is cheap:
 * 1. content with a binary executable signature (MZ, ELF, Mach-O) is served as application/octet-stream;
 * 2. content with a known signature (PDF, PNG, JPEG, GIF, WEBP, ZIP) gets the signature's type
 *    unless the declared type is consistent with it (same type, an alias, or a ZIP-based format
 *    for a ZIP signature);
 * 3. a declared type that always has a signature (PDF and those images) whose bytes do not carry it,
 *    and a declared text/* whose first bytes hold a NUL, become application/octet-stream;
 * 4. a missing, malformed or generic (application/octet-stream) declaration becomes text/plain or
 *    text/csv for a .txt/.csv name whose first bytes hold no NUL, else application/octet-stream;
 * 5. otherwise the declared type is kept.
 */
export function resolveMediaType(declaredRaw: string | undefined, head: Uint8Array, filename: string): string {
  const declared = normalizeMediaType(declaredRaw);
  const exec = executableSignature(head);
  if (exec !== undefined && exec !== 'script') return OCTET_STREAM;
  const sniffed = sniff(head);
  const hasNul = head.includes(0);
  if (sniffed !== undefined) {
    if (declared === undefined) return sniffed;
    if (SIGNED_TYPES[declared] === sniffed) return sniffed;
    if (sniffed === 'application/zip' && isZipFamily(declared)) return declared;
    return sniffed;
  }
  if (declared !== undefined && SIGNED_TYPES[declared] !== undefined) return OCTET_STREAM;
  if (declared !== undefined && declared.startsWith('text/') && hasNul) return OCTET_STREAM;
  if (declared === undefined || declared === OCTET_STREAM) {
    const text = TEXT_BY_EXTENSION[safeExtension(filename)];
    return text !== undefined && !hasNul ? text : OCTET_STREAM;
  }
  return declared;
}

/**
 * A `Content-Disposition: attachment` value safe for any stored name (RFC 6266 with RFC 5987):
 * `filename` is an ASCII fallback (accents dropped, other non-ASCII, quotes, backslashes and
 * percent signs replaced by "_"), `filename*` carries the exact name percent-encoded in UTF-8.
 */
export function contentDisposition(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

// Over 400 lines on purpose: upload (streamed, hashed, limited), linking to a message, inspection
// and download share one set of limits and ownership checks (SPEC 4.12, 4.13) kept in one place.
import type { AttachmentView } from '../../../../common/views.js';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { Db } from '../../../db/open.js';
import type { AttachmentRow, AttachmentsRepo } from '../../../db/repos/attachments.js';
import type { Principal } from '../../auth/auth.js';
import type { Clock } from '../../clock.js';
import { ServiceError, badRequest, forbidden, internal, notFound } from '../../errors.js';
import type { JobRunner } from '../../jobs/runner.js';
import { contentDisposition, fileNameProblem, newAttachmentId, normalizeMediaType, resolveMediaType } from './media.js';
import { type FileStorage, HEAD_BYTES, type StagedFile, StorageFailure, fileStorage } from './storage.js';
import { assessThreat } from '../../../../common/messages/threat.js';

/** SPEC 2.8 Attachment, as listed in `message_attachments` (one shape, common/views.ts). */
export type Attachment = AttachmentView;

/** SPEC 8: 25 MB per file (25 * 1024 * 1024 bytes). */
export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;
/** SPEC 8: 25 attachments per message. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 25;
/** Uploads never attached to a message are deleted this long after the upload. */
export const UNATTACHED_TTL_MS = 48 * 3600_000;
/** How much of a text attachment `inspect` reads for moderation. */
export const TEXT_INSPECT_BYTES = 64 * 1024;
/** Multipart overhead tolerated over MAX_ATTACHMENT_BYTES before a request is refused from its Content-Length alone. */
export const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;
/** Durable job: deletes an upload (and its file when no other row shares it) if it is still unattached. */
export const EXPIRE_UNATTACHED = 'attachments.expire_unattached';

/** Media types whose text `inspect` returns for moderation. */
const TEXT_TYPES = new Set(['text/plain', 'text/csv']);
const SITE_ID = /^[A-Z]{3}$/;

/** The rows of SPEC 7.6 for upload and download, and this area's own. */
export const attachmentErrors = {
  siteRequired: () => badRequest("The queryparam 'site_id' is required"),
  siteInvalid: () => badRequest("The queryparam 'site_id' has an invalid value: it must be a site id like MLA"),
  tagInvalid: () => badRequest("The queryparam 'tag' has an invalid value: only 'post_sale' is supported"),
  empty: () => badRequest('File attached is empty'),
  nameSeparator: () => badRequest('File name cannot include characters like /, \\'),
  nameRequired: () => badRequest("File name is required in the form part 'file'"),
  nameControl: () => badRequest('File name cannot include control characters'),
  nameInvisible: () => badRequest('File name cannot include invisible or direction-changing characters'),
  nameDots: () => badRequest('File name cannot be only dots'),
  uploaderSite: (siteId: string) => badRequest(`The queryparam 'site_id' must be the site of the user: ${siteId}`),
  otherSite: (id: string, uploaded: string, pack: string) =>
    badRequest(`The attachment ${id.slice(0, 200)} was uploaded for site ${uploaded}; this conversation is on site ${pack}`),
  nameTooLong: () => badRequest('File name cannot be longer than 255 characters'),
  tooBig: () => badRequest('File attachment is bigger than 25 Mb.'),
  tooMany: () => badRequest(`The message exceeds the allowed number of attachments: ${MAX_ATTACHMENTS_PER_MESSAGE}`),
  cannotSave: () => internal('File can not be saved, try it later'),
  notMultipart: () => badRequest("The Content-Type must be multipart/form-data (with a boundary) and the file sent in the form part 'file'"),
  noFilePart: () => badRequest("The form part 'file' is required"),
  unexpectedFilePart: (name: string) => badRequest(`Unexpected file part '${name.slice(0, 64)}': send the file in the form part 'file'`),
  oneFileOnly: () => badRequest("Only one file can be uploaded per request, in the form part 'file'"),
  tooManyParts: () => badRequest('The multipart body has too many parts'),
  malformed: () => badRequest('The multipart/form-data body is malformed'),
  attachmentsNotArray: () => badRequest("The field 'attachments' must be an array of attachment ids"),
  duplicated: (id: string) => badRequest(`Attachment sent more than once: ${id}`),
  invalid: () => new ServiceError(422, 'invalid_attachment', 'Attachment key is invalid or not found'),
  notFound: (id: string) => notFound(`The attachment with id: ${id} was not found`),
  accessDenied: (userId: number, id: string) => forbidden(`Access denied for user ${userId} to attachment ${id}`),
};

/** A file part of the multipart body as the HTTP adapter hands it over (the shape of @fastify/multipart's parts). */
export interface UploadFilePart {
  type: 'file';
  fieldname: string;
  /** The file name exactly as sent in the part header (no path stripping). */
  filename: string | undefined;
  mimetype: string | undefined;
  /** The part's bytes; `truncated` is set when the stream stopped at the size limit. */
  file: Readable & { truncated?: boolean };
}
export interface UploadFieldPart {
  type: 'field';
  fieldname: string;
}
export type UploadPart = UploadFilePart | UploadFieldPart;

/** The checks of an upload that need no body: done before a single body byte is read. */
/** What an upload's caller learns of the file before it is kept. */
export interface UploadedFile {
  name: string;
  sha256: string;
  size: number;
}

export interface UploadTicket {
  principal: Principal;
  siteId: string;
}

/** What the HTTP adapter sends back for a download. */
export interface AttachmentDownload {
  stream: Readable;
  size: number;
  mediaType: string;
  contentDisposition: string;
}

export interface AttachmentsOptions {
  /** Folder of the content-addressed store. */
  dir: string;
  clock: Clock;
  jobs: JobRunner;
  /** The site of a user (an upload's `site_id` must be the uploader's); undefined when unknown. */
  siteOf: (userId: number) => string | undefined;
}

/**
 * Where files go when no folder is configured: `attachments/` next to the database file, or a
 * per-process temporary folder for an in-memory database.
 */
export function defaultAttachmentsDir(db: Db): string {
  return db.memory || db.name === '' ? join(tmpdir(), `stockroom-attachments-${process.pid}`) : join(dirname(db.name), 'attachments');
}

const toAttachment = (r: AttachmentRow): Attachment => ({
  filename: r.id,
  original_filename: r.original_filename,
  type: r.media_type,
  size: r.size,
  potential_security_threat: r.potential_security_threat === 1,
  creation_date: new Date(r.created_at).toISOString(),
});

function queryObject(query: unknown): Record<string, unknown> {
  return typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
}

/** `site_id` (required, three capital letters) and `tag` (optional, `post_sale`) of 4.12 and 4.13. */
function parseQuery(query: unknown): { siteId: string } {
  const q = queryObject(query);
  if (q.tag !== undefined && q.tag !== 'post_sale') throw attachmentErrors.tagInvalid();
  const site = q.site_id;
  if (site === undefined || site === null || site === '') throw attachmentErrors.siteRequired();
  if (typeof site !== 'string' || !SITE_ID.test(site)) throw attachmentErrors.siteInvalid();
  return { siteId: site };
}

/** The refusal of a client file name, or undefined when it is acceptable (upload and queueing alike). */
export function nameError(name: string | undefined): ServiceError | undefined {
  switch (fileNameProblem(name)) {
    case 'separator':
      return attachmentErrors.nameSeparator();
    case 'empty':
      return attachmentErrors.nameRequired();
    case 'control':
      return attachmentErrors.nameControl();
    case 'invisible':
      return attachmentErrors.nameInvisible();
    case 'dots':
      return attachmentErrors.nameDots();
    case 'too_long':
      return attachmentErrors.nameTooLong();
    default:
      return undefined;
  }
}

/** Raised into the file stream when the parser reports the size limit. */
class SizeLimitReached extends Error {
  constructor() {
    super('attachment size limit reached');
  }
}

/** Reads and drops the rest of a part we refuse, so the parser can reach the end of the body. */
function drain(stream: Readable): void {
  stream.on('error', () => undefined);
  stream.resume();
}

/** Text of a text attachment for moderation: UTF-8 when it decodes as such, else ISO-8859-1; a cut character at the end is dropped. */
function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes, { stream: true });
  } catch {
    return bytes.toString('latin1');
  }
}

/**
 * Message attachments (SPEC 4.11-4.13, 2.8): upload into the content-addressed store, download with
 * access control, the threat flag, the link to messages and the 48-hour cleanup of unused uploads.
 */
export function attachmentsService(db: Db, repo: AttachmentsRepo, options: AttachmentsOptions) {
  const { clock, jobs } = options;
  const storage: FileStorage = fileStorage(options.dir);
  storage.sweepTemp(clock.now());

  jobs.register({
    kind: EXPIRE_UNATTACHED,
    schema: z.object({ id: z.string() }),
    // Idempotent: a row already attached or already deleted is left alone. The row is deleted and,
    // when no other row shares the content, the file unlinked inside one synchronous transaction:
    // an upload cannot link a new row to the file between the count and the unlink, and a failed
    // unlink rolls the delete back so the job retries.
    run: ({ id }) => {
      db.transaction(() => {
        const gone = repo.deleteUnattached(id);
        if (gone?.sha256 && repo.countBySha(gone.sha256) === 0) storage.removeSync(gone.sha256);
      })();
    },
  });

  const saveFailed = (e: unknown): ServiceError => {
    const err = attachmentErrors.cannotSave();
    // For the server log only: the body is built from the spec fields (ServiceError.toBody).
    Object.defineProperty(err, 'reason', { value: e, enumerable: true });
    return err;
  };

  /** Streams the single `file` part to a staged temp file, enforcing the rules of 7.6 in order. */
  async function stageParts(parts: AsyncIterable<UploadPart>): Promise<{ staged: StagedFile; part: UploadFilePart; name: string }> {
    let result: { staged: StagedFile; part: UploadFilePart; name: string } | undefined;
    try {
      for await (const part of parts) {
        if (part.type !== 'file') continue; // form fields are ignored (bounded by the parser's limits)
        if (result !== undefined) {
          drain(part.file);
          throw attachmentErrors.oneFileOnly();
        }
        if (part.fieldname !== 'file') {
          drain(part.file);
          throw attachmentErrors.unexpectedFilePart(part.fieldname);
        }
        const bad = nameError(part.filename);
        if (bad) {
          drain(part.file);
          throw bad;
        }
        // Stop reading at the limit: the parser emits 'limit' once 25 MB were passed on; the
        // stream is destroyed there, staging fails and removes its temp file.
        part.file.once('limit', () => part.file.destroy(new SizeLimitReached()));
        let staged: StagedFile;
        try {
          staged = await storage.stage(part.file);
        } catch (e) {
          if (e instanceof SizeLimitReached || part.file.truncated) throw attachmentErrors.tooBig();
          if (e instanceof StorageFailure) {
            drain(part.file);
            throw saveFailed(e);
          }
          throw attachmentErrors.malformed();
        }
        result = { staged, part, name: part.filename! };
        if (part.file.truncated) throw attachmentErrors.tooBig();
        if (staged.size === 0) throw attachmentErrors.empty();
      }
    } catch (e) {
      if (result) await storage.discard(result.staged);
      throw e;
    }
    if (!result) throw attachmentErrors.noFilePart();
    return result;
  }

  /**
   * Whether `userId` may read the files of a message it did not upload: it is the seller or the
   * buyer of the message's order and the message reached the recipient (moderation `clean` or
   * `non_moderated`; a pending or rejected message is visible to its sender only, SPEC 2.8).
   */
  function partyOfDeliveredMessage(userId: number, messageId: string | null): boolean {
    if (messageId === null) return false;
    const m = repo.partiesOf(messageId);
    if (!m || (m.seller_id !== userId && m.buyer_id !== userId)) return false;
    return m.from_user_id === userId || m.moderation_status === 'clean' || m.moderation_status === 'non_moderated';
  }

  async function upload(ticket: UploadTicket, parts: AsyncIterable<UploadPart>, admit?: (file: UploadedFile) => boolean): Promise<{ id: string } | null> {
    const { staged, part, name } = await stageParts(parts);
    // The caller's last word once the bytes are known (an idempotency key's binding): false keeps
    // nothing, an error keeps nothing and is the answer.
    let admitted: boolean;
    try {
      admitted = admit ? admit({ name, sha256: staged.sha256, size: staged.size }) : true;
    } catch (e) {
      await storage.discard(staged);
      throw e;
    }
    if (!admitted) {
      await storage.discard(staged);
      return null;
    }
    const declared = normalizeMediaType(part.mimetype);
    const id = newAttachmentId(name);
    const verdict = assessThreat({ filename: name, mediaType: declared, head: staged.head });
    const row = {
      id,
      uploader_id: ticket.principal.userId,
      site_id: ticket.siteId,
      original_filename: name,
      media_type: resolveMediaType(part.mimetype, staged.head, name),
      size: staged.size,
      sha256: staged.sha256,
      potential_security_threat: verdict.threat,
      created_at: clock.now(),
    };
    // The row goes in before the file is placed, so the cleanup job always sees it referencing
    // the content when it counts references (see EXPIRE_UNATTACHED).
    try {
      db.transaction(() => {
        repo.insert(row);
        jobs.enqueue(EXPIRE_UNATTACHED, { id }, UNATTACHED_TTL_MS);
      })();
    } catch (e) {
      await storage.discard(staged);
      throw saveFailed(e);
    }
    try {
      await storage.commit(staged);
    } catch (e) {
      repo.deleteById(id);
      throw saveFailed(e);
    }
    return { id };
  }

  return {
    limits: { maxBytes: MAX_ATTACHMENT_BYTES, maxPerMessage: MAX_ATTACHMENTS_PER_MESSAGE },

    /**
     * The checks of 4.12 that need no body, in order: `site_id` and `tag` (400), the content type
     * (multipart/form-data with a boundary, else 400), a declared Content-Length that cannot fit a
     * 25 MB file (400 "File attachment is bigger than 25 Mb.", before reading the body).
     * Authentication happens before (the adapter's 401).
     */
    beginUpload(principal: Principal, query: unknown, contentType: string | undefined, contentLength: string | undefined): UploadTicket {
      const { siteId } = parseQuery(query);
      const uploaderSite = options.siteOf(principal.userId);
      if (uploaderSite !== undefined && uploaderSite !== siteId) throw attachmentErrors.uploaderSite(uploaderSite);
      const type = normalizeMediaType(contentType);
      if (type !== 'multipart/form-data' || !/;\s*boundary=/i.test(contentType ?? '')) throw attachmentErrors.notMultipart();
      if (contentLength !== undefined && /^[0-9]+$/.test(contentLength) && Number(contentLength) > MAX_ATTACHMENT_BYTES + MULTIPART_OVERHEAD_BYTES) {
        throw attachmentErrors.tooBig();
      }
      return { principal, siteId };
    },

    /**
     * 4.12: stores the `file` part and returns its id. Order of checks: one file part named `file`,
     * its name (no / or \, not empty, no control characters, at most 255 characters), its size
     * (25 MB, the stream stops there), not empty; then the media type and the threat flag are
     * computed, the row and its 48-hour expiry job are written in one transaction, and the file is
     * moved into the store (a failure there removes the row again and answers 500).
     */
    upload: upload as {
      (ticket: UploadTicket, parts: AsyncIterable<UploadPart>): Promise<{ id: string }>;
      (ticket: UploadTicket, parts: AsyncIterable<UploadPart>, admit: (file: UploadedFile) => boolean): Promise<{ id: string } | null>;
    },

    /**
     * 4.13. Order: `site_id`/`tag` (400), the attachment exists on that site (404), the caller is
     * its uploader, or a party (seller or buyer) of the order of the delivered message it is
     * attached to (else 403), the file is readable (500 "File can not be saved, try it later", SPEC 7.6).
     */
    async download(principal: Principal, rawId: string, query: unknown): Promise<AttachmentDownload> {
      const { siteId } = parseQuery(query);
      const row = rawId.length <= 200 ? repo.byId(rawId) : undefined;
      if (!row || row.site_id !== siteId) throw attachmentErrors.notFound(rawId.slice(0, 200));
      if (row.uploader_id !== principal.userId && !partyOfDeliveredMessage(principal.userId, row.message_id)) {
        throw attachmentErrors.accessDenied(principal.userId, row.id);
      }
      if (row.sha256 === null) throw saveFailed(new StorageFailure(`attachment ${row.id} has no stored content`));
      let opened;
      try {
        opened = await storage.openRead(row.sha256, row.size);
      } catch (e) {
        throw saveFailed(e);
      }
      if (opened.size === 0) await opened.handle.close();
      return {
        // A bounded range: the stream ends right after its last byte instead of one more read for
        // EOF, so the response completes as soon as the client has every byte.
        stream: opened.size === 0 ? Readable.from([]) : opened.handle.createReadStream({ autoClose: true, start: 0, end: opened.size - 1 }),
        size: opened.size,
        mediaType: row.media_type,
        contentDisposition: contentDisposition(row.original_filename),
      };
    },

    /**
     * The `attachments` field of a send (4.11): undefined/null is none; otherwise an array of at most
     * 25 distinct strings (400), each an upload of the caller not yet attached to a message (422
     * `invalid_attachment`).
     */
    requireAttachable(principal: Principal, ids: unknown, siteId: string): string[] {
      if (ids === undefined || ids === null) return [];
      if (!Array.isArray(ids)) throw attachmentErrors.attachmentsNotArray();
      if (ids.length > MAX_ATTACHMENTS_PER_MESSAGE) throw attachmentErrors.tooMany();
      if (!ids.every((id): id is string => typeof id === 'string')) throw attachmentErrors.attachmentsNotArray();
      const seen = new Set<string>();
      for (const id of ids) {
        if (seen.has(id)) throw attachmentErrors.duplicated(id.slice(0, 200));
        seen.add(id);
      }
      for (const id of ids) {
        const row = id.length <= 200 ? repo.byId(id) : undefined;
        if (!row || row.uploader_id !== principal.userId || row.message_id !== null) throw attachmentErrors.invalid();
        // A file uploaded for one site is attached in that site's conversations only.
        if (row.site_id !== siteId) throw attachmentErrors.otherSite(id, row.site_id, siteId);
      }
      return ids;
    },

    /** Links uploads to a message in the given order; call inside the send's transaction, after requireAttachable. */
    attach(messageId: string, ids: string[]): void {
      if (ids.length > MAX_ATTACHMENTS_PER_MESSAGE) throw attachmentErrors.tooMany();
      ids.forEach((id, position) => {
        if (!repo.attach(messageId, id, position)) throw attachmentErrors.invalid();
      });
    },

    /** SPEC 2.8 Attachment objects per message id (one query); messages without attachments are absent. */
    forMessages(messageIds: string[]): Map<string, Attachment[]> {
      const out = new Map<string, Attachment[]>();
      if (messageIds.length === 0) return out;
      for (const r of repo.ofMessages(messageIds)) {
        const list = out.get(r.message_id!);
        if (list) list.push(toAttachment(r));
        else out.set(r.message_id!, [toAttachment(r)]);
      }
      return out;
    },

    /**
     * For moderation of a pending message: re-checks every file of the message with the current
     * threat rules (a newly found threat is saved on the row) and returns the text of its text/plain
     * and text/csv files (the first 64 KB of each, joined by blank lines). Files without readable
     * content keep their stored flag and contribute no text.
     */
    async inspect(messageId: string): Promise<{ threat: boolean; text: string }> {
      let threat = false;
      const texts: string[] = [];
      for (const r of repo.ofMessage(messageId)) {
        let flagged = r.potential_security_threat === 1;
        if (r.sha256 !== null) {
          const isText = TEXT_TYPES.has(r.media_type);
          let bytes: Buffer | undefined;
          try {
            bytes = await storage.readHead(r.sha256, isText ? TEXT_INSPECT_BYTES : HEAD_BYTES);
          } catch {
            bytes = undefined;
          }
          if (bytes !== undefined) {
            if (!flagged && assessThreat({ filename: r.original_filename, mediaType: r.media_type, head: bytes }).threat) {
              repo.markThreat(r.id);
              flagged = true;
            }
            if (isText) texts.push(decodeText(bytes));
          }
        }
        threat ||= flagged;
      }
      return { threat, text: texts.join('\n\n') };
    },
  };
}
export type AttachmentsService = ReturnType<typeof attachmentsService>;

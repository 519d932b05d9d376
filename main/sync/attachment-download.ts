import { ServiceError } from '../service/errors.js';
import { MAX_ATTACHMENT_BYTES } from '../service/messages/attachments/service.js';
import { FileTooLarge, type FileStore, StorageFailure } from '../service/messages/attachments/storage.js';
import type { RemoteClient } from './client.js';
import { RemoteError } from './client.js';

/**
 * Downloads one attachment's bytes from the remote into the app's file store (SPEC 4.13). The
 * remote's bytes are held to what its own metadata declared and to the spec's 25 MB: a remote
 * declaring 1,000 bytes and serving 300 MB has its answer cut at byte 1,001, and a partial file
 * is never kept (the store's stage removes its temp file on any failure).
 */

/** The attachment as the mirror knows it. */
export interface AttachmentRef {
  id: string;
  site_id: string;
  /** The size its message declared. */
  size: number;
}

export interface DownloadLimits {
  /** Largest file accepted (default: the spec's 25 MB). */
  maxBytes?: number;
  /** Deadline of the whole download (the client's default otherwise). */
  deadlineMs?: number;
}

/** The remote's refusal text, read from at most a few KB of its answer. */
async function refusalText(body: AsyncIterable<Buffer | Uint8Array>, status: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(Buffer.from(chunk));
    size += chunk.length;
    if (size > 16 * 1024) break;
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && 'message' in parsed && typeof parsed.message === 'string') return parsed.message.slice(0, 500);
  } catch {
    // not JSON
  }
  return `HTTP ${status}`;
}

/** Downloads and stores the file; resolves with its content hash. */
export async function downloadAttachment(client: RemoteClient, files: FileStore, ref: AttachmentRef, limits: DownloadLimits = {}): Promise<string> {
  const cap = Math.min(limits.maxBytes ?? MAX_ATTACHMENT_BYTES, ref.size);
  if (ref.size > (limits.maxBytes ?? MAX_ATTACHMENT_BYTES)) {
    throw new ServiceError(502, 'remote_error', `The attachment ${ref.id} is declared at ${ref.size} bytes, more than the 25 MB a file may be`);
  }
  let res;
  try {
    res = await client.download(`/messages/attachments/${encodeURIComponent(ref.id)}`, {
      query: { tag: 'post_sale', site_id: ref.site_id },
      ...(limits.deadlineMs !== undefined ? { deadlineMs: limits.deadlineMs } : {}),
    });
  } catch (e) {
    if (e instanceof RemoteError && e.kind !== 'offline') throw new ServiceError(502, 'remote_error', `The attachment could not be downloaded: ${e.message}`);
    throw new ServiceError(503, 'unavailable', `The marketplace cannot be reached: ${(e as Error).message}`);
  }
  if (res.statusCode !== 200) {
    const message = await refusalText(res.body, res.statusCode).catch(() => `HTTP ${res.statusCode}`);
    throw new ServiceError(res.statusCode >= 500 ? 502 : res.statusCode, 'remote_error', message);
  }
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > cap) {
    res.body.destroy();
    throw new ServiceError(502, 'remote_error', `The marketplace sent ${declared} bytes for an attachment declared at ${ref.size}`);
  }
  let staged;
  try {
    staged = await files.stage(res.body, { maxBytes: cap });
  } catch (e) {
    if (e instanceof FileTooLarge)
      throw new ServiceError(502, 'remote_error', `The marketplace sent more bytes than the ${ref.size} declared for attachment ${ref.id}`);
    if (e instanceof StorageFailure) throw e;
    // The body broke off: a reset, the deadline (its RemoteError is the abort's cause), a bad stream.
    const why = e instanceof Error && e.cause instanceof RemoteError ? e.cause.message : (e as Error).message;
    throw new ServiceError(502, 'remote_error', `The attachment could not be downloaded: ${why}`);
  }
  if (staged.size !== ref.size) {
    await files.discard(staged);
    throw new ServiceError(502, 'remote_error', `The marketplace sent ${staged.size} bytes for an attachment declared at ${ref.size}`);
  }
  await files.commit(staged);
  return staged.sha256;
}

import { createHash, randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { type FileHandle, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Content-addressed file storage for attachments:
 * - a file lives at `<dir>/<h[0..2]>/<h[2..4]>/<h>` where `h` is the SHA-256 (hex) of its bytes,
 *   so the same bytes uploaded twice are one file, and no client-supplied text is ever in a path;
 * - writes are atomic: bytes stream into `<dir>/tmp/<uuid>.part` (same file system), are fsynced,
 *   then renamed onto the final path (and the directory fsynced); a reader never sees a partial
 *   file and a crash leaves at most a temp file, swept at the next start;
 * - nothing is buffered: the stream is hashed and written chunk by chunk.
 * Every file-system failure surfaces as `StorageFailure` (the service answers 500).
 */
export class StorageFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageFailure';
  }
}

/** A source gave more bytes than the caller allowed (a remote serving more than it declared). */
export class FileTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than the ${maxBytes} bytes allowed`);
    this.name = 'FileTooLarge';
  }
}

/** A fully written, fsynced temp file that is not yet in the store. */
export interface StagedFile {
  tmpPath: string;
  sha256: string;
  size: number;
  /** The first bytes of the content (up to HEAD_BYTES), for signature checks. */
  head: Buffer;
}

export const HEAD_BYTES = 512;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** Temp files older than this are leftovers of a crash and removed at start. */
const STALE_TMP_MS = 3600_000;

const isErrno = (e: unknown, ...codes: string[]) => typeof e === 'object' && e !== null && codes.includes((e as NodeJS.ErrnoException).code ?? '');

async function io<T>(what: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (e) {
    throw new StorageFailure(`${what}: ${(e as Error).message}`, { cause: e });
  }
}

/** Bytes gathered before one write: few syscalls, little memory. */
const WRITE_BATCH = 1024 * 1024;

/** Writes every byte of `buffers` at the file's position, one writev, then the rest of a short write. */
async function writeAll(fh: FileHandle, buffers: Buffer[]): Promise<void> {
  const total = buffers.reduce((n, b) => n + b.length, 0);
  let { bytesWritten: written } = await fh.writev(buffers);
  if (written === total) return;
  const rest = Buffer.concat(buffers).subarray(written);
  while (written < total) {
    const { bytesWritten } = await fh.write(rest, written - (total - rest.length), total - written);
    written += bytesWritten;
  }
}

/** Makes a rename durable; directories cannot be opened for fsync on Windows, where this is a no-op. */
function fsyncDirSync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch (e) {
    if (!isErrno(e, 'EISDIR', 'EPERM', 'EINVAL', 'EBADF', 'EACCES')) throw e;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function fileStorage(dir: string) {
  const tmpDir = join(dir, 'tmp');

  const pathOf = (sha256: string): string => {
    if (!SHA256_HEX.test(sha256)) throw new StorageFailure(`not a content hash: ${sha256}`);
    return join(dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  };

  return {
    dir,
    tmpDir,
    pathOf,

    /** Removes temp files left by a crash (best effort, at start). */
    sweepTemp(now: number): number {
      let removed = 0;
      let names: string[];
      try {
        names = readdirSync(tmpDir);
      } catch {
        return 0;
      }
      for (const name of names) {
        if (!name.endsWith('.part')) continue;
        try {
          const p = join(tmpDir, name);
          if (now - statSync(p).mtimeMs > STALE_TMP_MS) {
            unlinkSync(p);
            removed++;
          }
        } catch {
          // Another process may have renamed it meanwhile.
        }
      }
      return removed;
    },

    /**
     * Streams `source` into a new temp file, hashing as it goes, and fsyncs it. Errors of the source
     * (client aborted, malformed body) propagate as they are; file-system errors as StorageFailure.
     * On any failure the temp file is removed. With `maxBytes`, a source that gives more fails with
     * FileTooLarge as soon as it crosses the cap (nothing past it is written).
     *
     * The chunks (64 KB or less) are written in batches of WRITE_BATCH bytes, one writev each, and
     * the next batch fills while the last one is written on the thread pool: receiving, parsing
     * and hashing overlap with the disk instead of waiting for every chunk's write. At most two
     * batches are held (the one being written and the one filling): memory stays bounded.
     */
    async stage(source: Readable | AsyncIterable<Buffer>, options: { maxBytes?: number } = {}): Promise<StagedFile> {
      const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
      // The owner's only (0700), as every folder of the data (issue 25).
      await io('create temp folder', () => mkdir(tmpDir, { recursive: true, mode: 0o700 }));
      const tmpPath = join(tmpDir, `${randomUUID()}.part`);
      const fh: FileHandle = await io('open temp file', () => open(tmpPath, 'wx', 0o600));
      const hash = createHash('sha256');
      const headParts: Buffer[] = [];
      let headLength = 0;
      let size = 0;
      let batch: Buffer[] = [];
      let batchBytes = 0;
      let writing: Promise<void> = Promise.resolve();
      const startWrite = async () => {
        await writing;
        const buffers = batch;
        batch = [];
        batchBytes = 0;
        writing = io('write temp file', () => writeAll(fh, buffers));
        // Observed here so a failure while the next batch fills is not unhandled; awaited below.
        writing.catch(() => undefined);
      };
      try {
        for await (const chunk of source as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > maxBytes) throw new FileTooLarge(maxBytes);
          hash.update(chunk);
          if (headLength < HEAD_BYTES) {
            const part = chunk.subarray(0, HEAD_BYTES - headLength);
            headParts.push(Buffer.from(part));
            headLength += part.length;
          }
          batch.push(chunk);
          batchBytes += chunk.length;
          if (batchBytes >= WRITE_BATCH) await startWrite();
        }
        if (batchBytes > 0) await startWrite();
        await writing;
        await io('fsync temp file', () => fh.sync());
        await io('close temp file', () => fh.close());
      } catch (e) {
        await writing.catch(() => undefined);
        await fh.close().catch(() => undefined);
        await rm(tmpPath, { force: true }).catch(() => undefined);
        throw e;
      }
      return { tmpPath, sha256: hash.digest('hex'), size, head: Buffer.concat(headParts) };
    },

    /** Drops a staged file that will not be stored. */
    async discard(staged: StagedFile): Promise<void> {
      await rm(staged.tmpPath, { force: true }).catch(() => undefined);
    },

    /**
     * Moves a staged file to its content address. When that file already exists with the same size
     * (same bytes, uploaded before) the temp file is dropped instead: one file per content.
     * Returns true when the content was new.
     */
    async commit(staged: StagedFile): Promise<boolean> {
      const target = pathOf(staged.sha256);
      try {
        const existing = await stat(target).catch((e: unknown) => {
          if (isErrno(e, 'ENOENT')) return undefined;
          throw e;
        });
        if (existing?.isFile() && existing.size === staged.size) {
          await rm(staged.tmpPath, { force: true });
          return false;
        }
        await mkdir(dirname(target), { recursive: true, mode: 0o700 });
        await rename(staged.tmpPath, target);
        fsyncDirSync(dirname(target));
        return true;
      } catch (e) {
        await rm(staged.tmpPath, { force: true }).catch(() => undefined);
        throw new StorageFailure(`store ${staged.sha256}: ${(e as Error).message}`, { cause: e });
      }
    },

    /**
     * Opens a stored file for reading; fails (StorageFailure) when it is missing, unreadable, not
     * a regular file, or not of the expected size.
     */
    async openRead(sha256: string, expectedSize: number): Promise<{ handle: FileHandle; size: number }> {
      const handle = await io('open stored file', () => open(pathOf(sha256), 'r'));
      try {
        const st = await handle.stat();
        if (!st.isFile() || st.size !== expectedSize) {
          throw new StorageFailure(`stored file ${sha256} has ${st.size} bytes, expected ${expectedSize}`);
        }
        return { handle, size: st.size };
      } catch (e) {
        await handle.close().catch(() => undefined);
        throw e instanceof StorageFailure ? e : new StorageFailure(`stat stored file: ${(e as Error).message}`, { cause: e });
      }
    },

    /** Reads up to `max` bytes from the start of a stored file. */
    async readHead(sha256: string, max: number): Promise<Buffer> {
      const handle = await io('open stored file', () => open(pathOf(sha256), 'r'));
      try {
        const buf = Buffer.alloc(max);
        let total = 0;
        while (total < max) {
          const { bytesRead } = await io('read stored file', () => handle.read(buf, total, max - total, total));
          if (bytesRead === 0) break;
          total += bytesRead;
        }
        return buf.subarray(0, total);
      } finally {
        await handle.close().catch(() => undefined);
      }
    },

    /**
     * Deletes a stored file (synchronously, so a caller can decide "no row references it" and delete
     * in the same tick, with no upload interleaving). A missing file is not an error.
     */
    removeSync(sha256: string): void {
      try {
        unlinkSync(pathOf(sha256));
      } catch (e) {
        if (!isErrno(e, 'ENOENT')) throw new StorageFailure(`remove ${sha256}: ${(e as Error).message}`, { cause: e });
      }
    },
  };
}
export type FileStorage = ReturnType<typeof fileStorage>;

/** The app's content-addressed file store, as the sync uses it. */
export type FileStore = ReturnType<typeof fileStorage>;

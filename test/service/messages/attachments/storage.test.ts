import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StorageFailure, fileStorage } from '../../../../main/service/messages/attachments/storage.js';
import { filesUnder } from '../../../support/attachments.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'stockroom-storage-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const source = (...chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c)));

describe('content-addressed storage', () => {
  it('stages into tmp/, hashing as it streams, then renames onto <ab>/<cd>/<sha256>', async () => {
    const store = fileStorage(join(root, 'files'));
    const staged = await store.stage(source('hello ', 'world'));
    expect(staged).toMatchObject({ sha256: sha('hello world'), size: 11 });
    expect(staged.head.toString()).toBe('hello world');
    expect(filesUnder(store.dir)).toEqual([`tmp/${staged.tmpPath.split(/[\\/]/).pop()}`]);
    expect(await store.commit(staged)).toBe(true);
    const h = sha('hello world');
    expect(filesUnder(store.dir)).toEqual([`${h.slice(0, 2)}/${h.slice(2, 4)}/${h}`]);
    expect(readFileSync(store.pathOf(h), 'utf8')).toBe('hello world');
  });

  it('keeps only the first 512 bytes as the head', async () => {
    const store = fileStorage(join(root, 'files'));
    const staged = await store.stage(source('a'.repeat(300), 'b'.repeat(300)));
    expect(staged.head.length).toBe(512);
    expect(staged.size).toBe(600);
    await store.discard(staged);
    expect(filesUnder(store.dir)).toEqual([]);
  });

  it('dedupes: committing the same content again drops the temp file and reports it was not new', async () => {
    const store = fileStorage(join(root, 'files'));
    expect(await store.commit(await store.stage(source('same')))).toBe(true);
    expect(await store.commit(await store.stage(source('same')))).toBe(false);
    expect(filesUnder(store.dir)).toHaveLength(1);
  });

  it('replaces a stored file of the wrong size (never trusts a damaged copy)', async () => {
    const store = fileStorage(join(root, 'files'));
    const h = sha('complete');
    mkdirSync(join(store.dir, h.slice(0, 2), h.slice(2, 4)), { recursive: true });
    writeFileSync(store.pathOf(h), 'compl');
    expect(await store.commit(await store.stage(source('complete')))).toBe(true);
    expect(readFileSync(store.pathOf(h), 'utf8')).toBe('complete');
  });

  it('fails with StorageFailure when the folder cannot be created, leaving nothing behind', async () => {
    const blocker = join(root, 'blocker');
    writeFileSync(blocker, 'a file');
    const store = fileStorage(blocker);
    await expect(store.stage(source('x'))).rejects.toBeInstanceOf(StorageFailure);
    expect(readFileSync(blocker, 'utf8')).toBe('a file');
  });

  it('removes the temp file when the source fails mid-stream, and passes the source error on', async () => {
    const store = fileStorage(join(root, 'files'));
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(store.stage(failing)).rejects.toThrow('client went away');
    expect(filesUnder(store.dir)).toEqual([]);
  });

  it('stores exactly the bytes streamed, whatever the chunk sizes (writes are gathered into batches)', async () => {
    const store = fileStorage(join(root, 'files'));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 300_000 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 255 }),
        async (sizes, seed) => {
          const chunks = sizes.map((n, i) => Buffer.alloc(n, (seed + i * 37) % 256));
          const whole = Buffer.concat(chunks);
          const staged = await store.stage(Readable.from(chunks));
          expect(staged).toMatchObject({ sha256: sha(whole), size: whole.length });
          expect(readFileSync(staged.tmpPath).equals(whole)).toBe(true);
          await store.discard(staged);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a source that fails after several batches were written leaves nothing behind', async () => {
    const store = fileStorage(join(root, 'files'));
    async function* failing() {
      for (let i = 0; i < 40; i++) yield Buffer.alloc(64 * 1024, i);
      throw new Error('client went away');
    }
    await expect(store.stage(Readable.from(failing()))).rejects.toThrow('client went away');
    expect(filesUnder(store.dir)).toEqual([]);
  });

  it('openRead fails for a missing file or one of another size; removeSync ignores a missing file', async () => {
    const store = fileStorage(join(root, 'files'));
    const staged = await store.stage(source('1234'));
    await store.commit(staged);
    const { handle, size } = await store.openRead(staged.sha256, 4);
    expect(size).toBe(4);
    await handle.close();
    await expect(store.openRead(staged.sha256, 5)).rejects.toBeInstanceOf(StorageFailure);
    store.removeSync(staged.sha256);
    store.removeSync(staged.sha256);
    await expect(store.openRead(staged.sha256, 4)).rejects.toBeInstanceOf(StorageFailure);
    expect(() => store.pathOf('../../etc/passwd')).toThrow(StorageFailure);
  });

  it('sweeps temp files older than an hour at start, not fresh ones', () => {
    const store = fileStorage(join(root, 'files'));
    mkdirSync(store.tmpDir, { recursive: true });
    writeFileSync(join(store.tmpDir, 'old.part'), 'x');
    writeFileSync(join(store.tmpDir, 'new.part'), 'x');
    const now = Date.now();
    utimesSync(join(store.tmpDir, 'old.part'), new Date(now - 2 * 3600_000), new Date(now - 2 * 3600_000));
    expect(store.sweepTemp(now)).toBe(1);
    expect(filesUnder(store.tmpDir)).toEqual(['new.part']);
  });
});

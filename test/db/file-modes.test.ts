import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/db/open.js';
import { privateDir } from '../../main/db/private-files.js';
import { fileStorage } from '../../main/service/messages/attachments/storage.js';
import { CredentialStore, plainCipher } from '../../main/sync/auth/credential-store.js';

/**
 * Tokens and buyers' messages on disk are the owner's only (issue 25): the data folder is 0700 and
 * the databases with their -wal and -shm 0600, whatever the umask, also for files and folders that
 * existed with looser modes. Windows has no such modes: skipped there.
 */
const posix = process.platform !== 'win32';
const mode = (p: string) => statSync(p).mode & 0o777;
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'stockroom-modes-'));
  chmodSync(root, 0o755);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Every file and folder under `dir` with its mode. */
function modes(dir: string): [string, number][] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => [name, mode(join(dir, name))]);
}

describe.runIf(posix)('database files are private', () => {
  it('a new database: its folder 0700, the file and its -wal and -shm 0600', () => {
    const dir = join(root, 'data', 'remote');
    const file = join(dir, 'stockroom.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    expect(mode(join(root, 'data'))).toBe(0o700);
    expect(mode(dir)).toBe(0o700);
    expect(readdirSync(dir).sort()).toEqual(['stockroom.db', 'stockroom.db-shm', 'stockroom.db-wal']);
    for (const [name, m] of modes(dir)) expect([name, m.toString(8)]).toEqual([name, '600']);
    db.close();
  });

  it('tightens a folder and files left readable by an older version', () => {
    const dir = join(root, 'old');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const file = join(dir, 'stockroom.db');
    openDatabase(file).close();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) {
      writeFileSync(f, '', { flag: 'a' });
      chmodSync(f, 0o644);
    }
    const db = openDatabase(file);
    db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    expect(mode(dir)).toBe(0o700);
    for (const [name, m] of modes(dir)) expect([name, m.toString(8)]).toEqual([name, '600']);
    db.close();
  });

  it('credentials.db (refresh tokens) is 0600 with its WAL', async () => {
    const dir = join(root, 'Stockroom');
    const store = CredentialStore.open(join(dir, 'credentials.db'), plainCipher);
    await store.remove('nobody');
    expect(mode(dir)).toBe(0o700);
    for (const [name, m] of modes(dir)) expect([name, m.toString(8)]).toEqual([name, '600']);
    store.close();
  });

  it('attachment files and every folder of their store are the owner’s only', async () => {
    const store = fileStorage(join(root, 'files'));
    const staged = await store.stage(Readable.from([Buffer.from('factura')]));
    await store.commit(staged);
    for (const [name, m] of modes(store.dir)) {
      const expected = statSync(join(store.dir, name)).isDirectory() ? '700' : '600';
      expect([name, m.toString(8)]).toEqual([name, expected]);
    }
  });

  it('privateDir makes a folder tree the owner’s only', () => {
    const dir = join(root, 'a', 'b');
    privateDir(dir);
    expect(mode(join(root, 'a'))).toBe(0o700);
    expect(mode(dir)).toBe(0o700);
  });
});

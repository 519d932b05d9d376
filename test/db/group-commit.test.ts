import { mkdtempSync, readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../main/db/group-commit.js';
import { openDatabase } from '../../main/db/open.js';

function setup() {
  const file = join(mkdtempSync(join(tmpdir(), 'gc-')), 'g.db');
  const db = openDatabase(file);
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL CHECK (v >= 0))');
  return { db, file, writes: new GroupCommit(db), insert: db.prepare('INSERT INTO t (k, v) VALUES (?, ?)') };
}

describe('GroupCommit', () => {
  it('writes that arrive together share one transaction, in arrival order', async () => {
    const { db, file, writes, insert } = setup();
    const other = openDatabase(file);
    const mine = db.prepare('SELECT count(*) FROM t').pluck();
    const theirs = other.prepare('SELECT count(*) FROM t').pluck();
    const results = await Promise.all([
      ...['a', 'b', 'c'].map((k, i) => writes.run(() => insert.run(k, i).changes)),
      // Inside the batch: the first three are done but not yet committed for anyone else.
      writes.run(() => ({ mine: mine.get(), theirs: theirs.get() })),
    ]);
    expect(results).toEqual([1, 1, 1, { mine: 3, theirs: 0 }]);
    expect(theirs.get()).toBe(3);
    expect(db.prepare('SELECT k FROM t ORDER BY rowid').pluck().all()).toEqual(['a', 'b', 'c']);
  });

  it('a failing write rolls back alone; the others commit and are acknowledged', async () => {
    const { db, writes, insert } = setup();
    const ok1 = writes.run(() => insert.run('x', 1));
    const bad = writes.run(() => {
      insert.run('half-done', 5);
      insert.run('y', -1); // CHECK fails: the savepoint undoes 'half-done' too
    });
    const ok2 = writes.run(() => insert.run('z', 2));
    await expect(bad).rejects.toThrow(/CHECK/);
    await expect(ok1).resolves.toBeDefined();
    await expect(ok2).resolves.toBeDefined();
    expect(db.prepare('SELECT k FROM t ORDER BY k').pluck().all()).toEqual(['x', 'z']);
  });

  it('answers only after the commit: an acknowledged write is visible to a new connection', async () => {
    const { file, writes, insert } = setup();
    await writes.run(() => insert.run('durable', 1));
    const other = openDatabase(file);
    expect(other.prepare('SELECT v FROM t WHERE k = ?').pluck().get('durable')).toBe(1);
  });

  it('a later write sees the effect of an earlier one in the same batch', async () => {
    const { db, writes, insert } = setup();
    const read = db.prepare('SELECT count(*) FROM t').pluck();
    const [, seen] = await Promise.all([writes.run(() => insert.run('first', 1)), writes.run(() => read.get())]);
    expect(seen).toBe(1);
  });
});

/** A sync seam the test releases by hand: each call is one fdatasync "on the disk" until released. */
function manualSync() {
  const calls: { release: () => void; fail: (e: Error) => void }[] = [];
  const sync = () => new Promise<void>((resolve, reject) => calls.push({ release: resolve, fail: reject }));
  return { sync, calls };
}

const tick = () => new Promise((r) => setImmediate(r));

/** How many descriptors of this process are open on `path` (Linux). */
function handlesOf(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;
}

describe('GroupCommit durability (the fdatasync off the event loop)', () => {
  function withSync() {
    const file = join(mkdtempSync(join(tmpdir(), 'gc-')), 'g.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)');
    const s = manualSync();
    return { db, file, ...s, writes: new GroupCommit(db, { sync: s.sync }), insert: db.prepare('INSERT INTO t (k, v) VALUES (?, ?)') };
  }

  it('answers a write only once an fdatasync started after its commit has ended', async () => {
    const { writes, insert, calls } = withSync();
    let answered = false;
    const done = writes.run(() => insert.run('a', 1)).then(() => (answered = true));
    await tick();
    expect(calls).toHaveLength(1);
    expect(writes.settled).toBe(false);
    await tick();
    expect(answered).toBe(false);
    calls[0]!.release();
    await done;
    expect(writes.settled).toBe(true);
  });

  it('a batch committed while an fdatasync runs gets its own, and waits for it, not for the first', async () => {
    const { writes, insert, calls } = withSync();
    const order: string[] = [];
    const first = writes.run(() => insert.run('a', 1)).then(() => order.push('a'));
    await tick();
    const second = writes.run(() => insert.run('b', 2)).then(() => order.push('b'));
    await tick();
    expect(calls).toHaveLength(2);
    // The second fdatasync ends first: it covers both commits (it started after both).
    calls[1]!.release();
    await Promise.all([first, second]);
    expect(order.sort()).toEqual(['a', 'b']);
    calls[0]!.release();
  });

  it('durable() waits for the commits made so far, and resolves at once when all are on disk', async () => {
    const { writes, insert, calls } = withSync();
    await expect(writes.durable()).resolves.toBeUndefined();
    const write = writes.run(() => insert.run('a', 1));
    await tick();
    let seen = false;
    const barrier = writes.durable().then(() => (seen = true));
    await tick();
    expect(seen).toBe(false);
    calls[0]!.release();
    await Promise.all([write, barrier]);
    expect(seen).toBe(true);
  });

  it('a failed fdatasync refuses the writes waiting for it and every later one', async () => {
    const { writes, insert, calls } = withSync();
    const waiting = writes.run(() => insert.run('a', 1));
    await tick();
    calls[0]!.fail(new Error('EIO: i/o error, fdatasync'));
    await expect(waiting).rejects.toThrow('EIO');
    await expect(writes.run(() => insert.run('b', 2))).rejects.toThrow('EIO');
    await expect(writes.durable()).rejects.toThrow('EIO');
  });

  it.runIf(process.platform === 'linux')('every write is flushed by an fdatasync of the WAL file off the event loop, a write alone too', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gc-')), 'g.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
    const writes = new GroupCommit(db);
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    const walHandles = () => handlesOf(`${file}-wal`);
    expect(walHandles()).toBe(1); // SQLite's own
    await writes.run(() => insert.run('alone'));
    expect(writes.settled).toBe(true);
    expect(walHandles()).toBe(2); // and the flusher's: an inline FULL commit would block the loop for its fsync
    await Promise.all([writes.run(() => insert.run('a')), writes.run(() => insert.run('b'))]);
    expect(writes.settled).toBe(true);
    expect(walHandles()).toBe(2);
    await writes.close();
    expect(walHandles()).toBe(1);
    db.close();
  });

  it.runIf(process.platform === 'linux')('on a connection opened with synchronous=NORMAL it flushes nothing itself, as asked', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gc-')), 'g.db');
    const db = openDatabase(file, { synchronous: 'NORMAL' });
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
    const writes = new GroupCommit(db);
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    await Promise.all([writes.run(() => insert.run('a')), writes.run(() => insert.run('b'))]);
    expect(writes.settled).toBe(true);
    expect(handlesOf(`${file}-wal`)).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    await writes.close();
    db.close();
  });
});

import { mkdtempSync } from 'node:fs';
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

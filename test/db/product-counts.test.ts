import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../main/db/migrations/index.js';
import { openDatabase, registerSearchFold } from '../../main/db/open.js';

const addUser = (db: Database.Database, id: number) =>
  db
    .prepare(
      "INSERT INTO users (id, nickname, registration_date, first_name, last_name, country_id, site_id) VALUES (?, 'n', '2020-01-01', 'a', 'b', 'AR', 'MLA')",
    )
    .run(id);

/** The kept count next to the real one, per seller. */
function counts(db: Database.Database) {
  const kept = db.prepare('SELECT user_id, n FROM user_product_counts WHERE n > 0 ORDER BY user_id').all();
  const real = db.prepare('SELECT user_id, count(*) AS n FROM user_products GROUP BY user_id ORDER BY user_id').all();
  return { kept, real };
}

describe('user_product_counts (migration 008)', () => {
  it('follows inserts, deletes and a product moving to another seller, and a rolled-back insert counts nothing', () => {
    const db = openDatabase(':memory:');
    addUser(db, 1);
    addUser(db, 2);
    const insert = db.prepare('INSERT INTO user_products (id, user_id) VALUES (?, ?)');
    for (let i = 0; i < 30; i++) insert.run(`U${i}`, i % 3 === 0 ? 2 : 1);
    db.prepare("DELETE FROM user_products WHERE id IN ('U1', 'U2', 'U3')").run();
    db.prepare("UPDATE user_products SET user_id = 2 WHERE id = 'U4'").run();
    expect(() =>
      db.transaction(() => {
        insert.run('U100', 1);
        throw new Error('undone');
      })(),
    ).toThrow('undone');
    const { kept, real } = counts(db);
    expect(kept).toEqual(real);
    expect(kept).toEqual([
      { user_id: 1, n: 17 },
      { user_id: 2, n: 10 },
    ]);
  });

  it('counts the products already there when an older database is migrated', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'db-')), 'old.db');
    // A database as release 7 left it, with products in it.
    const old = new Database(file);
    for (const m of migrations.filter((m) => m.version <= 7)) old.exec(m.sql);
    old.pragma('user_version = 7');
    old.pragma('foreign_keys = ON');
    addUser(old, 5);
    const insert = old.prepare('INSERT INTO user_products (id, user_id) VALUES (?, 5)');
    for (let i = 0; i < 12; i++) insert.run(`U${i}`);
    old.close();
    const db = openDatabase(file);
    expect(counts(db).kept).toEqual([{ user_id: 5, n: 12 }]);
    db.close();
  });
});

describe("user_product_counts.changes (migration 033): moves when a seller's products come or go, never for an edit", () => {
  const changes = (db: Database.Database, user: number) =>
    db.prepare<[number], { n: number; changes: number }>('SELECT n, changes FROM user_product_counts WHERE user_id = ?').get(user);

  it('moves on an insert, a delete and a move to another seller; not on a version bump or a rolled-back insert', () => {
    const db = openDatabase(':memory:');
    addUser(db, 1);
    addUser(db, 2);
    const insert = db.prepare('INSERT INTO user_products (id, user_id) VALUES (?, ?)');
    insert.run('U1', 1);
    expect(changes(db, 1)).toEqual({ n: 1, changes: 0 });
    insert.run('U2', 1);
    insert.run('U3', 1);
    expect(changes(db, 1)).toEqual({ n: 3, changes: 2 });
    db.prepare("UPDATE user_products SET version = version + 1 WHERE id = 'U2'").run();
    expect(changes(db, 1)).toEqual({ n: 3, changes: 2 });
    db.prepare("DELETE FROM user_products WHERE id = 'U1'").run();
    expect(changes(db, 1)).toEqual({ n: 2, changes: 3 });
    insert.run('U9', 2);
    db.prepare("UPDATE user_products SET user_id = 2 WHERE id = 'U2'").run();
    expect(changes(db, 1)).toEqual({ n: 1, changes: 4 });
    expect(changes(db, 2)).toEqual({ n: 2, changes: 1 });
    expect(() =>
      db.transaction(() => {
        insert.run('U100', 1);
        throw new Error('undone');
      })(),
    ).toThrow('undone');
    expect(changes(db, 1)).toEqual({ n: 1, changes: 4 });
  });

  it('keeps the counts of a database made before it, from 0 changes', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'db-')), 'old.db');
    const old = new Database(file);
    registerSearchFold(old);
    for (const m of migrations.filter((m) => m.version < 33)) old.exec(m.sql);
    old.pragma('user_version = 32');
    addUser(old, 5);
    const insert = old.prepare('INSERT INTO user_products (id, user_id) VALUES (?, 5)');
    for (let i = 0; i < 4; i++) insert.run(`U${i}`);
    old.close();
    const db = openDatabase(file);
    expect(changes(db, 5)).toEqual({ n: 4, changes: 0 });
    db.prepare("DELETE FROM user_products WHERE id = 'U0'").run();
    expect(changes(db, 5)).toEqual({ n: 3, changes: 1 });
    db.close();
  });
});

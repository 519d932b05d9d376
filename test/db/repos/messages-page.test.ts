import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../../main/db/migrations/index.js';
import { openDatabase, type Db } from '../../../main/db/open.js';
import { type MessageRow, messagesRepo } from '../../../main/db/repos/messages.js';
import { toMessageView } from '../../../main/service/messages/views.js';

const SELLER = 1;
const BUYER = 2;
const OTHER = 3;
const PACKS = [10, 11];
const STATUSES = ['clean', 'rejected', 'pending', 'non_moderated'] as const;

/** Users, and one lone order per pack (seller SELLER, buyer BUYER). */
function seed(db: Db): void {
  const user = db.prepare(
    "INSERT INTO users (id, nickname, registration_date, first_name, last_name, country_id, site_id) VALUES (?, 'n', '2020-01-01', 'a', 'b', 'AR', 'MLA')",
  );
  for (const id of [SELLER, BUYER, OTHER]) user.run(id);
  const order = db.prepare("INSERT INTO orders (id, seller_id, buyer_id, site_id, status, logistic_type) VALUES (?, ?, ?, 'MLA', 'paid', 'cross_docking')");
  for (const pack of PACKS) order.run(pack, SELLER, BUYER);
}

let nextId = 0;
const insertMessage = (db: Db, m: { pack: number; from: number; to: number; status: string; date: number; text?: string }) =>
  db
    .prepare(
      `INSERT INTO messages (id, order_id, from_user_id, to_user_id, pack_key, site_id, client_id, text, date_created, date_received, moderation_status, seq)
       VALUES (?, ?, ?, ?, ?, 'MLA', 77, ?, ?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM messages))`,
    )
    .run(
      (nextId++).toString(16).padStart(32, '0'),
      m.pack,
      m.from,
      m.to,
      m.pack,
      m.text ?? `texto ${nextId}`,
      new Date(Date.UTC(2026, 0, 1) + m.date * 60_000).toISOString(),
      new Date(Date.UTC(2026, 0, 1)).toISOString(),
      m.status,
    );

/** The page as the plain statements answer it: count(*) and ORDER BY ... LIMIT ... OFFSET. */
const expected = (repo: ReturnType<typeof messagesRepo>, pack: number, reader: number, limit: number, offset: number) => ({
  total: repo.countVisible(pack, reader),
  rows: repo.listVisible(pack, reader, limit, offset),
});

/** The page through what the repo keeps, and its JSON (undefined with attachments). */
function kept(repo: ReturnType<typeof messagesRepo>, pack: number, reader: number, limit: number, offset: number) {
  const { total, messages } = repo.pageRows(pack, reader, limit, offset);
  const page = repo.pageJson(pack, reader, SELLER, limit, offset);
  if (page) expect(page.total).toBe(total);
  return { total, rows: messages, json: page && `[${page.messages.join(',')}]` };
}

const jsonOf = (rows: MessageRow[]) => JSON.stringify(rows.map((r) => toMessageView(r, [], SELLER)));

type Op =
  | { kind: 'insert'; pack: number; from: number; to: number; status: (typeof STATUSES)[number]; date: number }
  | { kind: 'moderate'; pick: number; status: (typeof STATUSES)[number] }
  | { kind: 'read'; pick: number }
  | { kind: 'move'; pick: number; date: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'rolledBack'; pack: number };

const party = fc.constantFrom(SELLER, BUYER, OTHER);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    pack: fc.constantFrom(...PACKS),
    from: party,
    to: party,
    status: fc.constantFrom(...STATUSES),
    date: fc.integer({ min: 0, max: 20 }),
  }),
  fc.record({ kind: fc.constant('moderate' as const), pick: fc.nat(), status: fc.constantFrom(...STATUSES) }),
  fc.record({ kind: fc.constant('read' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), date: fc.integer({ min: 0, max: 20 }) }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('rolledBack' as const), pack: fc.constantFrom(...PACKS) }),
);

function apply(db: Db, repo: ReturnType<typeof messagesRepo>, o: Op): void {
  const ids = db.prepare<[], string>('SELECT id FROM messages ORDER BY seq').pluck().all();
  const pick = (n: number) => ids[n % ids.length]!;
  if (o.kind === 'insert') insertMessage(db, o);
  else if (o.kind === 'rolledBack') {
    // Changes a pack and reads it inside a transaction that is then undone: what was kept while
    // it lasted must not be taken for the pack as it is after.
    expect(() =>
      db.transaction(() => {
        insertMessage(db, { pack: o.pack, from: SELLER, to: BUYER, status: 'clean', date: 5 });
        repo.pageJson(o.pack, SELLER, SELLER, 5, 0);
        repo.pageRows(o.pack, BUYER, 5, 0);
        throw new Error('undone');
      })(),
    ).toThrow('undone');
  } else if (ids.length === 0) return;
  else if (o.kind === 'moderate') db.prepare('UPDATE messages SET moderation_status = ? WHERE id = ?').run(o.status, pick(o.pick));
  else if (o.kind === 'read') db.prepare("UPDATE messages SET date_read = '2026-02-01T00:00:00.000Z' WHERE id = ?").run(pick(o.pick));
  else if (o.kind === 'move') {
    db.prepare('UPDATE messages SET date_created = ? WHERE id = ?').run(new Date(Date.UTC(2026, 0, 1) + o.date * 60_000).toISOString(), pick(o.pick));
  } else db.prepare('DELETE FROM messages WHERE id = ?').run(pick(o.pick));
}

describe('a page of a pack from what the repo keeps (migration 018)', () => {
  it('property: after any writes, every page and total equal count(*) and OFFSET, and its JSON equals the views', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.integer({ min: 1, max: 6 }), fc.nat({ max: 12 }), (ops, limit, offset) => {
        const db = openDatabase(':memory:');
        seed(db);
        // One repo through all the writes: what it keeps must follow each of them.
        const repo = messagesRepo(db);
        for (const o of ops) {
          apply(db, repo, o);
          for (const pack of PACKS) {
            for (const reader of [SELLER, BUYER, OTHER]) {
              const want = expected(repo, pack, reader, limit, offset);
              const got = kept(repo, pack, reader, limit, offset);
              expect({ total: got.total, rows: got.rows }).toEqual(want);
              expect(got.json).toBe(jsonOf(want.rows));
            }
          }
        }
        db.close();
      }),
      { numRuns: 60 },
    );
  });

  it('sees the writes of another connection (the pull, the sqlite3 shell)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pack-')), 'm.db');
    const db = openDatabase(file);
    seed(db);
    const repo = messagesRepo(db);
    for (let i = 0; i < 5; i++) insertMessage(db, { pack: 10, from: BUYER, to: SELLER, status: 'clean', date: i });
    expect(kept(repo, 10, SELLER, 10, 0).total).toBe(5);

    const other = new Database(file);
    other.prepare("UPDATE messages SET moderation_status = 'rejected' WHERE seq = 2").run();
    other.prepare("UPDATE messages SET text = 'otro texto' WHERE seq = 3").run();
    other.close();

    const page = kept(repo, 10, SELLER, 10, 0);
    expect(page.total).toBe(4);
    expect(page.rows.map((r) => r.seq)).toEqual([5, 4, 3, 1]);
    expect(page.rows[2]!.text).toBe('otro texto');
    expect(page.json).toBe(jsonOf(expected(repo, 10, SELLER, 10, 0).rows));
    db.close();
  });

  it('escapes every text exactly as JSON.stringify does', () => {
    const db = openDatabase(':memory:');
    seed(db);
    const repo = messagesRepo(db);
    const texts = [
      'comillas " y barra \\ y / barra',
      'tab\tlínea\nretorno\r fin',
      'controles \u0000\u0001\u001f\u007f\u0080\u009f',
      'ñandú, ação, Ärger, ß € “curvas” — …',
      'separadores \u2028 \u2029',
      'emoji 😀 👍🏽 🤷‍♀️',
      '',
    ];
    texts.forEach((text, i) => insertMessage(db, { pack: 10, from: SELLER, to: BUYER, status: 'clean', date: i, text }));
    const got = kept(repo, 10, SELLER, 20, 0);
    expect(got.json).toBe(jsonOf(expected(repo, 10, SELLER, 20, 0).rows));
    db.close();
  });

  it('leaves a page with attachments to the caller, and sees one linked later', () => {
    const db = openDatabase(':memory:');
    seed(db);
    const repo = messagesRepo(db);
    for (let i = 0; i < 3; i++) insertMessage(db, { pack: 10, from: SELLER, to: BUYER, status: 'clean', date: i });
    expect(kept(repo, 10, SELLER, 10, 0).json).toBe(jsonOf(expected(repo, 10, SELLER, 10, 0).rows));
    // An upload linked to the oldest message afterwards (as the pull's mirror does).
    db.prepare(
      `INSERT INTO attachments (id, uploader_id, site_id, original_filename, media_type, size, created_at, message_id, position)
       VALUES ('a1', ?, 'MLA', 'f.pdf', 'application/pdf', 3, 0, (SELECT id FROM messages WHERE seq = 1), 0)`,
    ).run(SELLER);
    expect(kept(repo, 10, SELLER, 10, 0).json).toBeUndefined();
    expect(kept(repo, 10, SELLER, 2, 0).json).toBe(jsonOf(expected(repo, 10, SELLER, 2, 0).rows));
    db.prepare("UPDATE attachments SET message_id = NULL, position = NULL WHERE id = 'a1'").run();
    expect(kept(repo, 10, SELLER, 10, 0).json).toBe(jsonOf(expected(repo, 10, SELLER, 10, 0).rows));
    db.close();
  });

  it('gives a pack a new version on every change to its messages or orders, and none to other packs', () => {
    const db = openDatabase(':memory:');
    seed(db);
    const version = (pack: number) =>
      db.prepare<[number], bigint>('SELECT version FROM message_pack_versions WHERE pack_key = ?').pluck().safeIntegers().get(pack);
    // The order made the pack's first version.
    const v0 = version(10);
    expect(v0).toBeDefined();
    insertMessage(db, { pack: 10, from: SELLER, to: BUYER, status: 'clean', date: 0 });
    const v1 = version(10);
    expect(v1).not.toBe(v0);
    db.prepare("UPDATE messages SET date_read = '2026-02-01T00:00:00.000Z'").run();
    const v2 = version(10);
    expect(v2).not.toBe(v1);
    insertMessage(db, { pack: 11, from: SELLER, to: BUYER, status: 'clean', date: 0 });
    expect(version(10)).toBe(v2);
    // A message inserted with the contract columns only gets its pack from the fill-in trigger.
    db.prepare("INSERT INTO messages (id, order_id, from_user_id, to_user_id) VALUES ('c', 10, ?, ?)").run(BUYER, SELLER);
    const v3 = version(10);
    expect(v3).not.toBe(v2);
    db.prepare('UPDATE orders SET delivered = 1 WHERE id = 10').run();
    expect(version(10)).not.toBe(v3);
    db.close();
  });

  it('answers the orders of a pack from what it keeps only while the version holds', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pack-')), 'm.db');
    const db = openDatabase(file);
    seed(db);
    const repo = messagesRepo(db);
    const orders = (pack: number) => repo.ordersOfPackKey(pack, repo.packVersion(pack)).map((o) => [o.id, o.status]);
    expect(orders(10)).toEqual([[10, 'paid']]);
    expect(orders(10)).toEqual([[10, 'paid']]);
    // An order joining pack 10: the pack is now its orders with that pack_id (SPEC 4.9).
    db.prepare(
      "INSERT INTO orders (id, pack_id, seller_id, buyer_id, site_id, status, logistic_type) VALUES (20, 10, ?, ?, 'MLA', 'paid', 'cross_docking')",
    ).run(SELLER, BUYER);
    expect(orders(10)).toEqual([[20, 'paid']]);
    const other = new Database(file);
    other.prepare("UPDATE orders SET status = 'cancelled' WHERE id = 20").run();
    other.close();
    expect(orders(10)).toEqual([[20, 'cancelled']]);
    // Without a version, always read.
    db.prepare("UPDATE orders SET status = 'paid' WHERE id = 20").run();
    expect(repo.ordersOfPackKey(10).map((o) => o.status)).toEqual(['paid']);
    expect(orders(10)).toEqual([[20, 'paid']]);
    db.close();
  });

  it('starts with no versions when an older database is migrated (a pack without a row is version 0)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'db-')), 'old.db');
    const old = new Database(file);
    for (const m of migrations.filter((m) => m.version <= 17)) old.exec(m.sql);
    old.pragma('user_version = 17');
    seed(old);
    for (let i = 0; i < 4; i++) insertMessage(old, { pack: 10, from: SELLER, to: BUYER, status: 'pending', date: i });
    old.close();
    const db = openDatabase(file);
    const repo = messagesRepo(db);
    expect(kept(repo, 10, SELLER, 10, 0).total).toBe(4);
    expect(kept(repo, 10, BUYER, 10, 0).total).toBe(0);
    db.close();
  });
});

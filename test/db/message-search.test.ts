import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../main/db/open.js';
import { SEARCH_BATCH } from '../../main/db/migrations/019-message-search-mark.js';
import { migrations } from '../../main/db/migrations/index.js';
import { MESSAGE_TOKENIZER, ftsQuery, inboxSearchRepo } from '../../main/db/repos/inbox-search.js';

const SELLER = 1;
const BUYER = 2;

/** A seller, a buyer, and two lone orders (packs 10 and 11) with a line each. */
function fixture() {
  const db = openDatabase(':memory:');
  const user = db.prepare(
    "INSERT INTO users (id, nickname, registration_date, first_name, last_name, country_id, site_id) VALUES (?, ?, '2020-01-01', ?, ?, 'AR', 'MLA')",
  );
  user.run(SELLER, 'VENDEDOR', 'Ana', 'Seller');
  user.run(BUYER, 'COMPRADOR_X', 'Martín', 'Gómez');
  const order = db.prepare("INSERT INTO orders (id, seller_id, buyer_id, site_id, status, logistic_type) VALUES (?, ?, ?, 'MLA', 'paid', 'cross_docking')");
  order.run(10, SELLER, BUYER);
  order.run(11, SELLER, BUYER);
  db.prepare(
    "INSERT INTO order_items (order_id, position, item_id, title, quantity, unit_price, currency_id) VALUES (10, 0, 'MLA1', 'Yerba mate 1kg', 1, 10, 'ARS')",
  ).run();
  db.prepare(
    "INSERT INTO order_items (order_id, position, item_id, title, quantity, unit_price, currency_id) VALUES (11, 0, 'MLA2', 'Canasta matera', 1, 10, 'ARS')",
  ).run();
  const msg = db.prepare('INSERT INTO messages (id, order_id, from_user_id, to_user_id, text, moderation_status) VALUES (?, ?, ?, ?, ?, ?)');
  const search = inboxSearchRepo(db);
  return { db, msg, find: (text: string) => search.messagesMatching(text), search };
}

/**
 * messages_fts holds exactly the rows up to the mark (migration 019), each with its current text:
 * with the rows past the mark added, FTS5's own check of an external-content index passes (it
 * fails on a row missing, indexed twice or with another text). Rolled back after.
 */
function indexAgrees(db: Db): void {
  const rollback = new Error('rollback');
  try {
    db.transaction(() => {
      db.exec('INSERT INTO messages_fts(rowid, text) SELECT rowid, text FROM messages WHERE rowid > (SELECT indexed_rowid FROM message_search_state)');
      db.exec("INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)");
      throw rollback;
    })();
  } catch (e) {
    if (e !== rollback) throw e;
  }
}

describe('the inbox search (migration 017)', () => {
  it('keeps the full-text index right on insert, text update and delete, and ignores other updates', () => {
    const { db, msg, find } = fixture();
    msg.run('m1', 10, BUYER, SELLER, '¿Cuándo llega el envío?', 'clean');
    msg.run('m2', 11, SELLER, BUYER, 'Sale mañana por correo', 'clean');
    expect(find('envio')).toEqual(['m1']);
    expect(find('CORREO')).toEqual(['m2']);

    db.prepare("UPDATE messages SET text = 'Sale hoy por moto' WHERE id = 'm2'").run();
    expect(find('correo')).toEqual([]);
    expect(find('moto')).toEqual(['m2']);

    // A read (date_read) does not touch the index: the text is still found, once.
    db.prepare("UPDATE messages SET date_read = '2026-01-01T00:00:00.000Z' WHERE id = 'm1'").run();
    expect(find('llega')).toEqual(['m1']);

    db.prepare("DELETE FROM messages WHERE id = 'm1'").run();
    expect(find('llega')).toEqual([]);
    // Both were still past the mark of migration 019: matched outside messages_fts, which is empty.
    expect(db.prepare('SELECT count(*) FROM messages_fts_docsize').pluck().get()).toBe(0);

    // Past the mark by SEARCH_BATCH: the rows are indexed and the same searches answer the same.
    for (let i = 0; i < SEARCH_BATCH; i++) msg.run(`n${i}`, 10, SELLER, BUYER, `relleno ${i}`, 'clean');
    const mark = db.prepare('SELECT indexed_rowid FROM message_search_state').pluck().get() as number;
    expect(mark).toBeGreaterThan(db.prepare("SELECT rowid FROM messages WHERE id = 'm2'").pluck().get() as number);
    expect(db.prepare('SELECT count(*) FROM messages_fts_docsize').pluck().get()).toBe(
      db.prepare('SELECT count(*) FROM messages WHERE rowid <= ?').pluck().get(mark),
    );
    expect(find('moto')).toEqual(['m2']);
    db.prepare("UPDATE messages SET text = 'Sale hoy por avión' WHERE id = 'm2'").run();
    expect(find('moto')).toEqual([]);
    expect(find('avion')).toEqual(['m2']);
    db.prepare("UPDATE messages SET date_read = '2026-01-01T00:00:00.000Z' WHERE id = 'm2'").run();
    expect(find('avion')).toEqual(['m2']);
    db.prepare("DELETE FROM messages WHERE id = 'm2'").run();
    expect(find('avion')).toEqual([]);
    indexAgrees(db);
  });

  it('finds conversations by message text, buyer, product and order id, never by a text the seller cannot see', () => {
    const { msg, search } = fixture();
    msg.run('m1', 10, BUYER, SELLER, 'Llegó perfecto, gracias', 'clean');
    // The buyer's rejected message is not shown to the seller, so it does not match either.
    msg.run('m2', 11, BUYER, SELLER, 'mi teléfono secreto', 'rejected');
    const packs = (q: string) => [...search.matching(SELLER, q)].sort();
    expect(packs('perfecto')).toEqual([10]);
    expect(packs('llego grac')).toEqual([10]);
    expect(packs('secreto')).toEqual([]);
    expect(packs('gómez')).toEqual([10, 11]);
    expect(packs('comprador_x')).toEqual([10, 11]);
    expect(packs('Martín Gómez')).toEqual([10, 11]);
    expect(packs('canasta')).toEqual([11]);
    expect(packs('11')).toEqual([11]);
    expect(packs('#10')).toEqual([10]);
    // Only the seller's own conversations.
    expect([...search.matching(BUYER, 'canasta')]).toEqual([]);
    // LIKE and FTS syntax typed by the person are plain text.
    expect(packs('%')).toEqual([]);
    expect(packs('"')).toEqual([]);
    expect(packs('perfecto OR NEAR(')).toEqual([]);
  });

  it('writes words as quoted prefixes', () => {
    expect(ftsQuery('  envío "rápido" ')).toBe('"envío"* "rápido"*');
    expect(ftsQuery('?!')).toBeNull();
  });
});

const WORDS = ['envío', 'envio', 'llegó', 'llega', 'Mañana', 'correo', 'moto', 'avión', 'gracias', 'pedido', 'x', 'x_y'];
const QUERIES = ['envio', 'llego', 'llega', 'mañ', 'correo moto', 'GRACIAS', 'av', 'x', 'x_y', 'pedido envío', 'zzz'];

type SearchOp =
  | { kind: 'insert'; texts: string[]; one: boolean }
  | { kind: 'insertAt'; rowid: number; text: string }
  | { kind: 'delete'; pick: number }
  | { kind: 'deleteNewest'; n: number }
  | { kind: 'setText'; pick: number; text: string }
  | { kind: 'touch'; pick: number }
  | { kind: 'rolledBack'; texts: string[] };

const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
const searchOp: fc.Arbitrary<SearchOp> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('insert' as const), texts: fc.array(text, { minLength: 1, maxLength: 40 }), one: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('insertAt' as const), rowid: fc.integer({ min: 1, max: 400 }), text }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteNewest' as const), n: fc.integer({ min: 1, max: 70 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('setText' as const), pick: fc.nat(), text }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('touch' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rolledBack' as const), texts: fc.array(text, { minLength: 1, maxLength: 70 }) }) },
);

/** The answer of an index of every message, made from scratch: message ids matching each query. */
function reference(db: Db): (search: string) => string[] {
  const ref = new Database(':memory:');
  ref.exec(`CREATE VIRTUAL TABLE f USING fts5(text, tokenize = '${MESSAGE_TOKENIZER}')`);
  const rows = db.prepare<[], [number, string]>('SELECT rowid, text FROM messages').raw(true).all();
  const add = ref.prepare('INSERT INTO f(rowid, text) VALUES (?, ?)');
  for (const [rowid, t] of rows) add.run(rowid, t);
  const ids = new Map(db.prepare<[], [number, string]>('SELECT rowid, id FROM messages').raw(true).all());
  const match = ref.prepare<[string], number>('SELECT rowid FROM f WHERE f MATCH ?').pluck(true);
  return (search) => {
    const q = ftsQuery(search);
    return q === null
      ? []
      : match
          .all(q)
          .map((r) => ids.get(r)!)
          .sort();
  };
}

describe('the search with the index written in batches (migration 019)', () => {
  it('the tokenizer of the tail is the one of messages_fts', () => {
    const { db } = fixture();
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'messages_fts'").pluck().get()).toContain(`tokenize = '${MESSAGE_TOKENIZER}'`);
  });

  it('an older database keeps what 017 indexed: the mark starts at its last message', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'db-')), 'old.db');
    const old = new Database(file);
    for (const m of migrations.filter((m) => m.version <= 18)) old.exec(m.sql);
    old.pragma('user_version = 18');
    old.exec(
      "INSERT INTO users (id, nickname, registration_date, first_name, last_name, country_id, site_id) VALUES (1, 'S', '2020-01-01', 'A', 'S', 'AR', 'MLA'), (2, 'B', '2020-01-01', 'M', 'G', 'AR', 'MLA')",
    );
    old.exec("INSERT INTO orders (id, seller_id, buyer_id, site_id, status, logistic_type) VALUES (10, 1, 2, 'MLA', 'paid', 'cross_docking')");
    const add = old.prepare("INSERT INTO messages (id, order_id, from_user_id, to_user_id, text) VALUES (?, 10, 1, 2, 'envío listo')");
    for (let i = 0; i < 3; i++) add.run(`o${i}`);
    old.close();
    const db = openDatabase(file);
    expect(db.prepare('SELECT indexed_rowid FROM message_search_state').pluck().get()).toBe(3);
    db.prepare("INSERT INTO messages (id, order_id, from_user_id, to_user_id, text) VALUES ('new', 10, 2, 1, 'otro envío')").run();
    expect(inboxSearchRepo(db).messagesMatching('envio')).toEqual(['new', 'o0', 'o1', 'o2']);
    indexAgrees(db);
    db.close();
  });

  it('a row indexed twice is caught by the check the property relies on', () => {
    const { db, msg } = fixture();
    for (let i = 0; i < SEARCH_BATCH; i++) msg.run(`n${i}`, 10, SELLER, BUYER, `relleno ${i}`, 'clean');
    indexAgrees(db);
    db.exec("INSERT INTO messages_fts(rowid, text) SELECT rowid, text FROM messages WHERE id = 'n0'");
    expect(() => indexAgrees(db)).toThrow();
  });

  it('property: after any writes, the search answers what an index of every message answers', () => {
    let n = 0;
    fc.assert(
      fc.property(fc.array(searchOp, { minLength: 1, maxLength: 40 }), (ops) => {
        const { db, msg, find } = fixture();
        const insert = (t: string) => msg.run(`m${n++}`, 10 + (n % 2), n % 3 === 0 ? BUYER : SELLER, n % 3 === 0 ? SELLER : BUYER, t, 'clean');
        const many = db.prepare(
          "INSERT INTO messages (id, order_id, from_user_id, to_user_id, text) SELECT 'b' || ? || '-' || key, 10, ?, ?, value FROM json_each(?)",
        );
        const rowids = () => db.prepare<[], number>('SELECT rowid FROM messages ORDER BY rowid').pluck().all();
        for (const o of ops) {
          const all = rowids();
          const pick = (k: number) => all[k % all.length]!;
          if (o.kind === 'insert' && o.one) many.run(n++, SELLER, BUYER, JSON.stringify(o.texts));
          else if (o.kind === 'insert') for (const t of o.texts) insert(t);
          else if (o.kind === 'insertAt' && !all.includes(o.rowid)) {
            db.prepare('INSERT INTO messages (rowid, id, order_id, from_user_id, to_user_id, text) VALUES (?, ?, 10, ?, ?, ?)').run(
              o.rowid,
              `r${n++}`,
              SELLER,
              BUYER,
              o.text,
            );
          } else if (all.length === 0) continue;
          else if (o.kind === 'delete') db.prepare('DELETE FROM messages WHERE rowid = ?').run(pick(o.pick));
          else if (o.kind === 'deleteNewest')
            db.prepare('DELETE FROM messages WHERE rowid IN (SELECT rowid FROM messages ORDER BY rowid DESC LIMIT ?)').run(o.n);
          else if (o.kind === 'setText') db.prepare('UPDATE messages SET text = ? WHERE rowid = ?').run(o.text, pick(o.pick));
          else if (o.kind === 'touch') db.prepare("UPDATE messages SET date_read = '2026-01-01T00:00:00.000Z' WHERE rowid = ?").run(pick(o.pick));
          else if (o.kind === 'rolledBack') {
            const before = db.prepare('SELECT indexed_rowid FROM message_search_state').pluck().get();
            expect(() =>
              db.transaction(() => {
                for (const t of o.texts) insert(t);
                throw new Error('undone');
              })(),
            ).toThrow('undone');
            expect(db.prepare('SELECT indexed_rowid FROM message_search_state').pluck().get()).toBe(before);
          }
          const ref = reference(db);
          for (const q of QUERIES) expect(find(q), q).toEqual(ref(q));
        }
        // The rows past the mark are fewer than a batch, and the index holds exactly the others.
        const mark = db.prepare<[], number>('SELECT indexed_rowid FROM message_search_state').pluck().get()!;
        expect(db.prepare('SELECT count(*) FROM messages WHERE rowid > ?').pluck().get(mark)).toBeLessThan(SEARCH_BATCH);
        indexAgrees(db);
        db.close();
      }),
      { numRuns: 40 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/db/open.js';
import { ftsQuery, inboxSearchRepo } from '../../main/db/repos/inbox-search.js';

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
  const fts = db.prepare<[string], { id: string }>(
    'SELECT m.id FROM messages_fts f JOIN messages m ON m.rowid = f.rowid WHERE messages_fts MATCH ? ORDER BY m.id',
  );
  const find = (text: string) => fts.all(ftsQuery(text) ?? '""').map((r) => r.id);
  return { db, msg, find, search: inboxSearchRepo(db) };
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
    // The index agrees with the table (FTS5's own check of an external-content index).
    expect(() => db.prepare("INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
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

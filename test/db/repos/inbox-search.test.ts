import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../../main/db/migrations/index.js';
import { openDatabase } from '../../../main/db/open.js';
import { inboxSearchRepo } from '../../../main/db/repos/inbox-search.js';
import { mirrorRepo } from '../../../main/db/repos/mirror.js';
import { ordersRepo } from '../../../main/db/repos/orders.js';
import { usersRepo } from '../../../main/db/repos/users.js';
import { tempDirs } from '../../support/temp-dir.js';

const SELLER = 1;

/** Three buyers with accents in their names, nicknames and products, each with one order (issue 27). */
function fixture() {
  const db = openDatabase(':memory:');
  const user = db.prepare(
    "INSERT INTO users (id, nickname, registration_date, first_name, last_name, country_id, site_id) VALUES (?, ?, '2020-01-01', ?, ?, 'AR', 'MLA')",
  );
  user.run(SELLER, 'VENDEDOR', 'Ana', 'Seller');
  user.run(2, 'TIENDA_PEÑA', 'María', 'Núñez');
  user.run(3, 'COMPRADOR_B', 'João', 'Conceição');
  user.run(4, 'ÑANDÚ_SHOP', 'Pedro', 'Díaz');
  const order = db.prepare(
    "INSERT INTO orders (id, pack_id, seller_id, buyer_id, site_id, status, logistic_type) VALUES (?, ?, ?, ?, 'MLA', 'paid', 'cross_docking')",
  );
  order.run(2000012345, null, SELLER, 2);
  order.run(2000067890, 3000055501, SELLER, 3);
  order.run(2000099999, null, SELLER, 4);
  const line = db.prepare("INSERT INTO order_items (order_id, position, item_id, title, quantity, unit_price, currency_id) VALUES (?, 0, ?, ?, 1, 10, 'ARS')");
  line.run(2000012345, 'MLA1', 'Lámpara de pie nórdica');
  line.run(2000067890, 'MLA2', 'Mate de calabaza');
  line.run(2000099999, 'MLA3', 'Canasta matera');
  const search = inboxSearchRepo(db);
  return (text: string) => [...search.matching(SELLER, text)].sort((a, b) => a - b);
}

describe('the inbox search folds accents and case everywhere (issue 27)', () => {
  it('finds buyers by name and nickname whatever the accents and case typed', () => {
    const find = fixture();
    for (const typed of ['nunez', 'NUÑEZ', 'Núñez', 'maria nunez', 'MARÍA']) expect(find(typed), typed).toEqual([2000012345]);
    for (const typed of ['joao', 'JOÃO', 'conceicao']) expect(find(typed), typed).toEqual([3000055501]);
    expect(find('tienda_pena')).toEqual([2000012345]);
    expect(find('nandu')).toEqual([2000099999]);
  });

  it('finds products by title whatever the accents and case typed', () => {
    const find = fixture();
    expect(find('lampara')).toEqual([2000012345]);
    expect(find('NÓRDICA')).toEqual([2000012345]);
    expect(find('mate')).toEqual([2000099999, 3000055501]);
  });

  it('finds an order or pack number by any part of it, its last digits first of all', () => {
    const find = fixture();
    expect(find('12345')).toEqual([2000012345]);
    expect(find('#2345')).toEqual([2000012345]);
    expect(find('67890')).toEqual([3000055501]);
    expect(find('55501')).toEqual([3000055501]);
    expect(find('2000')).toEqual([2000012345, 2000099999, 3000055501]);
    expect(find('424242')).toEqual([]);
  });

  it('takes the typed text literally (no pattern characters)', () => {
    const find = fixture();
    expect(find('%')).toEqual([]);
    // A LIKE would read "_" as any character and find "mate".
    expect(find('m_t')).toEqual([]);
    expect(find('_shop')).toEqual([2000099999]);
  });
});

const BUYER = { registration_date: '2020-01-01', gender: '', country_id: 'AR', site_id: 'MLA', tags: [] };

/** A seller and one buyer written by the repositories, with one order of one line. */
function written() {
  const db = openDatabase(':memory:');
  const users = usersRepo(db);
  users.insert({ ...BUYER, id: SELLER, nickname: 'VENDEDOR', first_name: 'Ana', last_name: 'Seller' });
  users.insert({ ...BUYER, id: 2, nickname: 'TIENDA_PEÑA', first_name: 'María', last_name: 'Núñez' });
  db.prepare(
    "INSERT INTO orders (id, pack_id, seller_id, buyer_id, site_id, status, logistic_type) VALUES (70001, NULL, ?, 2, 'MLA', 'paid', 'cross_docking')",
  ).run(SELLER);
  const orders = ordersRepo(db);
  db.transaction(() =>
    orders.writeDetails({ id: 70001, date_created: null, total_amount: null, currency_id: null, shipping_id: null }, [
      { item_id: 'MLA1', title: 'Lámpara de pie nórdica', quantity: 1, unit_price: 10, currency_id: 'ARS' },
    ]),
  )();
  const search = inboxSearchRepo(db);
  const folded = () => db.prepare('SELECT nickname_folded, name_folded FROM users WHERE id = 2').get();
  const title = () => db.prepare('SELECT title_folded FROM order_items WHERE order_id = 70001').pluck().get();
  return { db, find: (text: string) => [...search.matching(SELLER, text)], folded, title };
}

describe('the folded copies the search reads (migration 030, issue 27)', () => {
  const dir = tempDirs('stockroom-fold-');

  it('are written with the names and titles, and the search reads them instead of folding each row', () => {
    const { db, find, folded, title } = written();
    expect(folded()).toEqual({ nickname_folded: 'tienda_pena', name_folded: 'maria nunez' });
    expect(title()).toBe('lampara de pie nordica');
    expect(find('NUÑEZ')).toEqual([70001]);
    expect(find('nordica')).toEqual([70001]);
    // What is stored is what is compared: a copy changed alone is what the search finds.
    db.prepare("UPDATE users SET name_folded = 'otro nombre' WHERE id = 2").run();
    expect(find('nunez')).toEqual([]);
    expect(find('otro nombre')).toEqual([70001]);
  });

  it('are cleared when a name or title changes without them, and the search folds that row itself', () => {
    const { db, find, folded, title } = written();
    db.prepare("UPDATE users SET last_name = 'Ibáñez' WHERE id = 2").run();
    db.prepare("UPDATE order_items SET title = 'Farol colgante' WHERE order_id = 70001").run();
    expect(folded()).toEqual({ nickname_folded: null, name_folded: null });
    expect(title()).toBeNull();
    expect(find('ibanez')).toEqual([70001]);
    expect(find('nunez')).toEqual([]);
    expect(find('FAROL')).toEqual([70001]);
    expect(find('lampara')).toEqual([]);
  });

  it('follow the pull: an unchanged buyer keeps them, a renamed one gets new ones', () => {
    const { db, find, folded } = written();
    const mirror = mirrorRepo(db);
    const buyer = { ...BUYER, id: 2, nickname: 'TIENDA_PEÑA', first_name: 'María', last_name: 'Núñez' };
    mirror.upsertUser(buyer);
    expect(folded()).toMatchObject({ name_folded: 'maria nunez' });
    mirror.upsertUser({ ...buyer, first_name: 'Joël' });
    expect(folded()).toMatchObject({ name_folded: 'joel nunez' });
    expect(find('joel')).toEqual([70001]);
    expect(find('maria')).toEqual([]);
  });

  it('are filled for the names and titles a database had before the migration', () => {
    const file = join(dir(), 'old.db');
    const old = new Database(file);
    for (const m of migrations.filter((m) => m.version < 30)) old.exec(m.sql);
    old.pragma('user_version = 29');
    old
      .prepare(
        "INSERT INTO users (id, nickname, registration_date, first_name, last_name, country_id, site_id) VALUES (1, 'VENDEDOR', '2020-01-01', 'Ana', 'Seller', 'BR', 'MLB'), (2, 'JOÃO_BR', '2020-01-01', 'João', 'Conceição', 'BR', 'MLB')",
      )
      .run();
    old
      .prepare("INSERT INTO orders (id, pack_id, seller_id, buyer_id, site_id, status, logistic_type) VALUES (9, NULL, 1, 2, 'MLB', 'paid', 'cross_docking')")
      .run();
    old
      .prepare(
        "INSERT INTO order_items (order_id, position, item_id, title, quantity, unit_price, currency_id) VALUES (9, 0, 'MLB1', 'Cuia de cerâmica', 1, 10, 'BRL')",
      )
      .run();
    old.close();
    const db = openDatabase(file);
    try {
      expect(db.prepare('SELECT nickname_folded, name_folded FROM users WHERE id = 2').get()).toEqual({
        nickname_folded: 'joao_br',
        name_folded: 'joao conceicao',
      });
      expect(db.prepare('SELECT title_folded FROM order_items WHERE order_id = 9').pluck().get()).toBe('cuia de ceramica');
    } finally {
      db.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../main/db/open.js';
import { inboxSearchRepo } from '../../../main/db/repos/inbox-search.js';

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

/**
 * The order's answer over a real SQLite database (issue 15 §1): the service reads what the
 * fixture loader (or a replica's pull) wrote, in the marketplace's shape, for its parties only.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../main/db/open.js';
import { messagesRepo } from '../../../main/db/repos/messages.js';
import { ordersRepo } from '../../../main/db/repos/orders.js';
import { loadFixtures, parseFixtures } from '../../../main/fixtures/load.js';
import { ordersService } from '../../../main/service/messages/orders.js';
import { lineTotal, marketplaceOrders } from '../../../main/service/orders/order-view.js';
import { pictureOf } from '../../../main/desktop/conversation-orders.js';
import { demo, demoFixtures } from '../../support/fixtures.js';
import { demoOrders } from '../../support/messages.js';

function demoDb() {
  const db = openDatabase(':memory:');
  loadFixtures(db, parseFixtures(demoFixtures()));
  return db;
}
const as = (userId: number) => ({ userId, applicationId: demo.app });

describe('ordersService.get', () => {
  it('answers the seller and the buyer in the marketplace shape', () => {
    const db = demoDb();
    const service = ordersService(messagesRepo(db), ordersRepo(db));
    for (const who of [demo.seller.id, demo.buyer.id]) {
      const o = service.get(as(who), String(demoOrders.fulfillment.id));
      expect(o).toMatchObject({
        id: demoOrders.fulfillment.id,
        status: 'paid',
        date_created: '2026-11-20T18:30:00.000Z',
        total_amount: 17998,
        currency_id: 'ARS',
        order_items: [{ item: { id: demo.items.bombilla, title: 'Bombilla alpaca' }, quantity: 2, unit_price: 8999, currency_id: 'ARS' }],
        buyer: { id: demo.buyer.id, nickname: 'COMPRADOR_TEST', first_name: 'Martín', last_name: 'Gómez' },
        seller: { id: demo.seller.id },
        shipping: { id: 43000000004, logistic_type: 'fulfillment' },
        pack_id: null,
        delivered: false,
      });
    }
  });

  it('refuses anyone else (403), an unknown order (404) and a malformed id (400), in that order of checks', () => {
    const db = demoDb();
    const service = ordersService(messagesRepo(db), ordersRepo(db));
    expect(() => service.get(as(demo.other.id), String(demoOrders.packed.id))).toThrow(
      expect.objectContaining({ status: 403, message: `User access token invalid for resource ${demoOrders.packed.id}` }),
    );
    expect(() => service.get(as(demo.other.id), '42')).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => service.get(as(demo.seller.id), 'x1')).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe('marketplaceOrders', () => {
  it('answers in the order of the ids asked, leaving unknown ones out', () => {
    const db = demoDb();
    const ids = [demoOrders.mediationMla.id, 1, demoOrders.packed.id];
    expect(marketplaceOrders(ordersRepo(db), ids).map((o) => o.id)).toEqual([demoOrders.mediationMla.id, demoOrders.packed.id]);
  });

  it('a replica’s write replaces the lines of an order', () => {
    const db = demoDb();
    const repo = ordersRepo(db);
    db.transaction(() =>
      repo.writeDetails({ id: demoOrders.packed.id, date_created: '2026-11-01T00:00:00.000Z', total_amount: 10, currency_id: 'ARS', shipping_id: 7 }, [
        { item_id: 'MLA999', title: 'Not in this catalogue', quantity: 1, unit_price: 10, currency_id: 'ARS' },
      ]),
    )();
    const [o] = marketplaceOrders(repo, [demoOrders.packed.id]);
    expect(o).toMatchObject({ total_amount: 10, shipping: { id: 7 }, order_items: [{ item: { id: 'MLA999', title: 'Not in this catalogue' } }] });
  });
});

describe('lineTotal and pictureOf', () => {
  it('sums in cents', () => {
    expect(lineTotal([{ quantity: 3, unit_price: 0.1 }])).toBe(0.3);
    expect(lineTotal([])).toBe(0);
  });

  it('takes the first https picture of the item’s stored attributes; none for http, bad JSON or no pictures', () => {
    expect(pictureOf(JSON.stringify({ pictures: [{ url: 'http://x/a.jpg' }, { secure_url: 'https://x/b.jpg', url: 'http://x/b.jpg' }] }))).toBe(
      'https://x/b.jpg',
    );
    expect(pictureOf(JSON.stringify({ thumbnail: 'https://x/t.jpg' }))).toBe('https://x/t.jpg');
    expect(pictureOf(JSON.stringify({ pictures: [{ url: 'http://x/a.jpg' }] }))).toBeNull();
    expect(pictureOf('{not json')).toBeNull();
    expect(pictureOf(JSON.stringify({ pictures: 'odd' }))).toBeNull();
    expect(pictureOf(null)).toBeNull();
  });
});

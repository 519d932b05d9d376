/**
 * GET /orders/{id} and /orders/search in the marketplace's order shape (issue 15 §1): items,
 * buyer names, amount, date, shipping, pack; only the order's seller and buyer read it. A real
 * server on 127.0.0.1 over a real SQLite file, seeded with the demo data plus orders that leave
 * the optional fixture fields out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureFile } from '../../main/fixtures/schema.js';
import { demo, demoFixtures } from '../support/fixtures.js';
import { demoOrders, orderFixture } from '../support/messages.js';
import { type TestServer, errorBody, startTestServer } from '../support/server.js';

const BARE = 4000009000001;
const SUMMED = 4000009000002;

function fixtures(): FixtureFile {
  const f = demoFixtures();
  f.orders = [
    ...(f.orders ?? []),
    // No optional field: the answer fills them in.
    orderFixture({ id: BARE }),
    // Lines without total or currency: the total is the lines' sum (in cents), the currency the item's.
    orderFixture({
      id: SUMMED,
      order_items: [
        { item_id: demo.items.yerba, quantity: 3, unit_price: 0.1 },
        { item_id: demo.items.bombilla, quantity: 2, unit_price: 8999.99 },
      ],
    }),
  ];
  return f;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(fixtures());
});
afterAll(() => server.close());

const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('GET /orders/{id}: the marketplace order shape', () => {
  it('answers the seller and the buyer with items, buyer names, amount, date, shipping and pack', async () => {
    for (const token of [demo.seller.token, demo.buyer.token]) {
      const res = await server.as(token).get(`/orders/${demoOrders.packed.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: demoOrders.packed.id,
        status: 'paid',
        date_created: '2026-11-18T12:40:00.000Z',
        total_amount: 45999,
        currency_id: 'ARS',
        order_items: [{ item: { id: demo.items.termo, title: 'Termo acero inoxidable 1L' }, quantity: 1, unit_price: 45999, currency_id: 'ARS' }],
        buyer: { id: demo.buyer.id, nickname: 'COMPRADOR_TEST', first_name: 'Martín', last_name: 'Gómez' },
        seller: { id: demo.seller.id },
        shipping: { id: 43000000001, logistic_type: 'cross_docking' },
        pack_id: demoOrders.packed.pack,
        site_id: 'MLA',
        status_date: expect.stringMatching(iso),
        logistic_type: 'cross_docking',
        delivered: false,
        mediation_in_process: false,
      });
    }
  });

  it('a cancelled order without a shipment: shipping id null, the status as it is', async () => {
    const res = await server.as(demo.seller.token).get(`/orders/${demoOrders.cancelled.id}`);
    expect(res.body).toMatchObject({ status: 'cancelled', shipping: { id: null, logistic_type: 'cross_docking' }, pack_id: null });
    expect(res.body.order_items[0].item.title).toBe('Mate de calabaza con bombilla');
  });

  it('an order without the optional fields: no lines, total 0, no currency, dated by its status', async () => {
    const res = await server.as(demo.buyer.token).get(`/orders/${BARE}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ order_items: [], total_amount: 0, currency_id: null, shipping: { id: null } });
    expect(res.body.date_created).toBe(res.body.status_date);
  });

  it('lines without a total: the sum of quantity × unit price, without floating-point dust', async () => {
    const res = await server.as(demo.seller.token).get(`/orders/${SUMMED}`);
    expect(res.body.total_amount).toBe(18000.28);
    expect(res.body.currency_id).toBe('ARS');
    expect(res.body.order_items.map((l: { item: { title: string }; quantity: number }) => [l.item.title, l.quantity])).toEqual([
      ['Yerba mate 1kg', 3],
      ['Bombilla alpaca', 2],
    ]);
  });

  it('only the seller and the buyer: 403 for anyone else, 404 unknown, 400 bad id, 401 without a token, in the spec error shape', async () => {
    for (const token of [demo.other.token, demo.brand.token]) {
      const res = await server.as(token).get(`/orders/${demoOrders.packed.id}`);
      expect(res.status).toBe(403);
      expect(errorBody(res)).toMatchObject({ status: 403, message: `User access token invalid for resource ${demoOrders.packed.id}` });
    }
    const unknown = await server.as(demo.seller.token).get('/orders/4000009999999');
    expect(unknown.status).toBe(404);
    expect(errorBody(unknown).status).toBe(404);
    const bad = await server.as(demo.seller.token).get('/orders/12ab');
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toMatch(/^Invalid order id/);
    const anonymous = await server.as(null).get(`/orders/${demoOrders.packed.id}`);
    expect(anonymous.status).toBe(401);
    expect(errorBody(anonymous).status).toBe(401);
  });
});

describe('GET /orders/search: the same shape, page by page', () => {
  it('the seller’s orders carry their lines and buyer names; a page is in id order', async () => {
    const res = await server.as(demo.seller.token).get(`/orders/search?seller=${demo.seller.id}&limit=2&offset=0`);
    expect(res.status).toBe(200);
    expect(res.body.paging).toEqual({ total: 7, offset: 0, limit: 2 });
    expect(res.body.results.map((o: { id: number }) => o.id)).toEqual([demoOrders.packed.id, demoOrders.delivered.id]);
    expect(res.body.results[1]).toMatchObject({
      total_amount: 13998,
      order_items: [{ item: { id: demo.items.yerba, title: 'Yerba mate 1kg' }, quantity: 2, unit_price: 6999, currency_id: 'ARS' }],
      buyer: { first_name: 'Martín', last_name: 'Gómez' },
      shipping: { id: 43000000002, logistic_type: 'self_service' },
    });
    const single = await server.as(demo.seller.token).get(`/orders/${demoOrders.delivered.id}`);
    expect(res.body.results[1]).toEqual(single.body);
  });

  it('the buyer searches as buyer; nobody searches another user’s orders', async () => {
    const mine = await server.as(demo.buyer.token).get(`/orders/search?buyer=${demo.buyer.id}`);
    expect(mine.body.paging.total).toBe(7);
    const theirs = await server.as(demo.other.token).get(`/orders/search?seller=${demo.seller.id}`);
    expect(theirs.status).toBe(403);
    errorBody(theirs);
  });
});

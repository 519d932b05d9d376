import { describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { multiwarehouseListing } from '../support/http-bodies.js';
import { messagingFixtures } from '../support/messages.js';
import { errorBody, startTestServer } from '../support/server.js';
import { serverWithSeller } from '../support/seller.js';

const api = serverWithSeller(() => startTestServer(messagingFixtures()), 'file');
const { seller } = api;
const itemsPath = (user: number | string = demo.seller.id, q = '') => `/users/${user}/items/search${q}`;

describe('GET /users/{user_id}/items/search', () => {
  it("lists the seller's item ids in id order with paging", async () => {
    const res = await seller().get(itemsPath());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      seller_id: String(demo.seller.id),
      query: null,
      paging: { limit: 50, offset: 0, total: 5 },
      results: ['MLA1400000001', 'MLA1400000002', 'MLA1400000003', 'MLA1400000004', 'MLA1400000005'],
    });
  });

  it('pages with limit and offset; each item carries its user_product_id', async () => {
    const page = await seller().get(itemsPath(demo.seller.id, '?limit=2&offset=3'));
    expect(page.body.paging).toEqual({ limit: 2, offset: 3, total: 5 });
    expect(page.body.results).toEqual(['MLA1400000004', 'MLA1400000005']);
    const item = await seller().get(`/items/${page.body.results[0]}`);
    expect(item.body.user_product_id).toBe(demo.userProducts.bombilla);
    const past = await seller().get(itemsPath(demo.seller.id, '?offset=10'));
    expect(past.body).toMatchObject({ paging: { total: 5, offset: 10 }, results: [] });
  });

  it('includes items created afterwards', async () => {
    const created = await seller().post('/items/multiwarehouse', multiwarehouseListing('Termo nuevo'));
    expect(created.status).toBe(201);
    const res = await seller().get(itemsPath(demo.seller.id, '?limit=100'));
    expect(res.body.paging.total).toBe(6);
    expect(res.body.results).toContain(created.body.id);
  });

  it('only the seller lists its items (403), an unknown user is 404, a malformed id 400', async () => {
    const other = await api.server.as(demo.other.token).get(itemsPath());
    expect(other.status).toBe(403);
    errorBody(other);
    const unknown = await seller().get(itemsPath(999999));
    expect(unknown.status).toBe(404);
    errorBody(unknown);
    const bad = await seller().get(itemsPath('12ab'));
    expect(bad.status).toBe(400);
    errorBody(bad);
    expect((await api.server.as(null).get(itemsPath())).status).toBe(401);
  });

  it.each([
    ['?limit=0', 'The limit param must be greater than 0'],
    ['?limit=-3', 'The limit param must be greater than 0'],
    ['?limit=abc', 'Invalid limit param'],
    ['?limit=101', 'Invalid limit param'],
    ['?offset=-1', 'Invalid offset param'],
    ['?offset=x', 'Invalid offset param'],
    ['?limit=1&limit=2', 'Invalid limit param'],
  ])('%s is 400 "%s"', async (q, message) => {
    const res = await seller().get(itemsPath(demo.seller.id, q));
    expect(res.status).toBe(400);
    expect(errorBody(res).message).toBe(message);
  });
});

describe('GET /orders/search', () => {
  it("lists the seller's orders, oldest id first, with paging", async () => {
    const res = await seller().get(`/orders/search?seller=${demo.seller.id}`);
    expect(res.status).toBe(200);
    expect(res.body.paging).toEqual({ total: 14, offset: 0, limit: 50 });
    const ids = res.body.results.map((o: { id: number }) => o.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    // The marketplace's whole order shape is checked in test/http/orders.test.ts.
    expect(res.body.results[0]).toMatchObject({
      id: 2000009000001,
      pack_id: 2000003000001,
      status: 'paid',
      status_date: expect.any(String),
      site_id: 'MLA',
      seller: { id: demo.seller.id },
      buyer: { id: demo.buyer.id },
      logistic_type: 'cross_docking',
      delivered: false,
      mediation_in_process: false,
    });
    const page = await seller().get(`/orders/search?seller=${demo.seller.id}&limit=3&offset=2`);
    expect(page.body.results.map((o: { id: number }) => o.id)).toEqual(ids.slice(2, 5));
  });

  it("lists the buyer's orders with buyer=", async () => {
    const res = await api.server.as(demo.buyer.token).get(`/orders/search?buyer=${demo.buyer.id}&limit=100`);
    expect(res.status).toBe(200);
    expect(res.body.paging.total).toBe(15);
    expect(res.body.results.every((o: { buyer: { id: number } }) => o.buyer.id === demo.buyer.id)).toBe(true);
  });

  it('refuses another user (403), a missing or double role (400), a malformed id (400), bad paging (400)', async () => {
    const other = await seller().get(`/orders/search?seller=${demo.other.id}`);
    expect(other.status).toBe(403);
    errorBody(other);
    const asBuyer = await seller().get(`/orders/search?buyer=${demo.buyer.id}`);
    expect(asBuyer.status).toBe(403);
    const none = await seller().get('/orders/search');
    expect(none.status).toBe(400);
    expect(errorBody(none).message).toBe("The query param 'seller' or 'buyer' is required");
    const both = await seller().get(`/orders/search?seller=${demo.seller.id}&buyer=${demo.buyer.id}`);
    expect(both.status).toBe(400);
    const bad = await seller().get('/orders/search?seller=me');
    expect(bad.status).toBe(400);
    const limit = await seller().get(`/orders/search?seller=${demo.seller.id}&limit=0`);
    expect(errorBody(limit).message).toBe('The limit param must be greater than 0');
    expect((await api.server.as(null).get(`/orders/search?seller=${demo.seller.id}`)).status).toBe(401);
  });

  it('GET /orders/{id} still reads one order', async () => {
    const res = await seller().get('/orders/2000009000001');
    expect(res.status).toBe(200);
    expect(res.body.pack_id).toBe(2000003000001);
  });
});

/**
 * GET /orders/search's filters over HTTP (issue 29): `order.status=cancelled` answered paid orders
 * too, because filters it did not know were dropped. Now the marketplace's documented filters
 * apply (status, date range, sort) and anything else is a 400 in the spec's shape. A real server on
 * 127.0.0.1 over a real SQLite file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureFile } from '../../main/fixtures/schema.js';
import { demo, demoFixtures } from '../support/fixtures.js';
import { demoOrders, orderFixture } from '../support/messages.js';
import { type TestServer, errorBody, startTestServer } from '../support/server.js';

const early = { paid: 4200009000001, cancelled: 4200009000002, lateLocal: 4200009000003 };

function fixtures(): FixtureFile {
  const f = demoFixtures();
  f.orders = [
    ...(f.orders ?? []),
    orderFixture({ id: early.paid, date_created: '2021-05-10T12:00:00Z' }),
    orderFixture({ id: early.cancelled, status: 'cancelled', date_created: '2021-05-11T12:00:00Z' }),
    // 22:00 on 11 May in Buenos Aires: 01:00 on the 12th in UTC.
    orderFixture({ id: early.lateLocal, status: 'cancelled', date_created: '2021-05-11T22:00:00-03:00' }),
  ];
  return f;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(fixtures());
});
afterAll(() => server.close());

const search = (query: string) => server.as(demo.seller.token).get(`/orders/search?seller=${demo.seller.id}&limit=100&${query}`);
const idsOf = (body: { results: { id: number }[] }) => body.results.map((o) => o.id);

describe('GET /orders/search?order.status=', () => {
  it('cancelled answers the cancelled orders only', async () => {
    const res = await search('order.status=cancelled');
    expect(res.status).toBe(200);
    expect(res.body.results.map((o: { status: string }) => o.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(idsOf(res.body)).toEqual([demoOrders.cancelled.id, early.cancelled, early.lateLocal]);
    expect(res.body.paging).toEqual({ total: 3, offset: 0, limit: 100 });
  });

  it('paid leaves the cancelled ones out', async () => {
    const all = await search('');
    const paid = await search('order.status=paid');
    expect(idsOf(paid.body)).toEqual(all.body.results.filter((o: { status: string }) => o.status === 'paid').map((o: { id: number }) => o.id));
    expect(idsOf(paid.body)).not.toContain(demoOrders.cancelled.id);
  });
});

describe('GET /orders/search?order.date_created.from=&order.date_created.to=', () => {
  it('answers the orders created in the range, bounds read with their offset (escaped or not)', async () => {
    const utcDays = await search('order.date_created.from=2021-05-10&order.date_created.to=2021-05-11');
    expect(idsOf(utcDays.body)).toEqual([early.paid, early.cancelled]);
    const local = encodeURIComponent('2021-05-11T23:59:59.999-03:00');
    const localDays = await search(`order.date_created.from=2021-05-10T00:00:00.000-03:00&order.date_created.to=${local}`);
    expect(idsOf(localDays.body)).toEqual([early.paid, early.cancelled, early.lateLocal]);
    // A `+` left unescaped arrives as a space: still read as the offset it was.
    const plus = await search('order.date_created.from=2021-05-11T15:00:00+03:00&order.date_created.to=2021-05-11T15:00:00%2B03:00');
    expect(plus.status).toBe(200);
    expect(idsOf(plus.body)).toEqual([early.cancelled]);
  });
});

describe('GET /orders/search?sort=', () => {
  it('date_desc answers the newest first, date_asc the oldest, and the answer names the sort', async () => {
    const desc = await search('sort=date_desc');
    const asc = await search('sort=date_asc');
    expect(desc.body.sort).toEqual({ id: 'date_desc', name: 'Date descending' });
    expect(asc.body.sort).toEqual({ id: 'date_asc', name: 'Date ascending' });
    const dates = (body: { results: { date_created: string }[] }) => body.results.map((o) => Date.parse(o.date_created));
    expect(dates(desc.body)).toEqual([...dates(desc.body)].sort((a, b) => b - a));
    expect(idsOf(asc.body).slice(0, 3)).toEqual([early.paid, early.cancelled, early.lateLocal]);
    expect(idsOf(desc.body)).toEqual([...idsOf(asc.body)].reverse());
  });

  it('combines with the status and a page', async () => {
    const res = await server.as(demo.seller.token).get(`/orders/search?seller=${demo.seller.id}&order.status=cancelled&sort=date_desc&limit=1&offset=1`);
    expect(res.status).toBe(200);
    // Cancelled, newest first: the demo's (2026), then 11 May 22:00 local, then 11 May 12:00 UTC.
    expect(idsOf(res.body)).toEqual([early.lateLocal]);
    expect(res.body.paging).toEqual({ total: 3, offset: 1, limit: 1 });
  });
});

describe('GET /orders/search: a filter it does not know', () => {
  it.each([
    ['order.statuss=cancelled', "Unknown query param 'order.statuss'"],
    ['order.status=shipped', "Invalid query param 'order.status'"],
    ['order.date_created.from=last-week', "Invalid query param 'order.date_created.from'"],
    ['sort=price_desc', "Invalid query param 'sort'"],
    ['order.status=paid&order.status=cancelled', "Invalid query param 'order.status': a filter takes one value"],
    ['order.date_created.from=2021-05-12&order.date_created.to=2021-05-10', "Invalid query params: 'order.date_created.from' is after"],
  ])('%s is a 400 in the spec’s shape', async (query, message) => {
    const res = await search(query);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = errorBody(res);
    expect(body.error).toBe('bad_request');
    expect(body.message.startsWith(message)).toBe(true);
  });

  it('the pull’s own query (seller, limit, offset) answers as before', async () => {
    const res = await server.as(demo.seller.token).get(`/orders/search?seller=${demo.seller.id}&limit=100&offset=0`);
    expect(res.status).toBe(200);
    expect(res.body.sort).toEqual({ id: 'id_asc', name: 'Order id ascending' });
    expect(idsOf(res.body)).toEqual([...idsOf(res.body)].sort((a, b) => a - b));
  });

  it('without a token it is still 401 first', async () => {
    expect((await server.as(null).get(`/orders/search?seller=${demo.seller.id}&order.foo=1`)).status).toBe(401);
  });
});

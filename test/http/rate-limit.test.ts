/**
 * The rate-limit double (issue 29): the real marketplace's per-application limits
 * (../shared/MARKETPLACE.md), optional, 429 `local_rate_limited` with Retry-After in the spec's
 * error shape. Real servers on 127.0.0.1 over real SQLite files; the buckets run on a fake clock,
 * so refilling is a step of the clock, never a wait. The CLI's own start is in
 * rate-limit-cli.test.ts (a child process: the integration tier).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FixtureFile } from '../../main/fixtures/schema.js';
import { RateLimiter, type RateLimits, describeRateLimits, parseRateLimits, resourceOf } from '../../main/http/rate-limit.js';
import { demo, demoFixtures } from '../support/fixtures.js';
import { demoOrders, manualClock, packPath, sellerSends } from '../support/messages.js';
import { type ApiResponse, type TestServer, errorBody, startTestServer } from '../support/server.js';

/** A second application with its own token for the demo seller: limits are per application. */
const OTHER_APP = { id: 7700000000000001, token: 'APP_USR-7700000000000001-seller' };

function fixtures(): FixtureFile {
  const f = demoFixtures();
  f.applications = [...(f.applications ?? []), { id: OTHER_APP.id, name: 'Another integration' }];
  f.tokens = [...(f.tokens ?? []), { access_token: OTHER_APP.token, user_id: demo.seller.id, application_id: OTHER_APP.id }];
  return f;
}

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serverWith(limits: RateLimits | null) {
  const clock = manualClock();
  const server = await startTestServer(fixtures(), limits === null ? {} : { rateLimit: { limits, clock } });
  servers.push(server);
  return { server, clock };
}

const stockPath = `/user-products/${demo.userProducts.termo}/stock`;

/** `n` requests at once; the statuses in the order sent. */
async function burst(n: number, call: () => Promise<ApiResponse>): Promise<number[]> {
  return (await Promise.all(Array.from({ length: n }, call))).map((r) => r.status);
}
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

/** The refusal of a limit: 429, Retry-After in whole seconds, the spec's error shape. */
function expectLimited(res: ApiResponse, resource: string, retryAfter: number): void {
  expect(res.status).toBe(429);
  expect(res.headers.get('retry-after')).toBe(String(retryAfter));
  const body = errorBody(res);
  expect(body.error).toBe('local_rate_limited');
  expect(body.message).toContain(resource);
  expect(body.cause).toEqual([]);
}

describe('a limit of 100 per minute on stock', () => {
  it('lets 100 through, then answers 429 with Retry-After and the error shape', async () => {
    const { server } = await serverWith({ stock: { requests: 100, per: 'min' } });
    const seller = server.as(demo.seller.token);
    const statuses = await burst(100, () => seller.get(stockPath));
    expect(count(statuses, 200)).toBe(100);
    const refused = await seller.get(stockPath);
    // One request comes back every 600 ms: the next one in 1 s, rounded up.
    expectLimited(refused, 'stock', 1);
    expect(refused.body.message).toBe('Too many requests: stock allows 100 per minute per application');
    // The PUTs are the same resource.
    const put = await seller.put(`${stockPath}/type/seller_warehouse`, { locations: [] }, { 'x-version': '1' });
    expectLimited(put, 'stock', 1);
  });

  it('refills with time: one request per 600 ms, the whole bucket after a minute, never more', async () => {
    const { server, clock } = await serverWith({ stock: { requests: 100, per: 'min' } });
    const seller = server.as(demo.seller.token);
    expect(count(await burst(100, () => seller.get(stockPath)), 200)).toBe(100);
    clock.advance(599);
    expect((await seller.get(stockPath)).status).toBe(429);
    clock.advance(1);
    expect((await seller.get(stockPath)).status).toBe(200);
    expect((await seller.get(stockPath)).status).toBe(429);
    clock.advance(10 * 60_000);
    const after = await burst(101, () => seller.get(stockPath));
    expect(count(after, 200)).toBe(100);
    expect(count(after, 429)).toBe(1);
  });

  it('Retry-After is the wait for the next request in whole seconds, at least 1', async () => {
    const { server, clock } = await serverWith({ stock: { requests: 10, per: 'min' } });
    const seller = server.as(demo.seller.token);
    expect(count(await burst(10, () => seller.get(stockPath)), 200)).toBe(10);
    expectLimited(await seller.get(stockPath), 'stock', 6);
    clock.advance(3_500);
    expectLimited(await seller.get(stockPath), 'stock', 3);
    clock.advance(2_499);
    expectLimited(await seller.get(stockPath), 'stock', 1);
    clock.advance(1);
    expect((await seller.get(stockPath)).status).toBe(200);
  });

  it('counts per application: every token of the app shares it, another app has its own', async () => {
    const { server } = await serverWith({ stock: { requests: 5, per: 's' } });
    expect(count(await burst(5, () => server.as(demo.seller.token).get(stockPath)), 200)).toBe(5);
    // The buyer's token is of the same application: limited too (before its own 403).
    expect((await server.as(demo.buyer.token).get(stockPath)).status).toBe(429);
    const other = await burst(5, () => server.as(OTHER_APP.token).get(stockPath));
    expect(count(other, 200)).toBe(5);
    expect((await server.as(OTHER_APP.token).get(stockPath)).status).toBe(429);
  });

  it('a token it does not know counts on its own, and is refused as before until its limit', async () => {
    const { server } = await serverWith({ stock: { requests: 2, per: 'min' } });
    const stranger = server.as('APP_USR-unknown');
    expect(await burst(2, () => stranger.get(stockPath))).toEqual([401, 401]);
    expect((await stranger.get(stockPath)).status).toBe(429);
    expect((await server.as('APP_USR-another-unknown').get(stockPath)).status).toBe(401);
    expect((await server.as(demo.seller.token).get(stockPath)).status).toBe(200);
  });
});

describe('resources are independent', () => {
  it('stock, message reads and message writes each have their own bucket; other routes none', async () => {
    const { server } = await serverWith({
      stock: { requests: 1, per: 'min' },
      'messages-read': { requests: 2, per: 'min' },
      'messages-write': { requests: 1, per: 'min' },
    });
    const seller = server.as(demo.seller.token);
    const pack = packPath(demoOrders.packed.pack);
    expect((await seller.get(stockPath)).status).toBe(200);
    expect((await seller.get(stockPath)).status).toBe(429);
    // Reads of messages are not stock.
    expect(await burst(2, () => seller.get(`${pack}?mark_as_read=false`))).toEqual([200, 200]);
    expectLimited(await seller.get(`${pack}?mark_as_read=false`), 'messages-read', 30);
    // Writes are not reads: one send goes through, the next is refused before anything is stored.
    expect((await sellerSends(seller, demoOrders.packed.pack, 'Ya lo despachamos')).status).toBe(201);
    const refused = await sellerSends(seller, demoOrders.packed.pack, 'Llega el lunes');
    expectLimited(refused, 'messages-write', 60);
    const stored = server.db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM messages WHERE text = ?').get('Llega el lunes')!;
    expect(stored.n).toBe(0);
    // A route with no limit of the marketplace's is never counted.
    expect(await burst(20, () => seller.get(`/users/${demo.seller.id}`))).toEqual(Array.from({ length: 20 }, () => 200));
    expect((await seller.get(`/orders/${demoOrders.packed.id}`)).status).toBe(200);
  });

  it('a resource without a limit is not limited when others are', async () => {
    const { server } = await serverWith({ 'messages-write': { requests: 1, per: 'min' } });
    const seller = server.as(demo.seller.token);
    expect(count(await burst(150, () => seller.get(stockPath)), 200)).toBe(150);
  });
});

describe('without --rate-limit', () => {
  it('nothing is limited', async () => {
    const { server } = await serverWith(null);
    const seller = server.as(demo.seller.token);
    const statuses = await burst(150, () => seller.get(stockPath));
    expect(count(statuses, 200)).toBe(150);
    const pack = packPath(demoOrders.packed.pack);
    expect(count(await burst(50, () => seller.get(`${pack}?mark_as_read=false`)), 200)).toBe(50);
  });
});

describe('RateLimiter', () => {
  it('remembers a bounded number of clients; one forgotten starts full again', () => {
    const clock = manualClock();
    const limiter = new RateLimiter({ stock: { requests: 1, per: 'min' } }, clock, 3);
    for (let i = 0; i < 1000; i++) limiter.take('stock', { token: `t${i}` });
    expect(limiter.size).toBe(3);
    expect(limiter.take('stock', { token: 't999' })).toBe(60);
    // t0 was pushed out long ago: a fresh bucket.
    expect(limiter.take('stock', { token: 't0' })).toBeNull();
  });

  it('made-up tokens cannot push an application out of its limit', () => {
    const clock = manualClock();
    const limiter = new RateLimiter({ stock: { requests: 1, per: 'min' } }, clock, 3);
    expect(limiter.take('stock', { app: 1 })).toBeNull();
    for (let i = 0; i < 1000; i++) limiter.take('stock', { token: `t${i}` });
    expect(limiter.take('stock', { app: 1 })).toBe(60);
  });

  it('a clock set back refills nothing', () => {
    const clock = manualClock();
    const limiter = new RateLimiter({ stock: { requests: 2, per: 's' } }, clock);
    expect(limiter.take('stock', { app: 1 })).toBeNull();
    expect(limiter.take('stock', { app: 1 })).toBeNull();
    clock.advance(-5_000);
    expect(limiter.take('stock', { app: 1 })).toBe(1);
  });
});

describe('resourceOf: which routes count', () => {
  it.each([
    ['GET', '/user-products/:user_product_id/stock', 'stock'],
    ['PUT', '/user-products/:user_product_id/stock/type/:type', 'stock'],
    ['GET', '/messages/packs/:pack_id/sellers/:user_id', 'messages-read'],
    ['GET', '/messages/:message_id', 'messages-read'],
    ['HEAD', '/messages/attachments/:attachment_id', 'messages-read'],
    ['POST', '/messages/packs/:pack_id/sellers/:user_id', 'messages-write'],
    ['POST', '/messages/attachments', 'messages-write'],
    ['PUT', '/items/:item_id', null],
    ['GET', '/orders/search', null],
    ['GET', undefined, null],
  ])('%s %s → %s', (method, route, resource) => {
    expect(resourceOf(method, route)).toBe(resource);
  });
});

describe('parseRateLimits: the flag and STOCKROOM_RATE_LIMIT', () => {
  it('reads resource=N/min and resource=N/s, comma-separated', () => {
    const limits = parseRateLimits('stock=100/min, messages-write=500/min,messages-read=20/s');
    expect(limits).toEqual({
      stock: { requests: 100, per: 'min' },
      'messages-write': { requests: 500, per: 'min' },
      'messages-read': { requests: 20, per: 's' },
    });
    expect(describeRateLimits(limits)).toBe('stock=100/min,messages-read=20/s,messages-write=500/min');
  });

  it.each([
    ['', "--rate-limit: '' is not resource=N/min or resource=N/s"],
    ['stock', "--rate-limit: 'stock' is not resource=N/min"],
    ['stock=100', "--rate-limit: 'stock=100' is not resource=N/min"],
    ['stock=100/hour', "--rate-limit: 'stock=100/hour' is not resource=N/min"],
    ['stock=1.5/s', "--rate-limit: 'stock=1.5/s' is not resource=N/min"],
    ['stock=-1/s', "--rate-limit: 'stock=-1/s' is not resource=N/min"],
    ['stock=0/min', '--rate-limit: stock must allow 1 to 1000000 requests, got 0'],
    ['stock=2000000/min', '--rate-limit: stock must allow 1 to 1000000 requests, got 2000000'],
    ['stock=10000000/min', "--rate-limit: 'stock=10000000/min' is not resource=N/min"],
    ['orders=10/s', "--rate-limit: unknown resource 'orders' (one of stock, messages-read, messages-write)"],
    ['stock=1/s,stock=2/s', '--rate-limit: stock is given twice'],
    ['stock=1/s,', "--rate-limit: '' is not resource=N/min"],
  ])('refuses %j in one line', (text, message) => {
    expect(() => parseRateLimits(text)).toThrow(message);
    expect(() => parseRateLimits(text)).toThrow(/^[^\n]+$/);
  });

  it('names the variable when the limits come from it', () => {
    expect(() => parseRateLimits('stock=fast', 'STOCKROOM_RATE_LIMIT')).toThrow("STOCKROOM_RATE_LIMIT: 'stock=fast' is not");
  });
});

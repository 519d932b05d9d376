import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { type TestServer, errorBody, startTestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const termoPut = `/user-products/${demo.userProducts.termo}/stock/type/seller_warehouse`;
const snapshot = () =>
  JSON.stringify(server.db.prepare('SELECT * FROM stock_locations ORDER BY user_product_id, type, store_key').all()) +
  JSON.stringify(server.db.prepare('SELECT id, version FROM user_products ORDER BY id').safeIntegers(true).all(), (_k, v) =>
    typeof v === 'bigint' ? v.toString() : v,
  );

describe('bad input never crashes, never 500s, never changes anything', () => {
  it('malformed JSON, wrong content type, oversized and poisoned bodies get 4xx in the spec shape', async () => {
    const before = snapshot();
    const seller = server.as(demo.seller.token);
    const cases: [string, Record<string, string>, string | Uint8Array][] = [
      ['malformed json', { 'content-type': 'application/json', 'x-version': '1' }, '{"locations": [ {"store_id": "64712", '],
      ['empty json body', { 'content-type': 'application/json', 'x-version': '1' }, ''],
      ['text body', { 'content-type': 'text/plain', 'x-version': '1' }, 'locations=1'],
      ['proto poisoning', { 'content-type': 'application/json', 'x-version': '1' }, '{"__proto__": {"admin": true}, "locations": []}'],
      ['constructor poisoning', { 'content-type': 'application/json', 'x-version': '1' }, '{"constructor": {"prototype": {"x": 1}}}'],
      [
        '2 MB body',
        { 'content-type': 'application/json', 'x-version': '1' },
        JSON.stringify({ locations: [{ store_id: '64712', quantity: 1, pad: 'x'.repeat(2 * 1024 * 1024) }] }),
      ],
      ['json array', { 'content-type': 'application/json', 'x-version': '1' }, '[1,2,3]'],
      ['json null', { 'content-type': 'application/json', 'x-version': '1' }, 'null'],
    ];
    for (const [name, headers, raw] of cases) {
      const res = await seller.raw('PUT', termoPut, { raw, headers });
      const body = errorBody(res);
      expect(body.status, name).toBeGreaterThanOrEqual(400);
      expect(body.status, name).toBeLessThan(500);
    }
    const tooBig = await seller.raw('PUT', termoPut, { raw: cases[5]![2], headers: cases[5]![1] });
    expect(tooBig.status).toBe(413);
    expect(snapshot()).toBe(before);
  });

  it('ids with letters, huge numbers and odd characters are 4xx', async () => {
    const seller = server.as(demo.seller.token);
    for (const path of [
      '/messages/%E0%A4%A',
      '/users/%E0%A4%A/stores/search',
      '/users/abc',
      '/users/1e5',
      '/users/99999999999999999999',
      '/users/-1/stores/search',
      '/user-products/%00/stock',
      `/user-products/${'A'.repeat(100)}/stock`,
      '/items/123',
    ]) {
      const res = await seller.get(path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      errorBody(res);
    }
  });

  it('property: any JSON body to the stock PUT is answered 200 or 4xx, and a 4xx changes nothing', async () => {
    const location = fc.record(
      {
        store_id: fc.oneof(fc.constantFrom('64712', '64713', '64714', '77001', '', '0'), fc.string(), fc.constant(null), fc.integer()),
        network_node_id: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
        quantity: fc.oneof(fc.integer({ min: -5, max: 2_000_000 }), fc.double(), fc.string(), fc.constant(null), fc.bigInt().map(String)),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(fc.record({ locations: fc.oneof(fc.array(location, { maxLength: 4 }), fc.anything()) }, { requiredKeys: [] }), fc.jsonValue());
    const version = fc.oneof(fc.constant(undefined), fc.constantFrom('1', '0', '-1', 'x', '1.0', ' 1 ', '18446744073709551616'));
    await fc.assert(
      fc.asyncProperty(body, version, async (b, v) => {
        const before = snapshot();
        const seller = server.as(demo.seller.token);
        const stock = await seller.get(`/user-products/${demo.userProducts.termo}/stock`);
        const current = stock.headers.get('x-version')!;
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (v !== undefined) headers['x-version'] = v === '1' ? current : v;
        const res = await seller.raw('PUT', termoPut, { raw: JSON.stringify(b) ?? 'null', headers });
        if (res.status === 200) return;
        const err = errorBody(res);
        expect(err.status).toBeGreaterThanOrEqual(400);
        expect(err.status).toBeLessThan(500);
        expect(snapshot()).toBe(before);
      }),
      { numRuns: 150 },
    );
  });
});

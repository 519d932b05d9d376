import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/fixtures.js';
import { type ChildServer, spawnServer } from '../../support/process.js';
import { type TestServer, client, startTestServer } from '../../support/server.js';

const put = (url: string, version: string, quantity: number) =>
  client(url, demo.seller.token).put(
    `/user-products/${demo.userProducts.termo}/stock/type/seller_warehouse`,
    { locations: [{ store_id: demo.stores.palermo, quantity }] },
    { 'x-version': version },
  );

describe('compare-and-set under concurrency', () => {
  let a: TestServer;
  let b: ChildServer;
  beforeAll(async () => {
    a = await startTestServer();
    // A second server in its own process over the same SQLite file: a real cross-process race.
    b = await spawnServer(['--port', '0', '--data', a.dir]);
  });
  afterAll(async () => {
    await b.stop();
    await a.close();
  });

  it('of 40 writers sending the same version through two processes, exactly one wins', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => put(i % 2 ? a.url : b.url, '1', 100 + i)));
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(39);
    const stock = await a.as(demo.seller.token).get(`/user-products/${demo.userProducts.termo}/stock`);
    expect(stock.headers.get('x-version')).toBe('2');
    expect(stock.body.locations[0].quantity).toBe(winners[0]!.body.locations[0].quantity);
  });

  it('read-modify-write loops that retry on 409 apply every increment exactly once', async () => {
    const start = await a.as(demo.seller.token).get(`/user-products/${demo.userProducts.termo}/stock`);
    const startQty: number = start.body.locations[0].quantity;
    const startVersion = BigInt(start.headers.get('x-version')!);
    const writers = 8;
    const incrementsEach = 5;
    let conflicts = 0;
    async function writer(url: string) {
      const c = client(url, demo.seller.token);
      for (let done = 0; done < incrementsEach;) {
        const cur = await c.get(`/user-products/${demo.userProducts.termo}/stock`);
        const res = await put(url, cur.headers.get('x-version')!, cur.body.locations[0].quantity + 1);
        if (res.status === 200) done++;
        else if (res.status === 409) conflicts++;
        else throw new Error(`unexpected ${res.status}`);
      }
    }
    await Promise.all(Array.from({ length: writers }, (_, i) => writer(i % 2 ? a.url : b.url)));
    const end = await a.as(demo.seller.token).get(`/user-products/${demo.userProducts.termo}/stock`);
    expect(end.body.locations[0].quantity).toBe(startQty + writers * incrementsEach);
    expect(BigInt(end.headers.get('x-version')!)).toBe(startVersion + BigInt(writers * incrementsEach));
    // The race is real: with 8 writers some reads went stale.
    expect(conflicts).toBeGreaterThan(0);
  });
});

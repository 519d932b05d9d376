import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../main/sync/engine.js';
import { cellView, history } from '../../main/sync/read-model.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { demo, demoFixtures } from '../support/fixtures.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { type Replica, newEngine, newReplica, syncMarket } from '../support/sync-harness.js';

let server: TestServer;
let proxy: FaultProxy;
let replica: Replica;
let engine: SyncEngine;
const count = (sql: string, ...args: unknown[]) => (replica.db.prepare(sql).get(...args) as { n: number }).n;

afterEach(async () => {
  await engine.stop();
  await proxy.close();
  await server.close();
  replica.remove();
});

describe('pull of the demo seller', () => {
  beforeEach(async () => {
    server = await startTestServer();
    proxy = await startFaultProxy(server.url);
    replica = newReplica();
    engine = newEngine(replica, { url: proxy.url, token: demo.seller.token, sellerId: demo.seller.id });
    engine.start();
  });

  it('fills the mirror: user, stores, items, stock with versions, orders, packs and messages', async () => {
    const report = await engine.pullNow();
    expect(report).toMatchObject({ stores: 3, items: { total: 5, fetched: 5 }, stock: { read: 5, changed: 5 }, orders: 5, messages: { new: 3 } });
    expect(count('SELECT count(*) AS n FROM users WHERE id = ?', demo.seller.id)).toBe(1);
    expect(count('SELECT count(*) AS n FROM stores')).toBe(3);
    expect(replica.db.prepare('SELECT id, CAST(version AS TEXT) AS version FROM user_products ORDER BY id').all()).toEqual([
      { id: demo.userProducts.termo, version: '1' },
      { id: demo.userProducts.mate, version: '4' },
      { id: demo.userProducts.yerba, version: '1' },
      { id: demo.userProducts.bombilla, version: '2' },
      { id: demo.userProducts.canasta, version: '1' },
    ]);
    expect(replica.db.prepare('SELECT user_product_id FROM items WHERE id = ?').get(demo.items.mate)).toEqual({ user_product_id: demo.userProducts.mate });
    expect(count('SELECT count(*) AS n FROM orders')).toBe(5);
    // Pulling never marks anything read on the remote.
    const unread = server.db.prepare('SELECT count(*) AS n FROM messages WHERE date_read IS NULL').get() as { n: number };
    expect(unread.n).toBeGreaterThan(0);
    expect(engine.status().lastPullAt).not.toBeNull();
  });

  it('a second pull with nothing new writes nothing; a remote change shows up as synced history', async () => {
    await engine.pullNow();
    const again = await engine.pullNow();
    expect(again).toMatchObject({ items: { fetched: 0 }, stock: { changed: 0 }, messages: { new: 0, updated: 0 } });
    const cur = await server.as(demo.seller.token).get(`/user-products/${demo.userProducts.termo}/stock`);
    await server
      .as(demo.seller.token)
      .put(
        `/user-products/${demo.userProducts.termo}/stock/type/seller_warehouse`,
        { locations: [{ store_id: demo.stores.avellaneda, quantity: 25 }] },
        { 'x-version': cur.headers.get('x-version')! },
      );
    const third = await engine.pullNow();
    expect(third.stock.changed).toBe(1);
    const ref = { userProductId: demo.userProducts.termo, type: 'seller_warehouse' as const, storeKey: demo.stores.avellaneda };
    expect(cellView(replica.db, ref)).toMatchObject({ remote: { quantity: 25, version: '2' }, state: 'synced' });
    expect(history(replica.db, ref)[0]).toMatchObject({ kind: 'synced', author: 'marketplace', from_quantity: 30, to_quantity: 25 });
  });

  it('reads go again on transient failures; an unreachable remote makes the engine offline', async () => {
    proxy.inject('error500', 2, (m) => m === 'GET');
    proxy.inject('drop', 1, (m) => m === 'GET');
    await expect(engine.pullNow()).resolves.toMatchObject({ stores: 3 });
    const offline: string[] = [];
    engine.on('offline', (r) => offline.push(r));
    await proxy.goOffline();
    await expect(engine.pullNow()).rejects.toThrow(/unreachable/);
    expect(offline).toHaveLength(1);
    expect(engine.status().online).toBe(false);
    const online = new Promise<void>((r) => engine.once('online', r));
    await proxy.goOnline();
    await online;
    expect(engine.status().online).toBe(true);
  });
});

describe('pull of a brand seller', () => {
  it('mirrors the brands linked to the user (list and detail)', async () => {
    server = await startTestServer(demoFixtures());
    proxy = await startFaultProxy(server.url);
    replica = newReplica();
    engine = newEngine(replica, { url: proxy.url, token: demo.brand.token, sellerId: demo.brand.id });
    engine.start();
    const report = await engine.pullNow();
    expect(report.brands).toBeGreaterThan(0);
    const remote = await server.as(demo.brand.token).get(`/users/${demo.brand.id}/brands`);
    const ids = (remote.body.brands as { official_store_id: number }[]).map((b) => b.official_store_id);
    expect(
      replica.db
        .prepare('SELECT official_store_id FROM brands ORDER BY official_store_id')
        .all()
        .map((r) => (r as { official_store_id: number }).official_store_id),
    ).toEqual(ids);
    // The same service code reads the mirror back in the API's shape.
    const { brandsService } = await import('../../main/service/brands/brands.js');
    const { brandsRepo } = await import('../../main/db/repos/brands.js');
    const { usersRepo } = await import('../../main/db/repos/users.js');
    const local = brandsService(replica.db, brandsRepo(replica.db), usersRepo(replica.db)).list(
      { userId: demo.brand.id, applicationId: demo.app },
      String(demo.brand.id),
    );
    expect(local).toEqual(remote.body);
  });
});

describe('a large catalogue', () => {
  it('reads stock in round-robin windows and leaves products with a request on the wire alone', async () => {
    const market = syncMarket({ products: 30, stores: 1 });
    server = await startTestServer(market.fixtures);
    proxy = await startFaultProxy(server.url);
    replica = newReplica();
    engine = newEngine(replica, { url: proxy.url, token: market.token, sellerId: market.sellerId }, { stockBatch: 10 });
    engine.start();
    const first = await engine.pullNow();
    expect(first.stock.read).toBe(30);
    const stockReads = () => proxy.log.filter((l) => l.method === 'GET' && l.path.includes('/stock')).map((l) => l.path.split('/')[2]);
    const before = stockReads().length;
    await engine.pullNow();
    await engine.pullNow();
    await engine.pullNow();
    const windows = stockReads().slice(before);
    expect(windows).toHaveLength(30);
    expect(new Set(windows).size).toBe(30);
    // A product whose edit is on the wire (outcome unknown) is not overwritten by a pull: the proxy
    // holds the PUT until the pull is over, however long the pull takes.
    const up = market.products[0]!;
    const put = proxy.hold((method, path) => method === 'PUT' && path.startsWith(`/user-products/${up}/`));
    engine.queueAdjustment({ userProductId: up, type: 'seller_warehouse', storeId: market.stores[0]!, delta: 1 });
    await put.arrived;
    expect(engine.status().inFlight).toBe(1);
    const report = await engine.pullNow();
    expect(report.stock.skipped).toBe(1);
    expect(proxy.log.filter((l) => l.method === 'PUT').map((l) => [l.held, l.forwarded])).toEqual([[true, false]]);
    put.release();
    await engine.drain();
    expect(proxy.log.filter((l) => l.method === 'PUT').map((l) => [l.held, l.forwarded, l.status])).toEqual([[true, true, 200]]);
    expect(cellView(replica.db, { userProductId: up, type: 'seller_warehouse', storeKey: market.stores[0]! })).toMatchObject({
      remote: { quantity: 11, version: '2' },
      state: 'synced',
    });
    // Offline mode means no requests at all, pulls included.
    engine.setMode('offline');
    await expect(engine.pullNow()).rejects.toThrow(/Offline mode/);
  });
});

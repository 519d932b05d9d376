import { afterEach, describe, expect, it } from 'vitest';
import { mirrorRepo } from '../../main/db/repos/mirror.js';
import type { SyncEngine } from '../../main/sync/engine.js';
import { cellView, history } from '../../main/sync/read-model.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { type Replica, newEngine, newReplica, syncMarket } from '../support/sync-harness.js';

let server: TestServer | undefined;
let proxy: FaultProxy | undefined;
let replica: Replica | undefined;
let engine: SyncEngine | undefined;

afterEach(async () => {
  await engine?.stop();
  await proxy?.close();
  await server?.close();
  replica?.remove();
  engine = proxy = server = replica = undefined;
});

const rows = (sql: string, ...args: unknown[]) => replica!.db.prepare(sql).all(...args);

describe('a first pull of a catalogue over several pages', () => {
  it('reads every page of item ids once (the later ones side by side), each item and its stock, in chunks', async () => {
    const market = syncMarket({ products: 250, stores: 3 });
    server = await startTestServer(market.fixtures);
    proxy = await startFaultProxy(server.url);
    replica = newReplica();
    engine = newEngine(replica, { url: proxy.url, token: market.token, sellerId: market.sellerId });
    engine.start();

    const report = await engine.pullNow();
    expect(report).toMatchObject({ items: { total: 250, fetched: 250 }, stock: { read: 250, changed: 250, skipped: 0 } });
    const pages = proxy.log.filter((l) => l.path.includes('/items/search')).map((l) => new URL(l.path, 'http://x').searchParams.get('offset'));
    expect(pages.sort()).toEqual(['0', '100', '200']);
    expect(rows('SELECT count(*) AS n FROM items')).toEqual([{ n: 250 }]);
    expect(rows('SELECT user_product_id AS id FROM items ORDER BY id').map((r) => (r as { id: string }).id)).toEqual([...market.products].sort());
    // Every location in the order the remote answered it, numbered from 0.
    const cells = rows('SELECT store_key, position, quantity FROM stock_locations WHERE user_product_id = ? ORDER BY position', market.products[7]);
    expect(cells).toEqual(market.stores.map((store, position) => ({ store_key: store, position, quantity: market.quantity })));
    expect(rows('SELECT count(*) AS n FROM stock_locations')).toEqual([{ n: 750 }]);
    // A first pull is no change of a known value: no history rows.
    expect(rows(`SELECT count(*) AS n FROM sync_cell_history WHERE kind = 'synced'`)).toEqual([{ n: 0 }]);

    // A remote change of a product now known shows up as synced history, as before.
    const up = market.products[3]!;
    const cur = await server.as(market.token).get(`/user-products/${up}/stock`);
    await server
      .as(market.token)
      .put(
        `/user-products/${up}/stock/type/seller_warehouse`,
        { locations: [{ store_id: market.stores[1], quantity: 4 }] },
        { 'x-version': cur.headers.get('x-version')! },
      );
    const again = await engine.pullNow();
    expect(again).toMatchObject({ items: { total: 250, fetched: 0 }, stock: { changed: 1 } });
    const ref = { userProductId: up, type: 'seller_warehouse' as const, storeKey: market.stores[1]! };
    expect(cellView(replica.db, ref)).toMatchObject({ remote: { quantity: 4, version: '2' }, state: 'synced' });
    expect(history(replica.db, ref)[0]).toMatchObject({ kind: 'synced', from_quantity: market.quantity, to_quantity: 4 });
  });
});

describe('the mirror’s stock snapshot write', () => {
  it('numbers locations in the answer’s order, a repeated location updating the first, and replaces a known product’s', () => {
    replica = newReplica();
    const db = replica.db;
    db.prepare(
      `INSERT INTO users (id, nickname, registration_date, first_name, last_name, country_id, site_id) VALUES (1, 'S', '2020-01-01', 'S', 'S', 'AR', 'MLA')`,
    ).run();
    const mirror = mirrorRepo(db);
    const cells = () =>
      rows(`SELECT type, store_key, network_node_id, quantity, position FROM stock_locations WHERE user_product_id = 'UP1' ORDER BY position`);
    db.transaction(() =>
      mirror.replaceStock(
        'UP1',
        1,
        1n,
        [
          { type: 'seller_warehouse', store_id: 'A', network_node_id: 'NA', quantity: 1 },
          { type: 'selling_address', quantity: 2 },
          { type: 'seller_warehouse', store_id: 'A', quantity: 3 },
          { type: 'seller_warehouse', store_id: 'B', network_node_id: 'NB', quantity: 4 },
        ],
        false,
      ),
    )();
    expect(cells()).toEqual([
      { type: 'seller_warehouse', store_key: 'A', network_node_id: 'NA', quantity: 3, position: 0 },
      { type: 'selling_address', store_key: '', network_node_id: null, quantity: 2, position: 1 },
      { type: 'seller_warehouse', store_key: 'B', network_node_id: 'NB', quantity: 4, position: 2 },
    ]);
    // A known product: its old locations go, the new ones are numbered from 0 again.
    const many = Array.from({ length: 70 }, (_, i) => ({ type: 'seller_warehouse' as const, store_id: `S${String(i).padStart(2, '0')}`, quantity: i }));
    db.transaction(() => mirror.replaceStock('UP1', 1, 2n, many))();
    expect(cells()).toEqual(many.map((l, position) => ({ type: l.type, store_key: l.store_id, network_node_id: null, quantity: l.quantity, position })));
    expect(mirror.product('UP1')?.version).toBe(2n);
    expect(mirror.productExists('UP1')).toBe(true);
    expect(mirror.productExists('UP2')).toBe(false);
  });
});

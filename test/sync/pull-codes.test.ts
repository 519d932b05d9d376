import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { locate } from '../../main/desktop/grid.js';
import type { SyncEngine } from '../../main/sync/engine.js';
import { demo } from '../support/fixtures.js';
import { multiwarehouseListing } from '../support/http-bodies.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { type Replica, newEngine, newReplica } from '../support/sync-harness.js';

/**
 * Issue 14 §2 online: the pull mirrors each item's codes (GTIN and SELLER_SKU attributes,
 * seller_custom_field, inventory id) from a real remote into the replica, so a scan finds the same
 * product online as on the local demo data.
 */
let server: TestServer;
let replica: Replica;
let engine: SyncEngine;
const find = (search: string) => locate(replica.db, demo.seller.id, { search });

beforeEach(async () => {
  server = await startTestServer();
  replica = newReplica();
  engine = newEngine(replica, { url: server.url, token: demo.seller.token, sellerId: demo.seller.id });
  engine.start();
});
afterEach(async () => {
  await engine.stop();
  await server.close();
  replica.remove();
});

describe('codes in the replica', () => {
  it('arrive with the pull: a barcode, a SKU, the seller’s own code and an inventory id find their product', async () => {
    expect(find('7790001234565').userProductId).toBeNull();
    await engine.pullNow();
    const termo = demo.userProducts.termo;
    expect(find('7790001234565')).toMatchObject({ userProductId: termo, matchedBy: 'gtin', title: 'Termo acero inoxidable 1L' });
    expect(find('TERM-1L')).toMatchObject({ userProductId: termo, matchedBy: 'seller_sku' });
    expect(find('norte-termo-01')).toMatchObject({ userProductId: termo, matchedBy: 'seller_sku' });
    // "Nothing matches" online before issue 14: the replica had no inventory ids.
    expect(find('TERM0001')).toMatchObject({ userProductId: termo, matchedBy: 'inventory' });
    expect(find('00123457')).toMatchObject({ userProductId: demo.userProducts.bombilla, matchedBy: 'gtin' });
    expect(replica.db.prepare('SELECT inventory_id FROM items WHERE id = ?').get(demo.items.canasta)).toEqual({ inventory_id: 'CANA0005' });
  });

  it('a listing made on the marketplace later brings its attributes', async () => {
    await engine.pullNow();
    const created = await server.as(demo.seller.token).post(
      '/items/multiwarehouse',
      multiwarehouseListing('Termo 500 ml', {
        attributes: [
          { id: 'GTIN', value_name: '7790001239997' },
          { id: 'SELLER_SKU', value_name: 'TERM-500' },
        ],
        seller_custom_field: 'NORTE-T500',
      }),
    );
    expect(created.status).toBe(201);
    expect(find('7790001239997').userProductId).toBeNull();
    const report = await engine.pullNow();
    expect(report.items).toEqual({ total: 6, fetched: 1 });
    const up = (created.body as { user_product_id: string }).user_product_id;
    expect(find('7790001239997')).toMatchObject({ userProductId: up, matchedBy: 'gtin', title: 'Termo 500 ml' });
    expect(find('term-500')).toMatchObject({ userProductId: up, matchedBy: 'seller_sku' });
    expect(find('NORTE-T500')).toMatchObject({ userProductId: up, matchedBy: 'seller_sku' });
  });

  it('a replica mirrored before codes existed reads its items once more, then only new ones', async () => {
    await engine.pullNow();
    // What a replica pulled by an older version holds: items without attributes or inventory id.
    replica.db.prepare(`UPDATE items SET attributes = '{}', inventory_id = NULL, logistic_type = 'unknown', local_delivery = 0`).run();
    replica.db.prepare(`DELETE FROM sync_state WHERE key = 'item_facts_read'`).run();
    expect(find('TERM-1L').userProductId).toBeNull();

    const upgrade = await engine.pullNow();
    expect(upgrade.items).toEqual({ total: 5, fetched: 5 });
    expect(find('TERM-1L')).toMatchObject({ userProductId: demo.userProducts.termo });
    // Shipping too (issue 14 §7: the selling-address locks).
    expect(replica.db.prepare('SELECT logistic_type, local_delivery FROM items WHERE id = ?').get(demo.items.bombilla)).toEqual({
      logistic_type: 'fulfillment',
      local_delivery: 1,
    });
    const again = await engine.pullNow();
    expect(again.items).toEqual({ total: 5, fetched: 0 });
  });
});

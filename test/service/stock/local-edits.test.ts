import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../main/db/open.js';
import { historyRepo } from '../../../main/db/repos/history.js';
import { loadFixtures, parseFixtures } from '../../../main/fixtures/load.js';
import { type Service, createService } from '../../../main/service/index.js';
import { PROPAGATE_SELLING_ADDRESS } from '../../../main/service/stock/stock.js';
import { cellKey } from '../../../main/service/stock/cells.js';
import { demo, demoFixtures } from '../../support/fixtures.js';

/**
 * Stock edits where the embedded service is the marketplace (the desktop's local-only profile):
 * one write with the HTTP PUTs' rules, its history row and its job, on a real SQLite file.
 */
let dir: string;
let db: Db;
let service: Service;
const seller = { userId: demo.seller.id, applicationId: demo.app };
const termo = demo.userProducts.termo;
const mate = demo.userProducts.mate;
const author = { author: 'ana' };

const quantities = (up: string) =>
  Object.fromEntries(
    db
      .prepare<[string], { type: string; store_key: string; quantity: number }>(
        'SELECT type, store_key, quantity FROM stock_locations WHERE user_product_id = ?',
      )
      .all(up)
      .map((l) => [`${l.type}|${l.store_key}`, l.quantity]),
  );
const version = (up: string) => db.prepare<[string], { v: string }>('SELECT CAST(version AS TEXT) AS v FROM user_products WHERE id = ?').get(up)!.v;
const jobs = () => db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM jobs WHERE kind = ? AND state = 'pending'").get(PROPAGATE_SELLING_ADDRESS)!.n;
const itemQuantity = (id: string) => db.prepare<[string], { q: number }>('SELECT available_quantity AS q FROM items WHERE id = ?').get(id)!.q;
const historyOf = (up: string, type: string, store = '') => historyRepo(db).of(cellKey(up, type, store), 50);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stockroom-local-edits-'));
  db = openDatabase(join(dir, 'local.db'));
  loadFixtures(db, parseFixtures(demoFixtures()));
  // The job runner is not started: the tests look at what each edit left in the database.
  service = createService(db, { attachmentsDir: join(dir, 'files') });
});
afterEach(async () => {
  await service.stop();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('local stock edits', () => {
  it('an adjustment of a store: quantity, version and history row together', async () => {
    const r = await service.localEdits.edit(
      seller,
      { userProductId: termo, type: 'seller_warehouse', storeId: demo.stores.palermo },
      { delta: 5 },
      { ...author, ref: 'scan-1' },
    );
    expect(r).toMatchObject({ shown: 17, version: 2n });
    expect(quantities(termo)[`seller_warehouse|${demo.stores.palermo}`]).toBe(17);
    expect(version(termo)).toBe('2');
    expect(historyOf(termo, 'seller_warehouse', demo.stores.palermo)).toMatchObject([
      { id: r.historyId, kind: 'adjustment', author: 'ana', from_quantity: 12, to_quantity: 17, delta: 5, ref: 'scan-1', entry_id: null },
    ]);
  });

  it('a count of the selling address writes its items job in the same transaction', async () => {
    const before = jobs();
    await service.localEdits.edit(seller, { userProductId: mate, type: 'selling_address' }, { quantity: 9 }, author);
    expect(quantities(mate)['selling_address|']).toBe(9);
    // Committed with the edit, before anything ran it.
    expect(jobs()).toBe(before + 1);
    await service.jobs.drain();
    expect(itemQuantity(demo.items.mate)).toBe(9);
    expect(historyOf(mate, 'selling_address')[0]).toMatchObject({ kind: 'count', from_quantity: 5, to_quantity: 9, delta: null });
  });

  it.each([
    [
      { userProductId: demo.userProducts.bombilla, type: 'selling_address' },
      { quantity: 1 },
      'You cannot modify selling address stock in items without inventory id.',
    ],
    [{ userProductId: demo.userProducts.yerba, type: 'selling_address' }, { quantity: 1 }, /fulfillment only or no items/],
    [
      { userProductId: termo, type: 'seller_warehouse', storeId: demo.stores.palermo },
      { delta: -13 },
      'The adjustment of -13 would take the stock below 0 (it shows 12)',
    ],
    [{ userProductId: termo, type: 'seller_warehouse', storeId: demo.stores.palermo }, { quantity: 1_000_001 }, 'A count is an integer from 0 to 1000000'],
    [{ userProductId: termo, type: 'seller_warehouse', storeId: demo.stores.showroom }, { delta: 1 }, 'Store is not configured to be a stock location'],
    [
      { userProductId: termo, type: 'seller_warehouse', storeId: demo.stores.otherSellers },
      { delta: 1 },
      `Store does not belong to seller: ${demo.stores.otherSellers}`,
    ],
    [{ userProductId: termo, type: 'selling_address' }, { quantity: 1 }, /cannot hold selling_address and seller_warehouse/],
    [{ userProductId: termo, type: 'platform_facility' }, { quantity: 1 }, 'Stock of type platform_facility is managed by the platform and cannot be edited'],
    [
      { userProductId: demo.userProducts.otherSellers, type: 'seller_warehouse', storeId: demo.stores.palermo },
      { delta: 1 },
      `Access denied for user ${demo.seller.id} to user product ${demo.userProducts.otherSellers}`,
    ],
    [{ userProductId: 'MLAU999', type: 'seller_warehouse', storeId: demo.stores.palermo }, { delta: 1 }, 'User product not found: MLAU999'],
  ] as const)('refuses %j %j as the marketplace would, changing nothing', async (target, change, message) => {
    const snapshot = () => ({
      termo: [quantities(termo), version(termo)],
      mate: [quantities(mate), version(mate)],
      jobs: jobs(),
      history: db.prepare('SELECT count(*) AS n FROM sync_cell_history').get(),
    });
    const before = snapshot();
    await expect(service.localEdits.edit(seller, target, change, author)).rejects.toThrow(message);
    expect(snapshot()).toEqual(before);
  });

  it('an edit and its history row and job commit together or not at all', async () => {
    // The history write fails inside the edit's transaction (as a full disk would).
    db.exec("CREATE TEMP TRIGGER refuse_history BEFORE INSERT ON sync_cell_history BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    const before = { q: quantities(mate), v: version(mate), jobs: jobs() };
    await expect(service.localEdits.edit(seller, { userProductId: mate, type: 'selling_address' }, { quantity: 9 }, author)).rejects.toThrow('disk full');
    expect({ q: quantities(mate), v: version(mate), jobs: jobs() }).toEqual(before);
  });

  it('survives a restart once the call returned (the write is durable on return)', async () => {
    await service.localEdits.edit(seller, { userProductId: termo, type: 'seller_warehouse', storeId: demo.stores.avellaneda }, { quantity: 44 }, author);
    await service.stop();
    db.close();
    db = openDatabase(join(dir, 'local.db'));
    service = createService(db, { attachmentsDir: join(dir, 'files') });
    expect(quantities(termo)[`seller_warehouse|${demo.stores.avellaneda}`]).toBe(44);
    expect(historyOf(termo, 'seller_warehouse', demo.stores.avellaneda)).toHaveLength(1);
  });
});

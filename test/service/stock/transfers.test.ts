import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../main/db/open.js';
import { historyRepo } from '../../../main/db/repos/history.js';
import { loadFixtures, parseFixtures } from '../../../main/fixtures/load.js';
import { type Service, createService } from '../../../main/service/index.js';
import { cellKey } from '../../../main/service/stock/cells.js';
import { demo, demoFixtures } from '../../support/fixtures.js';

/**
 * Transfers, reasons and undo where the embedded service is the marketplace (local-only): one
 * write applying both stores or neither, a history row on each cell, on a real SQLite file.
 */
let dir: string;
let db: Db;
let service: Service;
const seller = { userId: demo.seller.id, applicationId: demo.app };
const termo = demo.userProducts.termo;
const { palermo, avellaneda } = demo.stores;
const meta = { author: 'ana' };

const qty = (store: string) =>
  db
    .prepare<[string, string], { q: number }>(
      "SELECT quantity AS q FROM stock_locations WHERE user_product_id = ? AND type = 'seller_warehouse' AND store_key = ?",
    )
    .get(termo, store)!.q;
const version = () => db.prepare<[string], { v: string }>('SELECT CAST(version AS TEXT) AS v FROM user_products WHERE id = ?').get(termo)!.v;
const historyOf = (store: string) => historyRepo(db).of(cellKey(termo, 'seller_warehouse', store), 50);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stockroom-transfers-'));
  db = openDatabase(join(dir, 'local.db'));
  loadFixtures(db, parseFixtures(demoFixtures()));
  service = createService(db, { attachmentsDir: join(dir, 'files') });
});
afterEach(async () => {
  await service.stop();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('local-only transfer', () => {
  it('moves units between two stores in one write: one version bump, a transfer row on each cell', async () => {
    const r = await service.localEdits.transfer(seller, { userProductId: termo, fromStoreId: palermo, toStoreId: avellaneda, units: 5 }, meta);
    expect(r).toMatchObject({ shown: 7, shownTo: 35, version: 2n });
    expect([qty(palermo), qty(avellaneda), version()]).toEqual([7, 35, '2']);
    expect(historyOf(palermo)[0]).toMatchObject({ reason: 'transfer', delta: -5, from_quantity: 12, to_quantity: 7, link: null });
    expect(historyOf(avellaneda)[0]).toMatchObject({ reason: 'transfer', delta: 5, from_quantity: 30, to_quantity: 35, link: r.historyId });
  });

  it('refuses a transfer the source cannot give, or to a store that is not the seller’s: neither store changes', async () => {
    await expect(service.localEdits.transfer(seller, { userProductId: termo, fromStoreId: palermo, toStoreId: avellaneda, units: 13 }, meta)).rejects.toThrow(
      'below 0',
    );
    await expect(
      service.localEdits.transfer(seller, { userProductId: termo, fromStoreId: palermo, toStoreId: demo.stores.otherSellers, units: 1 }, meta),
    ).rejects.toThrow();
    expect([qty(palermo), qty(avellaneda), version()]).toEqual([12, 30, '1']);
    expect(historyOf(palermo)).toEqual([]);
  });
});

describe('local-only reasons and undo', () => {
  it('an adjustment keeps its reason; undo applies the inverse with reason correction, newest first', async () => {
    await service.localEdits.edit(seller, { userProductId: termo, type: 'seller_warehouse', storeId: palermo }, { delta: 4 }, { ...meta, reason: 'received' });
    await service.localEdits.edit(seller, { userProductId: termo, type: 'seller_warehouse', storeId: palermo }, { quantity: 20 }, meta);
    expect(historyOf(palermo).map((h) => h.reason)).toEqual(['count', 'received']);
    expect(await service.localEdits.undoLast(seller, 'ana')).toMatchObject({ how: 'inverse' });
    expect(qty(palermo)).toBe(16);
    expect(await service.localEdits.undoLast(seller, 'ana')).toMatchObject({ how: 'inverse' });
    expect(qty(palermo)).toBe(12);
    expect(
      historyOf(palermo)
        .slice(0, 2)
        .map((h) => [h.reason, h.delta]),
    ).toEqual([
      ['correction', -4],
      ['correction', -4],
    ]);
    expect(await service.localEdits.undoLast(seller, 'ana')).toMatchObject({ how: 'nothing' });
  });

  it('undo of a transfer transfers the units back', async () => {
    await service.localEdits.transfer(seller, { userProductId: termo, fromStoreId: palermo, toStoreId: avellaneda, units: 5 }, meta);
    expect(await service.localEdits.undoLast(seller, 'ana')).toMatchObject({ how: 'inverse', userProductId: termo });
    expect([qty(palermo), qty(avellaneda)]).toEqual([12, 30]);
    expect(historyOf(avellaneda)[0]).toMatchObject({ reason: 'correction', delta: -5 });
  });
});

describe('the marketplace applies a PUT of several stores all or nothing', () => {
  it('one store refused: neither changes, the version stays', async () => {
    const caller = () => ({ principal: seller });
    await expect(
      service.stock.putSellerWarehouse(caller, termo, '1', {
        locations: [
          { store_id: palermo, quantity: 1 },
          { store_id: demo.stores.otherSellers, quantity: 2 },
        ],
      }),
    ).rejects.toThrow();
    expect([qty(palermo), qty(avellaneda), version()]).toEqual([12, 30, '1']);
    await service.stock.putSellerWarehouse(caller, termo, '1', {
      locations: [
        { store_id: palermo, quantity: 1 },
        { store_id: avellaneda, quantity: 41 },
      ],
    });
    expect([qty(palermo), qty(avellaneda), version()]).toEqual([1, 41, '2']);
  });
});

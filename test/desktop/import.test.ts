import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DesktopCore } from '../../main/desktop/core.js';
import { loadFixtures, parseFixtures } from '../../main/fixtures/load.js';
import { staticTokenProvider } from '../../main/sync/client.js';
import { SyncEngine } from '../../main/sync/engine.js';
import { BatchEditError } from '../../main/service/stock/local-edits.js';
import { demo, demoFixtures } from '../support/fixtures.js';
import { manualClock } from '../support/messages.js';
import { type Replica, newReplica } from '../support/sync-harness.js';
import { failure, openCore, value } from './helpers.js';

const { termo } = demo.userProducts;
const { palermo, avellaneda } = demo.stores;

/** `stock.importApply` on the local profile: the service's own writes, all in one transaction. */
describe('import apply, local-only', () => {
  let c: { core: DesktopCore; close(): Promise<void> };
  let api: DesktopCore['api'];
  beforeAll(async () => {
    c = await openCore();
    api = c.core.api;
  });
  afterAll(() => c.close());

  const cell = async (storeId: string) => value(await api.stock.cell({ userProductId: termo, type: 'seller_warehouse', storeId })).shown;
  const historyLength = async (storeId: string) => value(await api.stock.history({ userProductId: termo, type: 'seller_warehouse', storeId })).length;

  it('a refusal in the middle leaves nothing applied, and names the line', async () => {
    const before = [await cell(palermo), await cell(avellaneda), await historyLength(palermo)];
    const err = failure(
      await api.stock.importApply({
        name: 'stock.csv',
        changes: [
          { userProductId: termo, type: 'seller_warehouse', storeId: palermo, line: 2, kind: 'count', quantity: 99 },
          // 30 - 31 is below zero: the service refuses it after the first change was written.
          { userProductId: termo, type: 'seller_warehouse', storeId: avellaneda, line: 3, kind: 'adjust', delta: -31 },
          { userProductId: termo, type: 'seller_warehouse', storeId: avellaneda, line: 4, kind: 'adjust', delta: 1 },
        ],
      }),
    );
    expect(err.code).toBe('bad_request');
    expect(err.message).toMatch(/^Line 3: /);
    expect([await cell(palermo), await cell(avellaneda), await historyLength(palermo)]).toEqual(before);
  });

  it('applies every change with its history row, the file and line as its ref', async () => {
    const r = value(
      await api.stock.importApply({
        name: 'stock.xlsx',
        changes: [
          { userProductId: termo, type: 'seller_warehouse', storeId: palermo, line: 2, kind: 'count', quantity: 40 },
          { userProductId: termo, type: 'seller_warehouse', storeId: avellaneda, line: 2, kind: 'adjust', delta: -5 },
        ],
      }),
    );
    expect(r).toEqual({ applied: 2 });
    expect([await cell(palermo), await cell(avellaneda)]).toEqual([40, 25]);
    const h = value(await api.stock.history({ userProductId: termo, type: 'seller_warehouse', storeId: avellaneda }));
    expect(h[0]).toMatchObject({ kind: 'adjustment', delta: -5, ref: 'stock.xlsx line 2' });
  });

  it('refuses an empty or oversized batch at the contract', async () => {
    expect(failure(await api.stock.importApply({ name: 'x.csv', changes: [] })).code).toBe('bad_request');
    const many = Array.from({ length: 50_001 }, (_, i) => ({
      userProductId: termo,
      type: 'seller_warehouse' as const,
      storeId: palermo,
      line: i + 2,
      kind: 'adjust' as const,
      delta: 1,
    }));
    expect(failure(await api.stock.importApply({ name: 'x.csv', changes: many })).code).toBe('bad_request');
  });
});

/** A replica: the engine's queue checks and the outbox, in one transaction with one fsync. */
describe('import apply, a replica (queueStockBatch)', () => {
  let replica: Replica;
  let engine: SyncEngine;
  beforeEach(() => {
    replica = newReplica();
    loadFixtures(replica.db, parseFixtures(demoFixtures()));
    engine = new SyncEngine({
      db: replica.db,
      sellerId: demo.seller.id,
      baseUrl: 'http://127.0.0.1:9',
      auth: staticTokenProvider(demo.seller.token, demo.app),
      mode: 'offline',
      filesDir: replica.filesDir,
      clock: manualClock('2026-11-20T12:00:00.000Z'),
    });
  });
  afterEach(async () => {
    await engine.stop();
    replica.remove();
  });
  const queued = () => (replica.db.prepare(`SELECT count(*) AS n FROM sync_outbox WHERE state <> 'done'`).get() as { n: number }).n;
  const historyRows = () => (replica.db.prepare('SELECT count(*) AS n FROM sync_cell_history').get() as { n: number }).n;

  it('a refusal in the middle (an unknown store) leaves no entry and no history row', () => {
    let thrown: unknown;
    try {
      engine.queueStockBatch([
        { userProductId: termo, type: 'seller_warehouse', storeId: palermo, quantity: 3, ref: 'f line 2' },
        { userProductId: termo, type: 'seller_warehouse', storeId: avellaneda, delta: 2, ref: 'f line 3' },
        { userProductId: termo, type: 'seller_warehouse', storeId: demo.stores.otherSellers, delta: 1, ref: 'f line 4' },
        { userProductId: termo, type: 'seller_warehouse', storeId: avellaneda, delta: 1, ref: 'f line 5' },
      ]);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(BatchEditError);
    expect((thrown as BatchEditError).index).toBe(2);
    expect([queued(), historyRows()]).toEqual([0, 0]);
  });

  it('queues every change, coalescing as single edits do', () => {
    const results = engine.queueStockBatch([
      { userProductId: termo, type: 'seller_warehouse', storeId: palermo, quantity: 3 },
      { userProductId: termo, type: 'seller_warehouse', storeId: avellaneda, delta: 2 },
      { userProductId: termo, type: 'seller_warehouse', storeId: avellaneda, delta: 4 },
    ]);
    expect(results.map((r) => [r.how, r.shown])).toEqual([
      ['queued', 3],
      ['queued', 32],
      ['merged', 36],
    ]);
    expect([queued(), historyRows()]).toEqual([2, 3]);
  });
});

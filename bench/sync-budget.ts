import { closeSync, copyFileSync, fsyncSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../main/db/open.js';
import { systemClock } from '../main/service/clock.js';
import { TokenBudget } from '../main/sync/budget.js';
import { startFaultProxy } from '../test/support/fault-proxy.js';
import { startChild } from './lib/child.js';
import { remoteEngine } from './lib/replica.js';
import type { Row } from './lib/report.js';
import { productId, seedWarehouse, storeId } from './lib/seed.js';

/**
 * Issue 29's figures: 10,000 edits over 2,000 products × 5 stores against the rate-limit double,
 * the marketplace's 100 stock requests a minute scaled up in time (the same ratio at 6,000 a
 * minute, so the drain takes seconds, not 20 minutes): requests sent per product edited, the
 * app's own 429s, and the drain time against products ÷ budget.
 */
const PRODUCTS = 2000;
const STORES = 5;
const EDITS = 10_000;
const PER_MINUTE = 6000;
/**
 * The client's burst in seconds of its rate: 2 s (200 requests, 180 with the headroom) against the
 * 2,000 the run needs, so the drain measures the steady rate and not the starting burst (a
 * minute's worth, the default, would hold them all). At 100 a minute that is the default's 90 in
 * front of 1,910 more at the rate.
 */
const BURST_SECONDS = 2;
const HEADROOM = 0.1;

function settle(file: string): void {
  const fd = openSync(file, 'r+');
  fsyncSync(fd);
  closeSync(fd);
}

export async function benchSyncBudget(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'stockroom-bench-budget-'));
  try {
    const seed = join(dir, 'seed', 'marketplace.db');
    seedWarehouse(seed, PRODUCTS, STORES);
    settle(seed);
    const remoteDir = join(dir, 'remote');
    mkdirSync(remoteDir, { recursive: true });
    copyFileSync(seed, join(remoteDir, 'marketplace.db'));
    const remote = await startChild('main/http/cli.ts', ['--port', '0', '--data', remoteDir, '--rate-limit', `stock=${PER_MINUTE}/min`]);
    const proxy = await startFaultProxy(remote.url);
    const replicaDir = join(dir, 'replica');
    mkdirSync(replicaDir, { recursive: true });
    copyFileSync(seed, join(replicaDir, 'replica.db'));
    settle(join(replicaDir, 'replica.db'));
    const db = openDatabase(join(replicaDir, 'replica.db'));
    const budget = new TokenBudget({ clock: systemClock, rates: { stock: PER_MINUTE }, burstSeconds: BURST_SECONDS, headroom: HEADROOM });
    const engine = remoteEngine(db, replicaDir, proxy.url, { concurrency: 16, budget });
    // Edit i: product i % 2,000, store (i / 2,000) % 5: every cell once, each product five times.
    const edited = new Set<number>();
    for (let i = 0; i < EDITS; i++) {
      const p = i % PRODUCTS;
      edited.add(p);
      engine.queueAdjustment({ userProductId: productId(p), type: 'seller_warehouse', storeId: storeId(Math.floor(i / PRODUCTS) % STORES), delta: 1 });
    }
    const started = process.hrtime.bigint();
    engine.start();
    await engine.drain(600_000);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const stock = proxy.log.filter((l) => l.path.includes('/stock'));
    const tooMany = stock.filter((l) => l.status === 429).length;
    const done = engine.outbox.repo.counts().done;
    await engine.stop();
    db.close();
    await proxy.close();
    await remote.stop();
    // The steady part: what the burst did not cover, at the budget's rate.
    const burst = Math.floor((PER_MINUTE / 60) * BURST_SECONDS * (1 - HEADROOM));
    const ideal = ((stock.length - burst) / PER_MINUTE) * 60;
    const note = `${EDITS.toLocaleString('en')} edits (${done} done) over ${PRODUCTS.toLocaleString('en')} products × ${STORES} stores, stock=${PER_MINUTE}/min on the double`;
    return [
      {
        section: 'sync-budget',
        name: 'stock requests sent per product edited',
        value: stock.length / edited.size,
        unit: 'requests/product',
        limit: { max: 1.05, unit: 'requests/product' },
        note: `${stock.length} requests; ${note}`,
      },
      { section: 'sync-budget', name: '429s caused by the app', value: tooMany, unit: 'responses', limit: { max: 0, unit: 'responses' }, note },
      {
        section: 'sync-budget',
        name: 'drain time ÷ ((requests − burst) ÷ budget), the steady rate',
        value: seconds / ideal,
        unit: '×',
        limit: { max: 1.1, unit: '×' },
        note: `${seconds.toFixed(1)} s against ${ideal.toFixed(1)} s for ${stock.length} requests after a burst of ${burst} at ${PER_MINUTE}/min (under 1: faster than the budget; target 0.9 to 1.1)`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

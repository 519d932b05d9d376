import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../../main/db/open.js';
import { staticTokenProvider } from '../../main/sync/client.js';
import { type BudgetRates, type RequestBudget, UNLIMITED_BUDGET } from '../../main/sync/budget.js';
import { SyncEngine } from '../../main/sync/engine.js';
import { BENCH_APP, BENCH_SELLER, BENCH_TOKEN, seedWarehouse } from './seed.js';

/**
 * A sync engine on a bench database that never reaches a remote (its address is a closed port):
 * offline, what queueing costs without the network; local-only, the demo data's write path.
 */
export function benchEngine(db: Db, file: string, o: { mode?: 'offline' | 'local-only'; checkpoints?: boolean } = {}): SyncEngine {
  return new SyncEngine({
    db,
    sellerId: BENCH_SELLER,
    baseUrl: 'http://127.0.0.1:9',
    auth: staticTokenProvider(BENCH_TOKEN, BENCH_APP),
    filesDir: join(file, '..', 'files'),
    mode: o.mode ?? 'offline',
    ...(o.checkpoints === false ? { checkpointEveryMs: false as const } : {}),
  });
}

/**
 * A sync engine on a bench database against a real remote at `baseUrl`, as the bench seller; it
 * polls nothing and pulls nothing on start (each bench starts what it measures). Unlimited unless
 * a budget is given: the floors measure the engine, not the marketplace's limits (sync-budget.ts does).
 */
export function remoteEngine(
  db: Db,
  dir: string,
  baseUrl: string,
  o: { concurrency?: number; retry?: { baseMs: number; maxMs: number; maxAttempts: number }; budget?: BudgetRates | RequestBudget } = {},
): SyncEngine {
  return new SyncEngine({
    db,
    sellerId: BENCH_SELLER,
    baseUrl,
    auth: staticTokenProvider(BENCH_TOKEN, BENCH_APP),
    filesDir: join(dir, 'files'),
    pollIntervalMs: 0,
    pullOnStart: false,
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
    ...(o.retry ? { retry: o.retry } : {}),
    budget: o.budget ?? UNLIMITED_BUDGET,
  });
}

/** A temporary folder with one seeded warehouse database, copied afresh for every round (a round never sees another's writes). */
export function seededCopies(prefix: string, products: number, stores: number): { copy(name: string): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const seed = join(dir, 'seed.db');
  seedWarehouse(seed, products, stores);
  return {
    copy(name) {
      const f = join(dir, `${name}.db`);
      copyFileSync(seed, f);
      return f;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The desktop side of the kill -9 test, as a real child process: opens the replica, pulls it when
 * it is empty, then queues the deterministic burst from where the replica says it stopped (the
 * highest edit reference in the cell history, so an edit committed just before a kill is never
 * queued twice), printing `ack <n>` once edit n is committed, while the engine pushes. With
 * `drain` it finishes the burst, waits for the outbox to empty, prints `drained` and exits.
 *
 * Usage: node --import tsx test/support/sync-child.ts '<json config>'
 */
import { burstOps, newEngine, newReplica, sleep } from './sync-harness.js';

interface ChildConfig {
  replicaDir: string;
  url: string;
  token: string;
  sellerId: number;
  products: string[];
  stores: string[];
  seed: number;
  count: number;
  start: number;
  drain: boolean;
}

async function main(): Promise<void> {
  const cfg = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;
  const replica = newReplica(cfg.replicaDir);
  const engine = newEngine(replica, { url: cfg.url, token: cfg.token, sellerId: cfg.sellerId }, { concurrency: 4 });
  engine.on('sync-error', (e) => process.stderr.write(`sync-error ${e.message}\n`));
  engine.start();
  const products = replica.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM user_products').get()!.n;
  if (products === 0) await engine.pullNow();
  const last = replica.db.prepare<[], { n: number | null }>('SELECT max(CAST(ref AS INTEGER)) AS n FROM sync_cell_history WHERE ref IS NOT NULL').get()!.n;
  const from = last === null ? 0 : last + 1;
  process.stdout.write(`resume ${from}\n`);
  const ops = burstOps(cfg.seed, cfg.count, cfg.products, cfg.stores, cfg.start);
  for (const op of ops.slice(from)) {
    const target = { userProductId: op.up, type: 'seller_warehouse', storeId: op.store, ref: String(op.i) };
    if (op.kind === 'adjust') engine.queueAdjustment({ ...target, delta: op.delta });
    else engine.queueCount({ ...target, quantity: op.quantity });
    // Synchronous on Linux for a pipe: printed only after the commit above returned.
    process.stdout.write(`ack ${op.i}\n`);
    // Pacing only (a person typing, the engine pushing in between): the parent kills at an ack
    // count it chose, never after a time, so nothing it checks depends on this pace.
    await sleep(1);
  }
  process.stdout.write('queued\n');
  if (!cfg.drain) {
    // Keep pushing until killed; an orphan (the test runner died) ends itself.
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) process.exit(0);
    }, 500);
    return;
  }
  await engine.drain(60_000);
  const s = engine.status();
  process.stdout.write(`drained ${JSON.stringify(s)}\n`);
  await engine.stop();
  replica.close();
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`child failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});

import { benchEngine, remoteEngine } from './lib/replica.js';
import { closeSync, copyFileSync, fsyncSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../main/db/open.js';
import { TWENTY_PERCENT, mulberry32, startFaultProxy } from '../test/support/fault-proxy.js';
import { startChild } from './lib/child.js';
import { runLoad } from './lib/load.js';
import { type Row, percentile } from './lib/report.js';
import { BENCH_APP, BENCH_TOKEN, productId, seedWarehouse, storeId } from './lib/seed.js';

const EDITS = 10_000;
const STORES = 10;
const CONCURRENCY = 16;
const LARGE = 100_000;
const QUEUE_SAMPLES = 20_000;
/** Alternating rounds of the bare loop and the engine. */
const ROUNDS = 3;
/** Edits queued per second while the engine runs (a scanner-heavy warehouse), and for how long. */
const STEADY_RATE = 300;
const STEADY_SECONDS = 10;

/** The seed's starting quantity of (product i, store s), see bench/lib/seed.ts. */
const seeded = (i: number, s: number) => 10 + ((i + s) % 50);
/** Edit i: +1 on product i, store i % 10 (10,000 distinct cells, one PUT each, no coalescing). */
const edit = (i: number) => ({ product: i, store: i % STORES });

/**
 * Seeding and copying leave megabytes of dirty pages that the kernel writes back over the next
 * seconds, competing with every fsync measured meanwhile: flush them first.
 */
function settle(file: string): void {
  const fd = openSync(file, 'r+');
  fsyncSync(fd);
  closeSync(fd);
}

/** A remote (the project's server in its own process) over a copy of the seeded marketplace. */
async function remoteFrom(seed: string, dir: string) {
  mkdirSync(dir, { recursive: true });
  copyFileSync(seed, join(dir, 'marketplace.db'));
  settle(join(dir, 'marketplace.db'));
  return startChild('main/http/cli.ts', ['--port', '0', '--data', dir]);
}

/** Queues the 10,000 edits into a replica (a copy of the same seed: the mirror a pull would leave), then flushes them. */
async function flush(seed: string, dir: string, url: string, retry?: { baseMs: number; maxMs: number; maxAttempts: number }) {
  mkdirSync(dir, { recursive: true });
  copyFileSync(seed, join(dir, 'replica.db'));
  settle(join(dir, 'replica.db'));
  const db = openDatabase(join(dir, 'replica.db'));
  const engine = remoteEngine(db, dir, url, { concurrency: CONCURRENCY, ...(retry ? { retry } : {}) });
  // Queued before the engine starts (as after an offline session); not part of the timing.
  for (let i = 0; i < EDITS; i++) {
    const e = edit(i);
    engine.queueAdjustment({ userProductId: productId(e.product), type: 'seller_warehouse', storeId: storeId(e.store), delta: 1 });
  }
  const started = process.hrtime.bigint();
  engine.start();
  await engine.drain(600_000);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const status = engine.status();
  await engine.stop();
  db.close();
  if (status.pending || status.failed || status.conflicts) throw new Error(`flush left ${JSON.stringify(status)}`);
  return EDITS / seconds;
}

/** The same 10,000 PUTs (same bodies, versions, keys) from a bare undici loop with the same concurrency. */
async function bare(url: string) {
  const res = await runLoad(url, {
    connections: CONCURRENCY,
    total: EDITS,
    make: (i) => {
      const e = edit(i);
      return {
        method: 'PUT',
        path: `/user-products/${productId(e.product)}/stock/type/seller_warehouse`,
        headers: {
          authorization: `Bearer ${BENCH_TOKEN}`,
          'x-client-id': String(BENCH_APP),
          'x-version': '1',
          'x-idempotency-key': `bare-${i}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ locations: [{ store_id: storeId(e.store), quantity: seeded(e.product, e.store) + 1 }] }),
      };
    },
  });
  if (res.errors) throw new Error(`bare loop: ${res.errors} errors ${[...res.statuses].join(' ')}`);
  return res.rps;
}

/**
 * Acknowledged edit → done on the remote: edits queued at a steady rate while the engine runs
 * (the app's default concurrency), each timed from its queue call returning to the engine's
 * `synced` event for its entry, which comes once the remote has applied it and answered and the
 * outbox has recorded it (so a little after the remote applied it: an upper bound). Every edit is
 * on its own cell, so none merges into another.
 */
async function steadyLatency(seed: string, dir: string, url: string) {
  mkdirSync(dir, { recursive: true });
  copyFileSync(seed, join(dir, 'replica.db'));
  settle(join(dir, 'replica.db'));
  const db = openDatabase(join(dir, 'replica.db'));
  const engine = remoteEngine(db, dir, url);
  const acked = new Map<number, bigint>();
  const times: number[] = [];
  engine.on('synced', ({ entryId }) => {
    const t0 = acked.get(entryId);
    if (t0 === undefined) return;
    acked.delete(entryId);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  });
  engine.start();
  const total = STEADY_RATE * STEADY_SECONDS;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    // Edit i is due at i / rate seconds; one overdue (the loop was busy) goes in the next turn of
    // the event loop (each edit is its own task, as an IPC call is).
    const wait = started + (i * 1000) / STEADY_RATE - performance.now();
    await new Promise((r) => (wait >= 1 ? setTimeout(r, wait) : setImmediate(r)));
    const e = edit(i);
    const r = engine.queueAdjustment({ userProductId: productId(e.product), type: 'seller_warehouse', storeId: storeId(e.store), delta: 1 });
    acked.set(r.entryId!, process.hrtime.bigint());
  }
  await engine.drain(120_000);
  const status = engine.status();
  await engine.stop();
  db.close();
  if (status.pending || status.failed || status.conflicts || acked.size > 0)
    throw new Error(`steady run left ${JSON.stringify(status)}, ${acked.size} not synced`);
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), n: times.length };
}

/**
 * Queueing one edit (validation, one transaction with its history row, fsync) with 100,000 user
 * products in the replica, one edit per event-loop turn (as edits arrive over IPC), the engine
 * running (its WAL checkpointer included).
 */
async function queueLatency(file: string) {
  const db = openDatabase(file);
  const engine = benchEngine(db, file);
  engine.start();
  const random = mulberry32(1);
  const times: number[] = [];
  for (let i = 0; i < QUEUE_SAMPLES + 500; i++) {
    const p = Math.floor(random() * LARGE);
    const s = Math.floor(random() * STORES);
    const target = { userProductId: productId(p), type: 'seller_warehouse', storeId: storeId(s) };
    const t0 = process.hrtime.bigint();
    if (i % 4 === 3) engine.queueCount({ ...target, quantity: 5 + (i % 40) });
    else engine.queueAdjustment({ ...target, delta: 1 + (i % 3) });
    if (i >= 500) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    await new Promise(setImmediate);
  }
  await engine.stop();
  db.close();
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

export async function benchSync(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'stockroom-bench-sync-'));
  try {
    const seed = join(dir, 'seed', 'marketplace.db');
    seedWarehouse(seed, EDITS, STORES);
    settle(seed);

    // Both sides warmed once (JIT, the client's connections) against a throwaway remote, then
    // measured alternating ROUNDS times (bare loop, engine, ...) so that drift on this shared
    // machine hits both alike; each run against its own fresh copy of the remote; medians compared.
    const warmBare = await remoteFrom(seed, join(dir, 'warm-bare'));
    await bare(warmBare.url);
    await warmBare.stop();
    const warmEngine = await remoteFrom(seed, join(dir, 'warm-engine'));
    await flush(seed, join(dir, 'warm-replica'), warmEngine.url);
    await warmEngine.stop();
    const bareRates: number[] = [];
    const engineRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bareRemote = await remoteFrom(seed, join(dir, `bare${round}`));
      bareRates.push(await bare(bareRemote.url));
      await bareRemote.stop();
      const engineRemote = await remoteFrom(seed, join(dir, `engine${round}`));
      engineRates.push(await flush(seed, join(dir, `replica${round}`), engineRemote.url));
      await engineRemote.stop();
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const bareRate = median(bareRates);
    const engineRate = median(engineRates);

    const faultRemote = await remoteFrom(seed, join(dir, 'faults'));
    const proxy = await startFaultProxy(faultRemote.url, { seed: 20, faults: TWENTY_PERCENT });
    const faultRate = await flush(seed, join(dir, 'replica-faults'), proxy.url, { baseMs: 200, maxMs: 5000, maxAttempts: 30 });
    const counts = { ...proxy.counts };
    await proxy.close();
    await faultRemote.stop();

    const steadyRemote = await remoteFrom(seed, join(dir, 'steady'));
    const steady = await steadyLatency(seed, join(dir, 'replica-steady'), steadyRemote.url);
    await steadyRemote.stop();

    const large = join(dir, 'large', 'replica.db');
    seedWarehouse(large, LARGE, STORES);
    settle(large);
    const q = await queueLatency(large);

    const c = `${CONCURRENCY} in parallel`;
    return [
      {
        section: 'sync',
        name: `flush ${EDITS.toLocaleString('en')} queued edits`,
        value: engineRate,
        unit: 'edits/s',
        floor: { name: 'bare undici PUT loop', value: bareRate },
        target: 0.8,
        note: `${c}, each a PUT with x-version and X-Idempotency-Key; median of ${ROUNDS} alternating rounds after a warm-up of both`,
      },
      {
        section: 'sync',
        name: `flush ${EDITS.toLocaleString('en')} queued edits through the 20% fault proxy`,
        value: faultRate,
        unit: 'edits/s',
        floor: { name: 'no faults', value: engineRate },
        note: `${counts.total} requests: ${counts.drop} dropped, ${counts.reset} reset after applying, ${counts.error500} x 500, ${counts.tooMany} x 429 (Retry-After 1 s), ${counts.delay} delayed; backoff from 200 ms`,
      },
      {
        section: 'sync',
        name: 'acknowledged edit → done on the remote, no faults, p50',
        value: steady.p50,
        unit: 'ms',
        limit: { max: 1000, unit: 'ms' },
      },
      {
        section: 'sync',
        name: 'acknowledged edit → done on the remote, no faults, p99',
        value: steady.p99,
        unit: 'ms',
        limit: { max: 1000, unit: 'ms' },
        note: `${steady.n.toLocaleString('en')} edits queued at ${STEADY_RATE}/s while the engine runs (default concurrency), each on its own cell; from the queue call's return to the synced event (the remote applied it, answered, the outbox recorded it)`,
      },
      { section: 'sync', name: `queue one edit, p50 (${LARGE.toLocaleString('en')} user products)`, value: q.p50, unit: 'ms', limit: { max: 1, unit: 'ms' } },
      {
        section: 'sync',
        name: `queue one edit, p99 (${LARGE.toLocaleString('en')} user products)`,
        value: q.p99,
        unit: 'ms',
        limit: { max: 1, unit: 'ms' },
        note: 'validation + outbox row + history row in one transaction, synchronous=FULL',
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `npm run bench pull`: a first pull of a 100,000-product catalogue (× 10 stores) from a remote
 * marketplace on loopback (the project's own HTTP service over a seeded database, in its own
 * process) into a fresh replica, through the app's pull (main/sync/pull.ts, as the sync engine
 * runs it), next to a bare undici GET loop fetching the same pages in the same run; and the
 * replica's size on disk after it.
 */
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../main/db/open.js';
import { startChild } from './lib/child.js';
import { type LoadRequest, runLoad } from './lib/load.js';
import { type Row, printTable } from './lib/report.js';
import { remoteEngine } from './lib/replica.js';
import { BENCH_APP, BENCH_SELLER, BENCH_TOKEN, itemId, productId, seedItems, seedWarehouse } from './lib/seed.js';

const SECTION = 'pull';
const PRODUCTS = Number(process.env.BENCH_PULL_PRODUCTS ?? 100_000);
const STORES = 10;
/** The sync engine's default (main/sync/engine.ts): the app pulls with 8 connections. */
const CONCURRENCY = 8;
/** The item search's largest page (main/service/stock/item-search.ts). */
const PAGE = 100;
/** Alternating rounds of the bare loop and the pull, after a warm-up of both. */
const ROUNDS = Number(process.env.BENCH_PULL_ROUNDS ?? 3);
/** The warm-up's catalogue (its own remote). */
const WARM_PRODUCTS = 5000;

/** Seeding and copying leave dirty pages the kernel writes back over the next seconds: flush them first. */
function settle(file: string): void {
  const fd = openSync(file, 'r+');
  fsyncSync(fd);
  closeSync(fd);
}

/** Bytes of a folder's files (the database, its WAL and shared memory, nothing else is there). */
function sizeOf(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isFile() ? statSync(join(dir, e.name)).size : 0), 0);
}

const HEADERS = { authorization: `Bearer ${BENCH_TOKEN}`, 'x-client-id': String(BENCH_APP), accept: 'application/json' };
const get = (path: string): LoadRequest => ({ method: 'GET', path, headers: HEADERS });

/**
 * The floor: the GETs a first pull makes, from a bare undici loop (same connections, bodies read
 * and dropped, no parsing, no writes): the account, the stores, every page of the item search,
 * each item, each user product's stock, the brands and the orders.
 */
export async function bare(url: string, products: number): Promise<number> {
  const phases: LoadRequest[][] = [
    [get(`/users/${BENCH_SELLER}`), get(`/users/${BENCH_SELLER}/stores/search?limit=50&offset=0`)],
    Array.from({ length: Math.ceil(products / PAGE) }, (_, p) => get(`/users/${BENCH_SELLER}/items/search?limit=${PAGE}&offset=${p * PAGE}`)),
    Array.from({ length: products }, (_, i) => get(`/items/${itemId(i)}`)),
    Array.from({ length: products }, (_, i) => get(`/user-products/${productId(i)}/stock`)),
    [get(`/users/${BENCH_SELLER}/brands`), get(`/orders/search?seller=${BENCH_SELLER}&limit=100&offset=0`)],
  ];
  const started = process.hrtime.bigint();
  for (const requests of phases) {
    const res = await runLoad(url, { connections: CONCURRENCY, total: requests.length, make: (i) => requests[i]! });
    // The seller has no brands: 404 (B00001) is the answer the pull expects too.
    const failed = [...res.statuses].filter(([status]) => status >= 400 && status !== 404);
    if (failed.length > 0 || res.errors > res.statuses.get(404)!) throw new Error(`bare loop: ${JSON.stringify([...res.statuses])}`);
  }
  return products / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** A first pull into a fresh replica in `dir`, as the engine runs it; products/s and the replica's bytes once closed. */
export async function pull(url: string, dir: string, products: number): Promise<{ rate: number; bytes: number; walBytes: number }> {
  mkdirSync(dir, { recursive: true });
  const db = openDatabase(join(dir, 'replica.db'));
  const engine = remoteEngine(db, dir, url, { concurrency: CONCURRENCY });
  engine.start();
  const started = process.hrtime.bigint();
  const report = await engine.pullNow();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const walBytes = sizeOf(dir);
  await engine.stop();
  db.close();
  if (report.items.fetched !== products || report.stock.read !== products || report.stock.changed !== products)
    throw new Error(`pull: expected ${products} items and stock snapshots, got ${JSON.stringify(report)}`);
  const check = openDatabase(join(dir, 'replica.db'));
  const cells = (check.prepare('SELECT count(*) AS n FROM stock_locations').get() as { n: number }).n;
  check.close();
  if (cells !== products * STORES) throw new Error(`pull: expected ${products * STORES} stock cells, got ${cells}`);
  return { rate: products / seconds, bytes: sizeOf(dir), walBytes };
}

/** The remote: the HTTP service in its own process over `products` × STORES seeded into `dir`. */
export async function startRemote(dir: string, products: number) {
  const file = join(dir, 'marketplace.db');
  seedWarehouse(file, products, STORES);
  seedItems(file, products);
  settle(file);
  return startChild('main/http/cli.ts', ['--port', '0', '--data', dir]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number) => bytes / (1024 * 1024);

export async function benchPull(o: { products?: number; rounds?: number } = {}): Promise<Row[]> {
  const products = o.products ?? PRODUCTS;
  const rounds = o.rounds ?? ROUNDS;
  const dir = mkdtempSync(join(tmpdir(), 'stockroom-bench-pull-'));
  let remote: Awaited<ReturnType<typeof startChild>> | null = null;
  try {
    // Both sides warmed once (JIT, connections) against a small throwaway remote.
    const warm = await startRemote(join(dir, 'warm-remote'), WARM_PRODUCTS);
    try {
      await bare(warm.url, WARM_PRODUCTS);
      await pull(warm.url, join(dir, 'warm'), WARM_PRODUCTS);
    } finally {
      await warm.stop();
    }
    // The remote's database, seeded once before any timing: products × stores, one listing each
    // (just written, so in the file cache the server maps it from). Pulls only read: one remote serves every
    // round of both sides, alternated so that drift on this shared machine hits both alike;
    // medians compared.
    remote = await startRemote(join(dir, 'remote'), products);
    const bareRates: number[] = [];
    const pulls: { rate: number; bytes: number; walBytes: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      bareRates.push(await bare(remote.url, products));
      const replicaDir = join(dir, `replica${round}`);
      pulls.push(await pull(remote.url, replicaDir, products));
      rmSync(replicaDir, { recursive: true, force: true });
    }
    const bareRate = median(bareRates);
    const rate = median(pulls.map((p) => p.rate));
    const bytes = median(pulls.map((p) => p.bytes));
    const walBytes = median(pulls.map((p) => p.walBytes));
    const n = products.toLocaleString('en');
    return [
      {
        section: SECTION,
        name: `first pull of ${n} products × ${STORES} stores into a fresh replica`,
        value: rate,
        unit: 'products/s',
        floor: { name: 'bare undici GET loop, same pages', value: bareRate },
        target: 0.7,
        note: `${CONCURRENCY} connections, loopback remote in its own process; ${Math.ceil(products / PAGE)} item-id pages + ${n} items + ${n} stocks; median of ${rounds} alternating rounds after a warm-up of both on ${WARM_PRODUCTS.toLocaleString('en')} products (pull ${pulls.map((p) => p.rate.toFixed(0)).join(', ')}; bare ${bareRates.map((r) => r.toFixed(0)).join(', ')})`,
      },
      {
        section: SECTION,
        name: `replica on disk after the pull of ${n} products`,
        value: mb(bytes),
        unit: 'MB',
        note: `database file once closed (checkpointed); ${mb(walBytes).toFixed(1)} MB with its WAL right after the pull`,
      },
    ];
  } finally {
    await remote?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  benchPull()
    .then((rows) => printTable(rows))
    .catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
}

/**
 * `npm run bench first-pull` (issue 29): a first pull of 100,000 products from the rate-limit
 * double (main/http/rate-limit.ts) at the marketplace's 100 stock requests a minute scaled up in
 * time (6,000 a minute: the same pull, sixty times sooner), the app's pull in a child process
 * (bench/lib/first-pull-child.ts) behind a logging proxy:
 * - start → the grid's first page (50 rows) usable, "not read yet" cells and all (≤ 5 s);
 * - products with stock read a minute, over a window once the reads are under way, against the
 *   budget (≥ 0.95);
 * - SIGKILLed mid-read and started again: the stock GETs of the second run, none of them of a
 *   product whose stock the first run had written (0).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Db, openDatabase } from '../main/db/open.js';
import { type FaultProxy, startFaultProxy } from '../test/support/fault-proxy.js';
import { startChild } from './lib/child.js';
import type { Row } from './lib/report.js';
import { seedItems, seedWarehouse } from './lib/seed.js';

const SECTION = 'first-pull';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PRODUCTS = Number(process.env.BENCH_FIRST_PULL_PRODUCTS ?? 100_000);
const STORES = 10;
const PER_MINUTE = 6000;
/**
 * Reads before the window opens: the budget's first burst (a minute's worth less a tenth, 5,400
 * at 6,000 a minute, main/sync/budget.ts) is behind them, so the window sees the steady rate.
 */
const WARM_READS = 7000;
const WINDOW_MS = Number(process.env.BENCH_FIRST_PULL_WINDOW_MS ?? 30_000);
/** Reads of the second run before it is stopped: enough to show which products it asks for. */
const RESUMED_READS = 500;

const STOCK = /^\/user-products\/([^/?]+)\/stock$/;

function settle(file: string): void {
  const fd = openSync(file, 'r+');
  fsyncSync(fd);
  closeSync(fd);
}

/** Polls `check` every 20 ms until it holds (a bench's pacing; the tests wait on conditions). */
async function until(check: () => boolean, what: string, timeoutMs = 300_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`bench first-pull: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function runChild(dir: string, url: string): { child: ChildProcess; rowsMs: Promise<number>; exited: Promise<void> } {
  const config = JSON.stringify({ dir, url, perMinute: PER_MINUTE });
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/first-pull-child.ts', config], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const rowsMs = new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /\{"rowsMs":([\d.]+)\}/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`first-pull child exited with ${code}: ${out}`)));
  });
  rowsMs.catch(() => undefined);
  return { child, rowsMs, exited };
}

const readCount = (db: Db) => db.prepare<[], { n: number }>('SELECT count(*) AS n FROM user_products WHERE stock_read = 1').get()!.n;
const stockGets = (proxy: FaultProxy, from: number) =>
  proxy.log
    .slice(from)
    .filter((l) => l.method === 'GET')
    .flatMap((l) => {
      const m = STOCK.exec(l.path.split('?')[0]!);
      return m ? [decodeURIComponent(m[1]!)] : [];
    });

export async function benchFirstPull(o: { products?: number } = {}): Promise<Row[]> {
  const products = o.products ?? PRODUCTS;
  const dir = mkdtempSync(join(tmpdir(), 'stockroom-bench-first-pull-'));
  const remoteDir = join(dir, 'remote');
  const replicaDir = join(dir, 'replica');
  mkdirSync(remoteDir, { recursive: true });
  mkdirSync(replicaDir, { recursive: true });
  const file = join(remoteDir, 'marketplace.db');
  seedWarehouse(file, products, STORES);
  seedItems(file, products);
  settle(file);
  const remote = await startChild('main/http/cli.ts', ['--port', '0', '--data', remoteDir, '--rate-limit', `stock=${PER_MINUTE}/min`]);
  const proxy = await startFaultProxy(remote.url);
  let watch: Db | null = null;
  const children: ChildProcess[] = [];
  try {
    // 1. Start → the first page of rows.
    const one = runChild(replicaDir, proxy.url);
    children.push(one.child);
    const rowsMs = await one.rowsMs;
    watch = openDatabase(join(replicaDir, 'replica.db'));
    const db = watch;

    // 2. Products with stock read a minute, in a window once the reads are under way.
    await until(() => readCount(db) >= WARM_READS, `${WARM_READS} products read`);
    const t1 = performance.now();
    const n1 = readCount(db);
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    const n2 = readCount(db);
    const perMinute = ((n2 - n1) / (performance.now() - t1)) * 60_000;
    const tooMany = proxy.log.filter((l) => l.status === 429).length;

    // 3. SIGKILL, then a second run: which products it reads.
    one.child.kill('SIGKILL');
    await one.exited;
    const readBefore = new Set(
      db
        .prepare<[], { id: string }>('SELECT id FROM user_products WHERE stock_read = 1')
        .all()
        .map((r) => r.id),
    );
    const firstGets = stockGets(proxy, 0).length;
    const mark = proxy.log.length;
    const two = runChild(replicaDir, proxy.url);
    children.push(two.child);
    const resumedRowsMs = await two.rowsMs;
    await until(() => readCount(db) >= readBefore.size + RESUMED_READS, `${RESUMED_READS} more products read after the restart`);
    two.child.kill('SIGKILL');
    await two.exited;
    const again = stockGets(proxy, mark);
    const reread = again.filter((id) => readBefore.has(id)).length;

    const of = `${products.toLocaleString('en')} products × ${STORES} stores, stock=${PER_MINUTE.toLocaleString('en')}/min on the double and in the app's budget`;
    return [
      {
        section: SECTION,
        name: 'first pull under the budget: start → the grid’s first 50 rows',
        value: rowsMs,
        unit: 'ms',
        limit: { max: 5000, unit: 'ms' },
        note: `${of}; after the SIGKILL: ${resumedRowsMs.toFixed(0)} ms`,
      },
      {
        section: SECTION,
        name: 'first pull under the budget: products with stock read a minute',
        value: perMinute,
        unit: 'products/min',
        floor: { name: 'the stock budget', value: PER_MINUTE },
        target: 0.95,
        note: `${(n2 - n1).toLocaleString('en')} in ${(WINDOW_MS / 1000).toFixed(0)} s after the first ${n1.toLocaleString('en')}; ${tooMany} 429s; ${of}`,
      },
      {
        section: SECTION,
        name: 'first pull SIGKILLed and resumed: stock GETs of products read before the kill',
        value: reread,
        unit: 'GETs',
        limit: { max: 0, unit: 'GETs' },
        note: `${readBefore.size.toLocaleString('en')} read by the first run (${firstGets.toLocaleString('en')} GETs); the second run's first ${again.length.toLocaleString('en')} GETs`,
      },
    ];
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    watch?.close();
    await proxy.close();
    await remote.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

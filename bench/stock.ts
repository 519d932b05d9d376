import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../main/db/open.js';
import { STOCK_JSON_SQL } from '../main/db/repos/stock.js';
import { createService } from '../main/service/index.js';
import { startChild } from './lib/child.js';
import { type LoadResult, runLoad } from './lib/load.js';
import { type Row, concurrentOpsPerSecond, opsPerSecond, opsPerSecondAsync } from './lib/report.js';
import { BENCH_APP, BENCH_SELLER, BENCH_TOKEN, productId, seedWarehouse, storeId } from './lib/seed.js';

const SMALL = 1_000;
const LARGE = 100_000;
const CONNECTIONS = 16;
const ROUNDS = 5;
/**
 * The k-th product writer w writes of `products`: writer w owns products w, w+CONNECTIONS, ..., so
 * its versions are known and every write is a winning CAS.
 */
const ownedProduct = (w: number, k: number, products: number) => (w + CONNECTIONS * (k % Math.floor(products / CONNECTIONS))) % products;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Service-level stock read and compare-and-set, against the same SQL on better-sqlite3; and the
 * ceiling of the HTTP PUT figure: the service's seller_warehouse write called by CONNECTIONS
 * writers at once (no HTTP), each on products of its own, so every write is a winning CAS.
 */
async function serviceLevel(dbFile: string): Promise<{ rows: Row[]; putCeiling: number }> {
  const db = openDatabase(dbFile);
  const service = createService(db);
  const principal = { userId: BENCH_SELLER, applicationId: BENCH_APP };

  const rawProduct = db.prepare('SELECT id, user_id, version FROM user_products WHERE id = ?').safeIntegers(true);
  // The floor of a read: the one statement the service runs (main/db/repos/stock.ts), raw rows.
  const rawStock = db.prepare(STOCK_JSON_SQL).raw(true);
  const rawRead = opsPerSecond((i) => rawStock.get(productId(i % SMALL)));
  const serviceRead = opsPerSecond((i) => service.stock.read(principal, productId(i % SMALL)));

  // Updates: each product's version is tracked here, so every write is a successful CAS.
  const versions = new Map<string, bigint>();
  const versionOf = (id: string) => versions.get(id) ?? (rawProduct.get(id) as { version: bigint }).version;
  const cas = db.prepare('UPDATE user_products SET version = version + 1 WHERE id = ? AND version = ?');
  const upsert = db.prepare(
    `INSERT INTO stock_locations (user_product_id, type, store_key, network_node_id, quantity, position)
     VALUES (@up, 'seller_warehouse', @store, @node, @qty, 0)
     ON CONFLICT (user_product_id, type, store_key) DO UPDATE SET quantity = excluded.quantity`,
  );
  let updates = 0;
  const rawUpdateOp = () => {
    const i = updates++;
    const id = productId(i % SMALL);
    const v = versionOf(id);
    db.transaction(() => {
      if (cas.run(id, v).changes !== 1) throw new Error('raw CAS lost');
      upsert.run({ up: id, store: storeId(i % 10), node: `NODE${i % 10}`, qty: i % 100 });
    }).immediate();
    versions.set(id, v + 1n);
  };
  // Awaited one at a time: a group of one, so this is the service's cost without batching gains.
  const serviceUpdateOp = async () => {
    const i = updates++;
    const id = productId(i % SMALL);
    const v = versionOf(id);
    await service.stock.putSellerWarehouse(() => ({ principal }), id, v.toString(), { locations: [{ store_id: storeId(i % 10), quantity: i % 100 }] });
    versions.set(id, v + 1n);
  };
  // Every op waits for a flush to disk, whose time swings with the machine's other I/O: ROUNDS
  // short rounds, each side back to back, and each side's median.
  const rawUpdates: number[] = [];
  const serviceUpdates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    rawUpdates.push(opsPerSecond(rawUpdateOp, 400));
    serviceUpdates.push(await opsPerSecondAsync(serviceUpdateOp, 400));
  }
  const rawUpdate = median(rawUpdates);
  const serviceUpdate = median(serviceUpdates);

  const counters = new Array<number>(CONNECTIONS).fill(0);
  const concurrentPut = async (i: number, w: number) => {
    const id = productId(ownedProduct(w, counters[w]!++, SMALL));
    const v = versionOf(id);
    await service.stock.putSellerWarehouse(() => ({ principal }), id, v.toString(), { locations: [{ store_id: storeId(i % 10), quantity: i % 100 }] });
    versions.set(id, v + 1n);
  };
  await concurrentOpsPerSecond(concurrentPut, 5_000, CONNECTIONS);
  const ceilings: number[] = [];
  for (let round = 0; round < ROUNDS; round++) ceilings.push(await concurrentOpsPerSecond(concurrentPut, 5_000, CONNECTIONS));
  db.close();
  const rows: Row[] = [
    { section: 'service', name: 'stock read', value: serviceRead, unit: 'ops/s', floor: { name: 'raw SQL', value: rawRead }, target: 0.5 },
    {
      section: 'service',
      name: 'stock compare-and-set update',
      value: serviceUpdate,
      unit: 'ops/s',
      floor: { name: 'raw SQL', value: rawUpdate },
      target: 0.5,
      note: `one flush per commit on both sides (raw: synchronous=FULL; service: fdatasync of the WAL), median of ${ROUNDS} alternating rounds`,
    },
  ];
  return { rows, putCeiling: median(ceilings) };
}

async function httpGet(url: string, products: number, total = 20_000) {
  return runLoad(url, {
    connections: CONNECTIONS,
    total,
    make: (i) => ({ method: 'GET', path: `/user-products/${productId((i * 7919) % products)}/stock`, headers: { authorization: `Bearer ${BENCH_TOKEN}` } }),
  });
}

/** Runs `a` then `b`, ROUNDS times; each side's round of median throughput (noise on this shared machine hits both alike). */
async function alternate(a: () => Promise<LoadResult>, b: () => Promise<LoadResult>): Promise<[LoadResult, LoadResult]> {
  const as: LoadResult[] = [];
  const bs: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    as.push(await a());
    bs.push(await b());
  }
  const byRps = (xs: LoadResult[]) => [...xs].sort((x, y) => x.rps - y.rps)[Math.floor(xs.length / 2)]!;
  const errors = bs.reduce((n, r) => n + r.errors, 0);
  return [byRps(as), { ...byRps(bs), errors }];
}

/** Product → its version as this bench last set it (every PUT is a winning CAS), across runs on one server. */
type Versions = Map<number, number>;

async function httpPut(url: string, products: number, total = 8_000, versions: Versions = new Map()) {
  const counters = new Array<number>(CONNECTIONS).fill(0);
  return runLoad(url, {
    connections: CONNECTIONS,
    total,
    make: (i, w) => {
      const p = ownedProduct(w, counters[w]!++, products);
      const v = versions.get(p) ?? 1;
      versions.set(p, v + 1);
      return {
        method: 'PUT',
        path: `/user-products/${productId(p)}/stock/type/seller_warehouse`,
        headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'x-version': String(v), 'content-type': 'application/json' },
        body: JSON.stringify({ locations: [{ store_id: storeId(i % 10), quantity: i % 100 }] }),
      };
    },
  });
}

export async function benchStock(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'stockroom-bench-'));
  try {
    const small = join(dir, 'small');
    const large = join(dir, 'large');
    seedWarehouse(join(small, 'marketplace.db'), SMALL);
    seedWarehouse(join(dir, 'service.db'), SMALL);
    const { rows, putCeiling } = await serviceLevel(join(dir, 'service.db'));

    const bare = await startChild('bench/targets/bare-http.ts');
    const real = await startChild('main/http/cli.ts', ['--port', '0', '--data', small]);
    // Warm both, then alternate so that noise on this shared machine hits both sides alike.
    await httpGet(bare.url, SMALL, 3000);
    await httpGet(real.url, SMALL, 3000);
    const bareLoad = (total: number) =>
      runLoad(bare.url, {
        connections: CONNECTIONS,
        total,
        make: () => ({
          method: 'PUT',
          path: '/',
          headers: { 'content-type': 'application/json' },
          body: '{"locations":[{"store_id":"8000000","quantity":1}]}',
        }),
      });
    // The write path warmed on both sides too (the GETs above warmed only the read path).
    const versions: Versions = new Map();
    await bareLoad(3000);
    await httpPut(real.url, SMALL, 2000, versions);
    // ROUNDS rounds, bare and real back to back in each; each side's median round is reported.
    const [bareGet, realGet] = await alternate(
      () => httpGet(bare.url, SMALL, 10_000),
      () => httpGet(real.url, SMALL, 10_000),
    );
    const [barePut, realPut] = await alternate(
      () => bareLoad(20_000),
      () => httpPut(real.url, SMALL, 5_000, versions),
    );
    if (realGet.errors || realPut.errors) throw new Error(`bench requests failed: ${[...realGet.statuses, ...realPut.statuses].join(' ')}`);
    await real.stop();
    await bare.stop();

    seedWarehouse(join(large, 'marketplace.db'), LARGE);
    // Both sizes served at once and measured alternately, twice, so drift hits both alike.
    const smallServer = await startChild('main/http/cli.ts', ['--port', '0', '--data', small]);
    const bigServer = await startChild('main/http/cli.ts', ['--port', '0', '--data', large]);
    await httpGet(smallServer.url, SMALL, 3000);
    await httpGet(bigServer.url, LARGE, 3000);
    let smallTotal = 0;
    let largeTotal = 0;
    for (let round = 0; round < 2; round++) {
      smallTotal += (await httpGet(smallServer.url, SMALL, 10_000)).rps;
      largeTotal += (await httpGet(bigServer.url, LARGE, 10_000)).rps;
    }
    await smallServer.stop();
    await bigServer.stop();
    const getSmall = { rps: smallTotal / 2 };
    const getLarge = { rps: largeTotal / 2 };

    const c = `${CONNECTIONS} keep-alive connections, median of ${ROUNDS} rounds`;
    rows.push(
      { section: 'http', name: 'GET stock', value: realGet.rps, unit: 'req/s', floor: { name: 'bare node:http', value: bareGet.rps }, target: 0.6, note: c },
      { section: 'http', name: 'GET stock p99', value: realGet.p99, unit: 'ms', floor: { name: 'bare node:http', value: bareGet.p99 }, lowerIsBetter: true },
      {
        section: 'http',
        name: 'PUT seller_warehouse',
        value: realPut.rps,
        unit: 'req/s',
        floor: { name: 'bare node:http', value: barePut.rps },
        target: 0.4,
        note: `${c}, every answer after the fdatasync of its commit`,
      },
      {
        section: 'http',
        name: 'PUT seller_warehouse, the service alone (its ceiling: no HTTP)',
        value: putCeiling,
        unit: 'req/s',
        floor: { name: 'bare node:http', value: barePut.rps },
        note: `service.stock.putSellerWarehouse called by ${CONNECTIONS} writers at once, median of ${ROUNDS} rounds of 5,000: one SQLite writer, every write durable`,
      },
      {
        section: 'http',
        name: 'PUT seller_warehouse p99',
        value: realPut.p99,
        unit: 'ms',
        floor: { name: 'bare node:http', value: barePut.p99 },
        lowerIsBetter: true,
      },
      {
        section: 'scale',
        name: `GET stock with ${LARGE.toLocaleString('en')} user products x 10 stores`,
        value: getLarge.rps,
        unit: 'req/s',
        floor: { name: `${SMALL.toLocaleString('en')} user products`, value: getSmall.rps },
        target: 0.8,
      },
    );
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

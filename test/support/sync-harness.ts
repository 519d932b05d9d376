import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { type Db, openDatabase } from '../../main/db/open.js';
import type { FixtureFile } from '../../main/fixtures/schema.js';
import { type TokenProvider, staticTokenProvider } from '../../main/sync/client.js';
import { UNLIMITED_BUDGET } from '../../main/sync/budget.js';
import { SyncEngine, type SyncEngineOptions } from '../../main/sync/engine.js';
import type { RetryPolicy } from '../../main/sync/retry.js';
import { demo, demoFixtures, warehouseFixtures } from './fixtures.js';
import { type FaultProxy, mulberry32, startFaultProxy } from './fault-proxy.js';
import { type TestServer, startTestServer } from './server.js';

/** A marketplace for sync tests: one multi-warehouse seller, `products` user products over `stores` stores. */
export interface SyncMarket {
  fixtures: FixtureFile;
  sellerId: number;
  token: string;
  app: number;
  stores: string[];
  products: string[];
  quantity: number;
}

export function syncMarket(opts: { products: number; stores: number; quantity?: number }): SyncMarket {
  const quantity = opts.quantity ?? 10;
  const fixtures = warehouseFixtures({ ...opts, quantity });
  const sellerId = fixtures.users![0]!.id;
  // One listing per user product: how a replica discovers them (GET /users/{id}/items/search).
  fixtures.items = fixtures.user_products!.map((p, i) => ({
    id: `MLA${String(1_700_000_000 + i)}`,
    site_id: 'MLA',
    title: `Producto ${i + 1}`,
    seller_id: sellerId,
    category_id: 'MLA1902',
    user_product_id: p.id,
    price: 1000 + i,
    currency_id: 'ARS',
    listing_type_id: 'gold_special',
    channels: ['marketplace'],
    logistic_type: 'cross_docking' as const,
    local_delivery: false,
    inventory_id: null,
    full_inbound_done: false,
  }));
  return {
    fixtures,
    sellerId,
    token: fixtures.tokens![0]!.access_token,
    app: demo.app,
    stores: fixtures.stores!.map((s) => s.id),
    products: fixtures.user_products!.map((p) => p.id),
    quantity,
  };
}

/** The desktop app's replica: its own SQLite file (every migration) and file store, in a temp folder. */
export interface Replica {
  dir: string;
  dbFile: string;
  filesDir: string;
  db: Db;
  /** Closes and opens the database again (a restart). */
  reopen(): Db;
  close(): void;
  remove(): void;
}

export function newReplica(dir = mkdtempSync(join(tmpdir(), 'stockroom-replica-'))): Replica {
  const dbFile = join(dir, 'replica.db');
  const r: Replica = {
    dir,
    dbFile,
    filesDir: join(dir, 'files'),
    db: openDatabase(dbFile),
    reopen() {
      if (r.db.open) r.db.close();
      r.db = openDatabase(dbFile);
      return r.db;
    },
    close() {
      if (r.db.open) r.db.close();
    },
    remove() {
      r.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return r;
}

/** Short waits for tests: real backoff shape, milliseconds instead of seconds. */
export const FAST_RETRY: Partial<RetryPolicy> = { baseMs: 5, maxMs: 100, maxAttempts: 40, offlineProbeMinMs: 20, offlineProbeMaxMs: 200 };

export function newEngine(
  replica: Replica,
  remote: { url: string; token?: string; sellerId: number; app?: number; auth?: TokenProvider },
  overrides: Partial<SyncEngineOptions> = {},
): SyncEngine {
  return new SyncEngine({
    db: replica.db,
    sellerId: remote.sellerId,
    baseUrl: remote.url,
    auth: remote.auth ?? staticTokenProvider(remote.token!, remote.app ?? demo.app),
    filesDir: replica.filesDir,
    retry: FAST_RETRY,
    pollIntervalMs: 0,
    pullOnStart: false,
    random: mulberry32(7),
    // The outbox's and the pull's semantics, at full speed; tests of the budget pass their own (budget.ts).
    budget: UNLIMITED_BUDGET,
    ...overrides,
  });
}

/** The demo marketplace served on loopback, a logging fault proxy in front of it, and an engine on a fresh replica. */
export interface SyncedReplica {
  server: TestServer;
  proxy: FaultProxy;
  replica: Replica;
  engine: SyncEngine;
}

/** Starts a SyncedReplica signed in as the demo seller, the engine started and pulled once (call in beforeEach). */
export async function startSyncedReplica(overrides: Partial<SyncEngineOptions> = {}): Promise<SyncedReplica> {
  const server = await startTestServer();
  const proxy = await startFaultProxy(server.url);
  const replica = newReplica();
  const engine = newEngine(replica, { url: proxy.url, token: demo.seller.token, sellerId: demo.seller.id }, overrides);
  engine.start();
  await engine.pullNow();
  return { server, proxy, replica, engine };
}

/** Stops what startSyncedReplica started, the engine first (call in afterEach). */
export async function stopSyncedReplica(s: SyncedReplica): Promise<void> {
  await s.engine.stop();
  await s.proxy.close();
  await s.server.close();
  s.replica.remove();
}

/** The shared condition wait (test/support/wait.ts), re-exported for the sync tests that import it from here. */
export { waitFor } from './wait.js';

/** Pacing only (a burst that types at a person's speed); never to wait for something to happen: use waitFor. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface RemoteStock {
  version: bigint;
  /** Quantity by `type|store` ("seller_warehouse|123", "selling_address|"). */
  cells: Map<string, number>;
}

/** Reads stock straight from the remote (no proxy), `concurrency` at a time. */
export async function readRemoteStock(url: string, token: string, products: string[], concurrency = 16): Promise<Map<string, RemoteStock>> {
  const pool = new Pool(url, { connections: concurrency });
  const out = new Map<string, RemoteStock>();
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= products.length) return;
      const id = products[i]!;
      const res = await pool.request({ method: 'GET', path: `/user-products/${id}/stock`, headers: { authorization: `Bearer ${token}` } });
      const body = (await res.body.json()) as { locations: { type: string; store_id?: string; quantity: number }[] };
      if (res.statusCode !== 200) throw new Error(`GET stock ${id}: ${res.statusCode}`);
      out.set(id, {
        version: BigInt(String(res.headers['x-version'])),
        cells: new Map(body.locations.map((l) => [`${l.type}|${l.store_id ?? ''}`, l.quantity])),
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await pool.close();
  return out;
}

export interface WriterChange {
  userProductId: string;
  storeId: string;
  /** For `add` cells the delta; for `set` cells the new quantity. */
  value: number;
  mode: 'add' | 'set';
  /** The version the remote gave this write (x-version of the answer). */
  version: bigint;
}

/**
 * A concurrent writer straight on the remote (not through the proxy): read-modify-write loops on
 * the given cells, retrying its own 409s, recording every write it made with its version.
 */
export function startWriter(
  url: string,
  token: string,
  cells: { userProductId: string; storeId: string; mode: 'add' | 'set' }[],
  opts: { seed?: number; concurrency?: number; pauseMs?: number } = {},
) {
  const pool = new Pool(url, { connections: opts.concurrency ?? 2 });
  const random = mulberry32(opts.seed ?? 99);
  const changes: WriterChange[] = [];
  let stopped = false;
  let conflicts = 0;
  let failure: unknown;
  const loop = async () => {
    while (!stopped) {
      const cell = cells[Math.floor(random() * cells.length)]!;
      const got = await pool.request({ method: 'GET', path: `/user-products/${cell.userProductId}/stock`, headers: { authorization: `Bearer ${token}` } });
      const stock = (await got.body.json()) as { locations: { type: string; store_id?: string; quantity: number }[] };
      const current = stock.locations.find((l) => l.type === 'seller_warehouse' && l.store_id === cell.storeId)?.quantity ?? 0;
      const value = cell.mode === 'add' ? (random() < 0.5 ? -1 : 1) * (1 + Math.floor(random() * 5)) : 100 + Math.floor(random() * 900);
      const quantity = cell.mode === 'add' ? current + value : value;
      const put = await pool.request({
        method: 'PUT',
        path: `/user-products/${cell.userProductId}/stock/type/seller_warehouse`,
        headers: { authorization: `Bearer ${token}`, 'x-version': String(got.headers['x-version']), 'content-type': 'application/json' },
        body: JSON.stringify({ locations: [{ store_id: cell.storeId, quantity }] }),
      });
      await put.body.dump();
      if (put.statusCode === 200) changes.push({ ...cell, value, version: BigInt(String(put.headers['x-version'])) });
      else if (put.statusCode === 409) conflicts++;
      else throw new Error(`writer PUT: ${put.statusCode}`);
      if (opts.pauseMs) await sleep(opts.pauseMs);
    }
  };
  const loops = Array.from({ length: opts.concurrency ?? 2 }, () =>
    loop().catch((e: unknown) => {
      failure ??= e;
      stopped = true;
    }),
  );
  return {
    changes,
    get conflicts() {
      return conflicts;
    },
    async stop() {
      stopped = true;
      await Promise.all(loops);
      await pool.close();
      if (failure) throw failure;
    },
  };
}

/** One edit of a deterministic burst (the kill -9 test's child and parent share it). */
export type BurstOp =
  { i: number; up: string; store: string; kind: 'adjust'; delta: number } | { i: number; up: string; store: string; kind: 'count'; quantity: number };

export function burstOps(seed: number, count: number, products: string[], stores: string[], start: number): BurstOp[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, (_, i): BurstOp => {
    const up = products[Math.floor(random() * products.length)]!;
    const store = stores[Math.floor(random() * stores.length)]!;
    return random() < 0.2
      ? { i, up, store, kind: 'count', quantity: start - 1000 + Math.floor(random() * 2000) }
      : { i, up, store, kind: 'adjust', delta: (random() < 0.5 ? -1 : 1) * (1 + Math.floor(random() * 9)) };
  });
}

/** The demo marketplace plus `n` more user products (100 units in each of the demo seller's two stock stores), each with a listing. */
export function demoWithProducts(n: number): { fixtures: FixtureFile; products: string[] } {
  const f = demoFixtures();
  const products: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `MLAU5${String(i).padStart(8, '0')}`;
    products.push(id);
    f.user_products!.push({
      id,
      user_id: demo.seller.id,
      locations: [
        { type: 'seller_warehouse', store_id: demo.stores.palermo, network_node_id: 'ARBA01P', quantity: 100 },
        { type: 'seller_warehouse', store_id: demo.stores.avellaneda, network_node_id: 'ARBA02A', quantity: 100 },
      ],
    });
    f.items!.push({
      id: `MLA16${String(i).padStart(8, '0')}`,
      site_id: 'MLA',
      title: `Termo ${i}`,
      seller_id: demo.seller.id,
      category_id: 'MLA1902',
      user_product_id: id,
      price: 100,
      currency_id: 'ARS',
      listing_type_id: 'gold_special',
      channels: ['marketplace'],
      logistic_type: 'cross_docking',
      local_delivery: false,
      inventory_id: null,
      full_inbound_done: false,
    });
  }
  return { fixtures: f, products };
}

/**
 * Bulk import figures (issue 14 §8), at 100,000 user products × 10 stores:
 * - apply: 10,000 changes queued by `SyncEngine.queueStockBatch` (a replica: every queue check,
 *   outbox row and history row, one transaction with one fsync) and by the local-only service's
 *   `editMany` (the service's rules, version bump and history row, one group-commit write), against
 *   the floor of raw SQLite inserting the same rows (an outbox row and a history row per change)
 *   in one transaction with one fsync;
 * - preview of a 10,000-row file: parsing it (Papa Parse, as the renderer does) and the core's
 *   product lookups in chunks of 1,000 (`importLookup`, what `stock.lookup` answers: the file's
 *   columns only), beside the full grid rows the preview read before (`rowsByIds`, `stock.rows`)
 *   and the floor of the same reads as plain statements (ids, titles, locations, outbox).
 */
import { benchEngine, seededCopies } from './lib/replica.js';
import Papa from 'papaparse';
import { openDatabase } from '../main/db/open.js';
import { rowsByIds } from '../main/desktop/grid.js';
import { importLookup } from '../main/desktop/import-lookup.js';
import { createService } from '../main/service/index.js';
import { mulberry32 } from '../test/support/fault-proxy.js';
import type { Row } from './lib/report.js';
import { BENCH_APP, BENCH_SELLER, productId, storeId } from './lib/seed.js';

const PRODUCTS = Number(process.env.BENCH_IMPORT_PRODUCTS ?? 100_000);
const CHANGES = Number(process.env.BENCH_IMPORT_CHANGES ?? 10_000);
const STORES = 10;
const ROUNDS = 3;

type Change = { product: number; store: number; count: boolean; value: number };

/** CHANGES distinct cells (a file names a cell once), a quarter of them counts. */
function changes(seed: number): Change[] {
  const random = mulberry32(seed);
  const seen = new Set<string>();
  const out: Change[] = [];
  while (out.length < CHANGES) {
    const product = Math.floor(random() * PRODUCTS);
    const store = Math.floor(random() * STORES);
    if (seen.has(`${product}|${store}`)) continue;
    seen.add(`${product}|${store}`);
    const count = out.length % 4 === 3;
    out.push({ product, store, count, value: count ? 5 + (out.length % 40) : 1 + (out.length % 3) });
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rate = (ms: number) => CHANGES / (ms / 1000);

function replicaApply(file: string, list: Change[]): number {
  const db = openDatabase(file);
  const engine = benchEngine(db, file, { checkpoints: false });
  const edits = list.map((c) => ({
    userProductId: productId(c.product),
    type: 'seller_warehouse',
    storeId: storeId(c.store),
    ...(c.count ? { quantity: c.value } : { delta: c.value }),
    ref: `bench.csv line ${c.product}`,
  }));
  const t0 = performance.now();
  engine.queueStockBatch(edits);
  const ms = performance.now() - t0;
  db.close();
  return ms;
}

async function localApply(file: string, list: Change[]): Promise<number> {
  const db = openDatabase(file);
  const service = createService(db);
  const edits = list.map((c) => ({
    target: { userProductId: productId(c.product), type: 'seller_warehouse', storeId: storeId(c.store) },
    change: c.count ? { quantity: c.value } : { delta: c.value },
    meta: { author: 'bench', ref: `bench.csv line ${c.product}` },
  }));
  const t0 = performance.now();
  await service.localEdits.editMany({ userId: BENCH_SELLER, applicationId: BENCH_APP }, edits);
  const ms = performance.now() - t0;
  await service.stop();
  db.close();
  return ms;
}

/** The floor: the same outbox and history rows inserted by plain statements in one transaction (synchronous=FULL). */
function rawApply(file: string, list: Change[]): number {
  const db = openDatabase(file);
  const outbox = db.prepare(
    `INSERT INTO sync_outbox (kind, lane, state, idempotency_key, attempts, next_attempt_at, created_at, updated_at, user_product_id, cell_type, store_key, cell, op, delta, quantity)
     VALUES ('stock', ?, 'pending', ?, 0, 0, 0, 0, ?, 'seller_warehouse', ?, ?, ?, ?, ?)`,
  );
  const history = db.prepare(
    `INSERT INTO sync_cell_history (cell, user_product_id, cell_type, store_key, kind, author, at, from_quantity, to_quantity, delta, entry_id, ref, note)
     VALUES (?, ?, 'seller_warehouse', ?, ?, 'bench', 0, 0, ?, ?, ?, ?, NULL)`,
  );
  const t0 = performance.now();
  db.transaction(() => {
    for (const c of list) {
      const up = productId(c.product);
      const cell = `${up}|seller_warehouse|${storeId(c.store)}`;
      const id = outbox.run(
        `up:${up}`,
        crypto.randomUUID(),
        up,
        storeId(c.store),
        cell,
        c.count ? 'count' : 'adjust',
        c.count ? null : c.value,
        c.count ? c.value : null,
      ).lastInsertRowid;
      history.run(cell, up, storeId(c.store), c.count ? 'count' : 'adjustment', c.value, c.count ? null : c.value, id, `bench.csv line ${c.product}`);
    }
  }).immediate();
  const ms = performance.now() - t0;
  db.close();
  return ms;
}

type Lookup = 'light' | 'full' | 'raw';

/** A 10,000-row file's preview work outside the renderer's diff: parse, then look its products up 1,000 at a time. */
function preview(file: string, list: Change[], how: Lookup): number {
  const db = openDatabase(file);
  const reads = rawReads(db);
  const text = ['user_product_id;store;count', ...list.map((c) => `${productId(c.product)};${storeId(c.store)};${c.count ? c.value : `+${c.value}`}`)].join(
    '\n',
  );
  const t0 = performance.now();
  const rows = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t', '|'] }).data;
  const ids = [...new Set(rows.slice(1).map((r) => r[0]!))];
  const columns = [...new Set(rows.slice(1).map((r) => r[1]!))];
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    if (how === 'light') importLookup(db, BENCH_SELLER, chunk, columns, { authority: false });
    else if (how === 'full') rowsByIds(db, BENCH_SELLER, chunk, { authority: false });
    else reads(chunk);
  }
  const ms = performance.now() - t0;
  db.close();
  return ms;
}

/** The floor of a lookup: its reads as plain statements, rows fetched and dropped. */
function rawReads(db: ReturnType<typeof openDatabase>): (ids: string[]) => void {
  const products = db.prepare('SELECT id, CAST(version AS TEXT) AS version FROM user_products WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))');
  const titles = db.prepare(
    'SELECT user_product_id, min(title) AS title FROM items WHERE user_product_id IN (SELECT value FROM json_each(?)) GROUP BY user_product_id',
  );
  const locations = db.prepare(
    'SELECT user_product_id, type, store_key, quantity FROM stock_locations WHERE user_product_id IN (SELECT value FROM json_each(?))',
  );
  const outbox = db.prepare("SELECT * FROM sync_outbox WHERE state <> 'done' AND user_product_id IN (SELECT value FROM json_each(?))");
  return (ids) => {
    const json = JSON.stringify(ids);
    products.all(BENCH_SELLER, json);
    titles.all(json);
    locations.all(json);
    outbox.all(json);
  };
}

export async function benchImport(): Promise<Row[]> {
  const { copy, remove } = seededCopies('stockroom-bench-import-', PRODUCTS, STORES);
  try {
    const replica: number[] = [];
    const local: number[] = [];
    const raw: number[] = [];
    const previews: Record<Lookup, number[]> = { light: [], full: [], raw: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const list = changes(round + 1);
      raw.push(rawApply(copy(`raw-${round}`), list));
      replica.push(replicaApply(copy(`replica-${round}`), list));
      local.push(await localApply(copy(`local-${round}`), list));
      // Each on its own fresh copy: every one reads cold pages.
      for (const how of ['raw', 'full', 'light'] as const) previews[how].push(preview(copy(`preview-${how}-${round}`), list, how));
    }
    const floor = { name: 'raw SQL inserts of the same rows, one transaction', value: rate(median(raw)) };
    const previewFloor = { name: 'parse + the same reads as plain statements', value: median(previews.raw) };
    const scale = `${PRODUCTS.toLocaleString('en')} user products × ${STORES} stores, ${CHANGES.toLocaleString('en')} changes, median of ${ROUNDS}`;
    return [
      {
        section: 'import',
        name: 'apply, a replica (queue checks, outbox and history rows, one transaction)',
        value: rate(median(replica)),
        unit: 'changes/s',
        floor,
        note: scale,
      },
      {
        section: 'import',
        name: "apply, local-only (the service's rules, version and history, one write)",
        value: rate(median(local)),
        unit: 'changes/s',
        floor,
        note: scale,
      },
      {
        section: 'import',
        name: `apply ${CHANGES.toLocaleString('en')} changes, a replica (the issue's >= 2,000 changes/s is <= ${CHANGES / 2} ms)`,
        value: median(replica),
        unit: 'ms',
        limit: { max: CHANGES / 2, unit: 'ms' },
      },
      {
        section: 'import',
        name: `preview of a ${CHANGES.toLocaleString('en')}-row file: parse + product lookups in the core, the file's columns (stock.lookup; without the renderer's diff)`,
        value: median(previews.light),
        unit: 'ms',
        floor: previewFloor,
        lowerIsBetter: true,
        limit: { max: 2000, unit: 'ms' },
        note: scale,
      },
      {
        section: 'import',
        name: `preview of a ${CHANGES.toLocaleString('en')}-row file, with full grid rows (stock.rows, the lookup before the light one)`,
        value: median(previews.full),
        unit: 'ms',
        floor: previewFloor,
        lowerIsBetter: true,
        note: scale,
      },
    ];
  } finally {
    remove();
  }
}

/**
 * Count sessions (issue 14 §4), at 100,000 user products × 10 stores: a session of 1,000 lines,
 * each counted by one scan (`countSessions.scan`: the grid's lookup, the line and its base), then
 * applied (`countSessions.apply`): a replica queues the 1,000 counts at their bases
 * (SyncEngine.queueStockBatch, the bases, the session's outcome and state: one transaction, one
 * fsync); the local-only service writes them (localEdits.editMany, one group-commit write). The
 * floor: raw SQLite inserting the same outbox and history rows and closing the session, in one
 * transaction. The target: 1,000 scans applied in under 2 s.
 */
import { benchEngine, seededCopies } from './lib/replica.js';
import { type Db, openDatabase } from '../main/db/open.js';
import { countSessionsRepo } from '../main/db/repos/count-sessions.js';
import { type CountProfile, countSessions } from '../main/desktop/count-sessions.js';
import { createService } from '../main/service/index.js';
import type { Row } from './lib/report.js';
import { BENCH_APP, BENCH_SELLER, productId, storeId } from './lib/seed.js';

const PRODUCTS = Number(process.env.BENCH_COUNT_PRODUCTS ?? 100_000);
const LINES = Number(process.env.BENCH_COUNT_LINES ?? 1_000);
const STORES = 10;
const ROUNDS = 3;
const STORE = storeId(3);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** LINES products spread over the catalogue. */
const products = () => Array.from({ length: LINES }, (_, i) => productId(Math.floor((i * PRODUCTS) / LINES)));

/** A session of LINES lines (as `start` with a filter would list them), each counted by one scan. */
function countedSession(p: CountProfile): { id: number; scanMs: number } {
  const id = countSessionsRepo(p.db).create(
    { seller_id: BENCH_SELLER, store_id: STORE, filter: null, blind: false, author: 'bench', now: 0 },
    products().map((up) => ({ user_product_id: up, title: null, start_quantity: 0 })),
  );
  const t0 = performance.now();
  for (const up of products()) countSessions.scan(p, id, up);
  return { id, scanMs: performance.now() - t0 };
}

function profile(kind: 'local' | 'remote', db: Db, file: string): CountProfile {
  const service = createService(db);
  const engine = benchEngine(db, file, { mode: kind === 'local' ? 'local-only' : 'offline', checkpoints: false });
  return { kind, db, sellerId: BENCH_SELLER, principal: { userId: BENCH_SELLER, applicationId: BENCH_APP }, author: 'bench', engine, service };
}

async function sessionApply(kind: 'local' | 'remote', file: string): Promise<{ apply: number; scans: number }> {
  const db = openDatabase(file);
  const p = profile(kind, db, file);
  const { id, scanMs } = countedSession(p);
  const t0 = performance.now();
  await countSessions.apply(p, id);
  const apply = performance.now() - t0;
  await p.engine.stop();
  await p.service.stop();
  db.close();
  return { apply, scans: scanMs };
}

/** The floor: an outbox row and a history row per line and the session closed, plain statements, one transaction (synchronous=FULL). */
function rawApply(file: string): number {
  const db = openDatabase(file);
  const id = countSessionsRepo(db).create(
    { seller_id: BENCH_SELLER, store_id: STORE, filter: null, blind: false, author: 'bench', now: 0 },
    products().map((up) => ({ user_product_id: up, title: null, start_quantity: 0 })),
  );
  const outbox = db.prepare(
    `INSERT INTO sync_outbox (kind, lane, state, idempotency_key, attempts, next_attempt_at, created_at, updated_at, user_product_id, cell_type, store_key, cell, op, quantity, base_version, base_quantity)
     VALUES ('stock', ?, 'pending', ?, 0, 0, 0, 0, ?, 'seller_warehouse', ?, ?, 'count', 1, 1, 0)`,
  );
  const history = db.prepare(
    `INSERT INTO sync_cell_history (cell, user_product_id, cell_type, store_key, kind, author, at, from_quantity, to_quantity, delta, entry_id, ref, note)
     VALUES (?, ?, 'seller_warehouse', ?, 'count', 'bench', 0, 0, 1, NULL, ?, ?, NULL)`,
  );
  const outcome = db.prepare("UPDATE count_lines SET entry_id = ?, outcome = 'queued' WHERE session_id = ? AND user_product_id = ?");
  const close = db.prepare("UPDATE count_sessions SET state = 'applied', applied_at = 0 WHERE id = ?");
  const t0 = performance.now();
  db.transaction(() => {
    for (const up of products()) {
      const cell = `${up}|seller_warehouse|${STORE}`;
      const entry = outbox.run(`up:${up}`, crypto.randomUUID(), up, STORE, cell).lastInsertRowid;
      history.run(cell, up, STORE, entry, `count session ${id}`);
      outcome.run(entry, id, up);
    }
    close.run(id);
  }).immediate();
  const ms = performance.now() - t0;
  db.close();
  return ms;
}

export async function benchCounting(): Promise<Row[]> {
  const { copy, remove } = seededCopies('stockroom-bench-count-', PRODUCTS, STORES);
  try {
    const replica: number[] = [];
    const local: number[] = [];
    const raw: number[] = [];
    const scans: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      raw.push(rawApply(copy(`raw-${round}`)));
      const r = await sessionApply('remote', copy(`replica-${round}`));
      replica.push(r.apply);
      scans.push(r.scans);
      local.push((await sessionApply('local', copy(`local-${round}`))).apply);
    }
    const floor = { name: 'raw SQL inserts of the same rows, one transaction', value: median(raw) };
    const scale = `${PRODUCTS.toLocaleString('en')} user products × ${STORES} stores, ${LINES.toLocaleString('en')} lines, median of ${ROUNDS}`;
    return [
      {
        section: 'counting',
        name: `count session of ${LINES.toLocaleString('en')} scans applied, a replica (counts at their bases, one transaction)`,
        value: median(replica),
        unit: 'ms',
        floor,
        lowerIsBetter: true,
        limit: { max: 2000, unit: 'ms' },
        note: scale,
      },
      {
        section: 'counting',
        name: `count session of ${LINES.toLocaleString('en')} scans applied, local-only (the service's rules, one write)`,
        value: median(local),
        unit: 'ms',
        floor,
        lowerIsBetter: true,
        limit: { max: 2000, unit: 'ms' },
        note: scale,
      },
      {
        section: 'counting',
        name: `${LINES.toLocaleString('en')} scans into a count session (lookup, line, base; one transaction each)`,
        value: median(scans),
        unit: 'ms',
        note: scale,
      },
    ];
  } finally {
    remove();
  }
}

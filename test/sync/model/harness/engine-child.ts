/**
 * The app's side of the outbox's model-based test, as a real child process (so a step can end it
 * with SIGKILL at any point): a replica file and a sync engine on it, driven by one JSON command
 * per line on stdin, each answered by one JSON line on stdout once it returned (`{ n, ok, value }`
 * or `{ n, ok: false, error }`). An edit's answer is written only after its transaction committed:
 * an answer the parent read is an acknowledgement the person saw.
 *
 * Usage: node --import tsx test/sync/model/harness/engine-child.ts '<json config>'
 */
import { createInterface } from 'node:readline';
import { type TallyProfile, scanTally } from '../../../../main/desktop/scan-tally.js';
import { systemClock } from '../../../../main/service/clock.js';
import { phaseOf } from '../../../../main/sync/model.js';
import { cellView } from '../../../../main/sync/read-model.js';
import { FAST_RETRY, newEngine, newReplica } from '../../../support/sync-harness.js';
import type { ChildCommand, ChildConfig, EntrySeen } from './protocol.js';

const cfg = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;
const replica = newReplica(cfg.replicaDir);
const engine = newEngine(
  replica,
  { url: cfg.url, token: cfg.token, sellerId: cfg.sellerId },
  { concurrency: 4, retry: { ...FAST_RETRY, maxAttempts: cfg.maxAttempts }, mode: 'online', random: Math.random },
);
engine.on('sync-error', () => undefined);
engine.start();

/** Scan to count's tally over this replica and engine, as the desktop core runs it for a replica profile. */
const tally: TallyProfile = {
  kind: 'remote',
  db: replica.db,
  sellerId: cfg.sellerId,
  principal: { userId: cfg.sellerId, applicationId: 0 },
  author: 'ana',
  engine,
  service: { clock: systemClock, localEdits: { editMany: () => Promise.reject(new Error('a replica has no local edits')) } },
};

const ref = (cell: { up: string; store: string }) => ({ userProductId: cell.up, type: 'seller_warehouse', storeId: cell.store });
const author = 'ana';

function entries(): EntrySeen[] {
  return engine.outbox.repo.activeAll().map((e) => ({
    id: e.id,
    kind: e.kind,
    phase: phaseOf(e),
    cell: e.cell,
    cell2: e.cell2,
    undoes: e.undoes_entry,
    lastError: e.last_error,
  }));
}

/** An edit's answer with the value the cell showed before it (its history row's from). */
function withFrom<T extends { historyId: number }>(r: T): T & { from: number | null } {
  return { ...r, from: engine.outbox.repo.historyById(r.historyId)?.from_quantity ?? null };
}

async function run(c: ChildCommand): Promise<unknown> {
  switch (c.op) {
    case 'pullIfEmpty': {
      const n = replica.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM user_products').get()!.n;
      if (n === 0) await engine.pullNow();
      return n;
    }
    case 'adjust':
      return withFrom(engine.queueAdjustment({ ...ref(c.cell), delta: c.delta, ref: c.ref, author }));
    case 'count':
      return withFrom(engine.queueCount({ ...ref(c.cell), quantity: c.quantity, ref: c.ref, author }));
    case 'transfer':
      return withFrom(engine.queueTransfer({ ...ref(c.cell), toStoreId: c.to, units: c.units, ref: c.ref, author }));
    case 'observed': {
      // What the cell shows just before, in the same turn (nothing of the engine runs in between).
      const shownBefore = cellView(replica.db, { userProductId: c.cell.up, type: 'seller_warehouse', storeKey: c.cell.store }).shown;
      return { ...withFrom(engine.queueObservedCounts([{ ...ref(c.cell), quantity: c.quantity, base: c.base, ref: c.ref, author }])[0]!), shownBefore };
    }
    case 'batch':
      return engine
        .queueStockBatch(
          c.edits.map((e) => ({ ...ref(e.cell), ref: e.ref, author, ...(e.delta !== undefined ? { delta: e.delta } : { quantity: e.quantity! }) })),
        )
        .map(withFrom);
    case 'tally': {
      for (let i = 0; i < c.scans; i++) scanTally.add(tally, c.cell.store, c.cell.up);
      const applied = await scanTally.apply(tally, c.cell.store);
      return applied.results.map(withFrom);
    }
    case 'undo':
      return engine.undoLast(author);
    case 'message':
      return engine.queueMessage({ packId: c.pack, text: c.text, author });
    case 'shown':
      return c.cells.map((cell) => cellView(replica.db, { userProductId: cell.up, type: 'seller_warehouse', storeKey: cell.store }).shown);
    case 'entries':
      return entries();
    case 'entry': {
      const e = engine.outbox.repo.byId(c.id);
      return e ? { state: e.state, phase: phaseOf(e) } : null;
    }
    case 'history': {
      // The rows of the given refs (an edit acknowledged or not before a kill), and the undo rows of given history ids.
      const byRef = replica.db.prepare<[string], { id: number; entry_id: number | null; from_quantity: number | null; kind: string }>(
        'SELECT id, entry_id, from_quantity, kind FROM sync_cell_history WHERE ref = ? ORDER BY id LIMIT 1',
      );
      const undoOf = replica.db.prepare<[number], { id: number; note: string | null; delta: number | null; entry_id: number | null }>(
        'SELECT id, note, delta, entry_id FROM sync_cell_history WHERE undoes = ? ORDER BY id LIMIT 1',
      );
      return {
        refs: Object.fromEntries(c.refs.map((r) => [r, byRef.get(r) ?? null])),
        undos: Object.fromEntries(c.undoes.map((h) => [h, undoOf.get(h) ?? null])),
      };
    }
    case 'fates': {
      // Per entry: dropped by the person (discarded, or a count taken theirs) and its state now (null: gone).
      const dropped = replica.db.prepare<[number], number>(
        `SELECT 1 FROM sync_cell_history WHERE entry_id = ? AND (kind = 'discarded' OR (kind = 'conflict_resolution' AND note = 'take theirs')) LIMIT 1`,
      );
      return Object.fromEntries(c.ids.map((id) => [id, { dropped: dropped.pluck(true).get(id) === 1, state: engine.outbox.repo.byId(id)?.state ?? null }]));
    }
    case 'messagesQueued':
      return replica.db
        .prepare<[], { id: number; payload: string }>("SELECT id, payload FROM sync_outbox WHERE kind = 'message' ORDER BY id")
        .all()
        .map((r) => ({ id: r.id, text: (JSON.parse(r.payload) as { text: string }).text }));
    case 'retry':
      engine.retry(c.id);
      return null;
    case 'discard':
      return engine.discard(c.id, { author });
    case 'resolve':
      return engine.resolveConflict(c.id, { action: c.action }, { author });
    case 'mode':
      engine.setMode(c.mode);
      return null;
    case 'drain':
      await engine.drain(c.timeoutMs);
      return engine.status();
    case 'pull':
      return (await engine.pullNow()).incoming.length;
    case 'status':
      return engine.status();
    case 'stop':
      await engine.stop();
      replica.close();
      setImmediate(() => process.exit(0));
      return null;
  }
}

// Commands run one at a time, in order, as a person's calls do.
let chain: Promise<void> = Promise.resolve();
createInterface({ input: process.stdin }).on('line', (line) => {
  const c = JSON.parse(line) as ChildCommand & { n: number };
  chain = chain.then(async () => {
    let answer: string;
    try {
      answer = JSON.stringify({ n: c.n, ok: true, value: (await run(c)) ?? null }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    } catch (e) {
      answer = JSON.stringify({ n: c.n, ok: false, error: e instanceof Error ? e.message : String(e) });
    }
    process.stdout.write(`${answer}\n`);
  });
});
// An orphan (the test runner died) ends itself.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 500).unref();

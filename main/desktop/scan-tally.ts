/**
 * Scan to count's tally (issue 27), kept in the profile's database (migration 032) so that nothing
 * the person saw counted is lost to a reload, a crash or a restart before Apply. Each scan is one
 * small row written (and committed) before the scan is confirmed; the list is those rows added up
 * per product, one tally per station store.
 *
 * Apply turns the counted lines into one adjustment per product (reason received, one history row
 * each) through the same edit paths as the grid and the imports: a replica queues them in the
 * outbox (SyncEngine.queueStockBatch), the local profile writes them through the service
 * (localEdits.editMany). Either way the adjustments, their outbox entries and the deletion of the
 * tally's rows are one transaction: a SIGKILL mid-Apply leaves all of it or none, and a refusal of
 * any line leaves the whole tally to apply again.
 */
import type { TallyAddView, TallyApplyView, TallyLineView, TallyScanView, TallyUndoView, TallyView } from '../../common/tally-views.js';
import type { Db } from '../db/open.js';
import { mirrorRepo } from '../db/repos/mirror.js';
import type { LocationType } from '../db/repos/stock.js';
import { type ScanTallyRepo, type TallyLineRow, type TallyScanRow, scanTallyRepo } from '../db/repos/scan-tally.js';
import type { Principal } from '../service/auth/auth.js';
import type { Clock } from '../service/clock.js';
import { ServiceError, badRequest, isServiceError } from '../service/errors.js';
import type { OperatorStamp } from '../service/operators/operators.js';
import { BatchEditError, type LocalEditsService, atIndex } from '../service/stock/local-edits.js';
import type { SyncEngine } from '../sync/engine.js';
import { assertPairing } from '../service/stock/locations.js';
import { editRefusal, locate } from './grid.js';

/** What the tally needs of a profile (a Profile is one; the outbox's model test builds one over its engine). */
export interface TallyProfile {
  kind: 'local' | 'remote';
  db: Db;
  sellerId: number;
  principal: Principal;
  author: string;
  /** The workstation's operator signed in now; left out: none. */
  operator?: OperatorStamp | null;
  engine: Pick<SyncEngine, 'queueStockBatch' | 'touched'>;
  service: { clock: Clock; localEdits: Pick<LocalEditsService, 'editMany'> };
}

/** What became of an applied line, in the order of the lines: its outbox entry on a replica, its history row. */
export interface TallyApplied {
  entryId: number | null;
  how: string;
  historyId: number;
}

/** Most scans one tally keeps: a day at the counting table is a few thousand; past this, Apply first. */
export const MAX_TALLY_SCANS = 50_000;
/** Most different unknown codes one tally keeps flagged (a scanner reading noise must not fill the disk). */
export const MAX_UNKNOWN_CODES = 200;
/** The history's ref of a product's applied line. */
export const tallyRef = (code: string, scans: number) => `scan ${code} x${scans}`.slice(0, 200);

export const tallyErrors = {
  full: () => badRequest(`The tally keeps at most ${MAX_TALLY_SCANS.toLocaleString('en')} scans: apply it (or clear it) first`),
  tooManyUnknown: (code: string) =>
    badRequest(`Nothing matches the code ${code}, and the tally already keeps ${MAX_UNKNOWN_CODES} unknown codes: it was not kept`),
};

/** Whether the product may keep stock in a store beside its other locations. */
function pairsWithStore(id: string, cells: { type: LocationType }[]): boolean {
  try {
    assertPairing(id, [...cells.map((c) => c.type), 'seller_warehouse']);
    return true;
  } catch {
    return false;
  }
}

const repos = new WeakMap<Db, ScanTallyRepo>();
function repoOf(db: Db): ScanTallyRepo {
  let r = repos.get(db);
  if (!r) repos.set(db, (r = scanTallyRepo(db)));
  return r;
}

const scanView = (s: TallyScanRow): TallyScanView => ({
  seq: s.seq,
  code: s.code,
  userProductId: s.user_product_id,
  title: s.title,
  picture: s.picture,
  delta: s.delta,
  outcome: s.outcome,
  operator: s.operator_name,
});

const lineView = (l: TallyLineRow): TallyLineView => ({
  key: l.user_product_id === null ? `code:${l.code}` : `${l.outcome === 'other' ? 'other:' : ''}${l.user_product_id}`,
  code: l.code,
  userProductId: l.user_product_id,
  title: l.title,
  picture: l.picture,
  outcome: l.outcome,
  scans: l.scans,
  units: l.units,
  lastSeq: l.last_seq,
});

function view(p: TallyProfile, storeId: string): TallyView {
  const repo = repoOf(p.db);
  const lines = repo.lines(p.sellerId, storeId).map(lineView);
  const last = repo.last(p.sellerId, storeId);
  return { storeId, lines, last: last ? scanView(last) : null, scans: lines.reduce((n, l) => n + l.scans, 0) };
}

/** The counted lines Apply writes: products of the store with units. */
const toApply = (lines: TallyLineRow[]) => lines.filter((l): l is TallyLineRow & { user_product_id: string } => l.outcome === 'ok' && l.units > 0);

/** A refused line in words: which product, and why (the code and status kept). */
function lineError(e: unknown, lines: TallyLineRow[]): unknown {
  if (!(e instanceof BatchEditError)) return e;
  const line = lines[e.index];
  const what = line ? (line.title ?? line.user_product_id ?? line.code) : '?';
  const cause = e.cause;
  if (isServiceError(cause))
    return new ServiceError(cause.status, cause.error, `${what}: ${cause.message}`, [
      { code: 'line', userProductId: line?.user_product_id ?? '' },
      ...cause.cause,
    ]);
  return cause;
}

export const scanTally = {
  list: (p: TallyProfile, storeId: string): TallyView => p.db.transaction(() => view(p, storeId))(),

  /**
   * A scanned code adds `quantity` units (one by default) to the store's tally, kept whatever it
   * matched: a code nothing matches, or a product stocked at other stores only, is kept flagged
   * (never applied). Found as the grid's scan finds it (stock.locate).
   */
  add(p: TallyProfile, storeId: string, code: string, quantity = 1): TallyAddView {
    const repo = repoOf(p.db);
    const result = p.db
      .transaction((): TallyAddView => {
        const found = locate(p.db, p.sellerId, { search: code });
        const id = found.userProductId;
        const size = repo.size(p.sellerId, storeId);
        if (size.scans >= MAX_TALLY_SCANS) throw tallyErrors.full();
        let outcome: TallyScanRow['outcome'] = 'unknown';
        if (id !== null) {
          const cells = mirrorRepo(p.db).cells(id);
          const stores = cells.filter((c) => c.type === 'seller_warehouse');
          // Stocked at other stores only, or a product no store may stock (SPEC 2.5's pairs): flagged, as Apply would refuse it.
          outcome = (stores.length > 0 && !stores.some((c) => c.store_key === storeId)) || !pairsWithStore(id, cells) ? 'other' : 'ok';
        } else if (size.unknown >= MAX_UNKNOWN_CODES && !repo.hasUnknown(p.sellerId, storeId, code)) throw tallyErrors.tooManyUnknown(code);
        const seq = repo.add({
          seller_id: p.sellerId,
          store_id: storeId,
          code,
          user_product_id: id,
          outcome,
          delta: quantity,
          title: id === null ? null : (found.title ?? null),
          picture: id === null ? null : (found.picture ?? null),
          operator_id: p.operator?.id ?? null,
          operator_name: p.operator?.name ?? null,
          scanned_at: p.service.clock.now(),
        });
        return { scan: scanView(repo.scan(seq)!), tally: view(p, storeId) };
      })
      .immediate();
    // A scanned product's stock is read next by a first pull (issue 29), as stock.locate does.
    if (result.scan.userProductId !== null) p.engine.touched(result.scan.userProductId);
    return result;
  },

  /** Takes the newest scan out of the store's tally (nothing was written for it yet). */
  undo(p: TallyProfile, storeId: string): TallyUndoView {
    const repo = repoOf(p.db);
    return p.db
      .transaction((): TallyUndoView => {
        const last = repo.last(p.sellerId, storeId);
        if (last) repo.remove(last.seq);
        return { undone: last ? scanView(last) : null, tally: view(p, storeId) };
      })
      .immediate();
  },

  /** Drops the store's tally: nothing of it is applied. */
  clear(p: TallyProfile, storeId: string): TallyView {
    const repo = repoOf(p.db);
    return p.db
      .transaction(() => {
        const last = repo.last(p.sellerId, storeId);
        if (last) repo.clearUpTo(p.sellerId, storeId, last.seq);
        return view(p, storeId);
      })
      .immediate();
  },

  /**
   * One adjustment per counted product with its units (reason received), and the tally emptied
   * (the flagged lines were for reading), in one transaction. A refused line refuses the whole
   * Apply, named; the tally stays as it was.
   */
  async apply(p: TallyProfile, storeId: string): Promise<TallyApplyView & { changed: string[]; results: TallyApplied[] }> {
    const repo = repoOf(p.db);
    const meta = { author: p.author, operator: p.operator ?? null, reason: 'received' as const };
    // Only the scans read here leave the tally: one that comes in meanwhile stays for the next Apply.
    const read = () => {
      const last = repo.last(p.sellerId, storeId);
      return { lines: repo.lines(p.sellerId, storeId), upTo: last?.seq ?? 0 };
    };
    let applied: (TallyLineRow & { user_product_id: string })[] = [];
    let results: TallyApplied[] = [];
    try {
      if (p.kind === 'local') {
        const { lines, upTo } = p.db.transaction(read)();
        applied = toApply(lines);
        const done = await p.service.localEdits.editMany(
          p.principal,
          applied.map((l) => ({
            target: { userProductId: l.user_product_id, type: 'seller_warehouse', storeId },
            change: { delta: l.units },
            meta: { ...meta, ref: tallyRef(l.code, l.scans) },
          })),
          () => repo.clearUpTo(p.sellerId, storeId, upTo),
        );
        results = done.map((r) => ({ entryId: null, how: 'applied', historyId: r.historyId }));
      } else {
        p.db
          .transaction(() => {
            const { lines, upTo } = read();
            applied = toApply(lines);
            // The lock the cell shows refuses it here, as a single edit of the grid is refused (handlers/stock.ts).
            applied.forEach((l, i) =>
              atIndex(i, () => {
                const refusal = editRefusal(p.db, l.user_product_id, 'seller_warehouse');
                if (refusal) throw refusal;
              }),
            );
            if (applied.length > 0)
              results = p.engine.queueStockBatch(
                applied.map((l) => ({
                  userProductId: l.user_product_id,
                  type: 'seller_warehouse',
                  storeId,
                  delta: l.units,
                  ref: tallyRef(l.code, l.scans),
                  ...meta,
                })),
              );
            repo.clearUpTo(p.sellerId, storeId, upTo);
          })
          .immediate();
      }
    } catch (e) {
      throw lineError(e, applied);
    }
    return {
      products: applied.length,
      units: applied.reduce((n, l) => n + l.units, 0),
      tally: scanTally.list(p, storeId),
      changed: applied.map((l) => l.user_product_id),
      results,
    };
  },
};

/**
 * Count sessions (cycle counts, issue 14 §4): count one store's products (all, or those a filter
 * keeps), by scan or typed quantity, optionally blind; review the variances; apply every counted
 * difference at once as counts at their bases. The session and its lines live in the profile's
 * database (migration 014), so a count left half-done is still there after a restart.
 *
 * Applying goes through the same edit paths as the grid: a replica queues the counts in the
 * outbox (SyncEngine.queueStockBatch), the local profile writes them through the service
 * (localEdits.editMany); either way every line and the session's own state are one transaction,
 * so a crash or a reload mid-apply leaves all of it or none.
 *
 * A session's count is an observation at its base (the quantity shown when the line was
 * counted), not a count typed now (main/sync/model.ts): it is queued as a sealed entry of its own,
 * never merged with the grid's edits. When the cell no longer shows its base at Apply (an edit
 * typed after counting, or another workstation's change brought by a pull), the review says so and
 * the count becomes a conflict the person resolves; a change on the marketplace after Apply is
 * found when it is sent, as for any count (main/sync/stock-push.ts).
 *
 * The views of a session, its lines and its review are built in count-session-views.ts.
 */
import type { CountLineView, CountOutsideView, CountReviewView, CountScanView, CountSessionPageView, CountSessionView } from '../../common/count-views.js';
import type { CountLineRow, CountSessionRow } from '../db/repos/count-sessions.js';
import { ServiceError, badRequest, isServiceError } from '../service/errors.js';
import { checkCount } from '../service/stock/cells.js';
import { BatchEditError } from '../service/stock/local-edits.js';
import { assertPairing } from '../service/stock/locations.js';
import { isCounted, lineView, repoOf, reposOf, sessionView, shownNow, variance } from './count-session-views.js';
import { findProduct, gridPage } from './grid.js';
import type { Profile } from './profile.js';

// `operator` may be left out (a bench, a test): none signed in.
export type CountProfile = Pick<Profile, 'kind' | 'db' | 'sellerId' | 'principal' | 'author' | 'engine' | 'service'> & Partial<Pick<Profile, 'operator'>>;

/** Most lines one session holds: a cycle count is a part of the shop; a filter narrows a bigger store. */
export const MAX_COUNT_LINES = 20_000;
const PAGE = 1000;

export const countErrors = {
  notFound: (id: number) => new ServiceError(404, 'not_found', `Count session ${id} not found`),
  notOpen: (id: number, state: string) => new ServiceError(409, 'conflict', `Count session ${id} is ${state}: it can no longer change`),
  unknownCode: (code: string) => new ServiceError(404, 'not_found', `Nothing matches the code ${code}`),
  notAStore: (storeId: string) => badRequest(`Store ${storeId} is not one of your stock locations`),
  tooMany: (n: number) =>
    badRequest(
      `A count holds at most ${MAX_COUNT_LINES.toLocaleString('en')} products; this one would hold ${n.toLocaleString('en')}: narrow it with a filter`,
    ),
};

/** The history's ref of a session's counts. */
export const countRef = (sessionId: number) => `count session ${sessionId}`;

function requireSession(p: CountProfile, id: number): CountSessionRow {
  const s = repoOf(p.db).session(id, p.sellerId);
  if (!s) throw countErrors.notFound(id);
  return s;
}

function requireOpen(p: CountProfile, id: number): CountSessionRow {
  const s = requireSession(p, id);
  if (s.state !== 'open') throw countErrors.notOpen(id, s.state);
  return s;
}

/** A count of a line: its quantity, and its base (taken when the line is first counted, kept after). */
function count(p: CountProfile, s: CountSessionRow, line: CountLineRow, counted: number | null): CountLineRow {
  const repo = repoOf(p.db);
  const now = p.service.clock.now();
  let next: Pick<CountLineRow, 'counted' | 'counted_at' | 'base_version' | 'base_quantity'>;
  if (counted === null) next = { counted: null, counted_at: null, base_version: null, base_quantity: null };
  else if (line.counted !== null) next = { counted, counted_at: now, base_version: line.base_version, base_quantity: line.base_quantity };
  else {
    const cell = shownNow(p.db, s.store_id, line.user_product_id);
    next = { counted, counted_at: now, base_version: cell.version, base_quantity: cell.shown };
  }
  // Who counted it: the operator signed in now (the account alone when none).
  const by = next.counted === null ? null : (p.operator?.name ?? null);
  repo.setCounted(s.id, line.user_product_id, { counted: next.counted, at: next.counted_at, by, version: next.base_version, quantity: next.base_quantity });
  repo.touch(s.id, now);
  return { ...line, ...next, counted_by: by };
}

/** A failed line of a batch in words: which product, and the marketplace's reason. */
function lineError(e: unknown, lines: CountLineRow[]): unknown {
  if (!(e instanceof BatchEditError)) return e;
  const up = lines[e.index]?.user_product_id ?? '?';
  const cause = e.cause;
  if (isServiceError(cause))
    return new ServiceError(cause.status, cause.error, `${up}: ${cause.message}`, [{ code: 'line', userProductId: up }, ...cause.cause]);
  return cause;
}

export const countSessions = {
  /** The seller's sessions, open ones first (at most `limit`). */
  list(p: CountProfile, limit = 20): CountSessionView[] {
    const repo = repoOf(p.db);
    return repo.recent(p.sellerId, limit).map((s) => sessionView(repo, s));
  },

  /** A new session of one store: a line per product the filters keep, with the quantity shown now. */
  start(
    p: CountProfile,
    input: { storeId: string; blind?: boolean | undefined; search?: string | undefined; lowStock?: number | undefined },
  ): CountSessionView {
    const repo = repoOf(p.db);
    const filter = {
      ...(input.search !== undefined && input.search.trim() !== '' ? { search: input.search.trim() } : {}),
      ...(input.lowStock !== undefined ? { lowStock: input.lowStock } : {}),
    };
    const o = { authority: p.kind === 'local' };
    const id = p.db.transaction(() => {
      const lines: { user_product_id: string; title: string | null; start_quantity: number }[] = [];
      for (let offset = 0; ; offset += PAGE) {
        const page = gridPage(p.db, p.sellerId, { store: input.storeId, ...filter, limit: PAGE, offset }, o);
        if (offset === 0) {
          if (!page.columns.some((c) => c.type === 'seller_warehouse' && c.storeId === input.storeId)) throw countErrors.notAStore(input.storeId);
          if (page.total > MAX_COUNT_LINES) throw countErrors.tooMany(page.total);
        }
        for (const r of page.rows) lines.push({ user_product_id: r.userProductId, title: r.title, start_quantity: r.cells[input.storeId]?.shown ?? 0 });
        if (page.rows.length < PAGE) break;
      }
      return repo.create(
        {
          seller_id: p.sellerId,
          store_id: input.storeId,
          filter: Object.keys(filter).length === 0 ? null : JSON.stringify(filter),
          blind: input.blind === true,
          author: p.author,
          operator_id: p.operator?.id ?? null,
          operator_name: p.operator?.name ?? null,
          now: p.service.clock.now(),
        },
        lines,
      );
    })();
    return sessionView(repo, requireSession(p, id));
  },

  /** The session and a page of its lines (expected quantities hidden while a blind session is open). */
  page(p: CountProfile, id: number, limit: number, offset: number): CountSessionPageView {
    const repo = repoOf(p.db);
    return p.db.transaction(() => {
      const s = requireSession(p, id);
      return { session: sessionView(repo, s), total: s.lines, lines: repo.lines(id, limit, offset).map((l) => lineView(s, l)) };
    })();
  },

  /**
   * A scanned (or typed) code: the product is found as the grid's scan finds it (stock.locate), and
   * its line counts `quantity` more (one by default). A product the session did not list (not in
   * its store, or left out by its filter) is counted only when the person chose to add it
   * (`addOutside`); otherwise the answer says so and nothing changes. An unknown code changes nothing.
   */
  scan(p: CountProfile, id: number, code: string, quantity = 1, addOutside = false): CountScanView | CountOutsideView {
    const repo = repoOf(p.db);
    return p.db.transaction((): CountScanView | CountOutsideView => {
      const s = requireOpen(p, id);
      const found = findProduct(p.db, p.sellerId, code.trim())?.id ?? null;
      if (found === null) throw countErrors.unknownCode(code.trim());
      let line = repo.line(id, found);
      const added = !line;
      if (!line) {
        const cells = reposOf(p.db).mirror.cells(found);
        // Only a product that may keep stock in a store (SPEC 2.5's pairs) can be counted in one.
        assertPairing(found, cells.map((c) => c.type).concat('seller_warehouse'));
        if (!addOutside) {
          const inStore = cells.some((c) => c.type === 'seller_warehouse' && c.store_key === s.store_id);
          return { outside: { userProductId: found, title: repo.titleOf(found), why: inStore ? 'filtered_out' : 'not_in_store' } };
        }
        repo.addLine(id, { user_product_id: found, title: repo.titleOf(found), start_quantity: shownNow(p.db, s.store_id, found).shown });
        line = repo.line(id, found)!;
      }
      const previous = line.counted;
      const next = checkCount((previous ?? 0) + quantity);
      const counted = count(p, s, line, next);
      return { line: lineView(s, counted), added, previous };
    })();
  },

  /** Sets a line's count (null: not counted); the product must be a line of the session. */
  set(p: CountProfile, id: number, userProductId: string, counted: number | null): CountLineView {
    const repo = repoOf(p.db);
    return p.db.transaction(() => {
      const s = requireOpen(p, id);
      const line = repo.line(id, userProductId);
      if (!line) throw new ServiceError(404, 'not_found', `${userProductId} is not in count session ${id}`);
      return lineView(s, count(p, s, line, counted === null ? null : checkCount(counted)));
    })();
  },

  /** The variances of the counted lines: counted, expected (the base), the difference, and whether the cell moved since. */
  review(p: CountProfile, id: number): CountReviewView {
    const repo = repoOf(p.db);
    return p.db.transaction((): CountReviewView => {
      const s = requireSession(p, id);
      const lines = repo
        .countedLines(id)
        .filter(isCounted)
        .map((l) => variance(p.db, s, l));
      return {
        session: sessionView(repo, s),
        lines,
        uncounted: s.lines - s.counted,
        totals: {
          over: lines.filter((l) => l.difference > 0).length,
          under: lines.filter((l) => l.difference < 0).length,
          matched: lines.filter((l) => l.difference === 0).length,
          moved: lines.filter((l) => l.moved).length,
        },
      };
    })();
  },

  /**
   * Applies the session: every counted line that differs from its base becomes a count of the
   * store's cell, all in one transaction with the session's own state (applied once: a second
   * apply is refused). Lines that match are recorded as unchanged, lines not counted as skipped.
   */
  async apply(p: CountProfile, id: number): Promise<CountReviewView> {
    const repo = repoOf(p.db);
    const s = requireOpen(p, id);
    const counted = repo.countedLines(id).filter(isCounted);
    const changes = counted.filter((l) => l.counted !== l.base_quantity);
    const ref = countRef(id);
    const target = (l: CountLineRow) => ({ userProductId: l.user_product_id, type: 'seller_warehouse', storeId: s.store_id });
    /** The session's own writes, in the same transaction as the edits. */
    const record = (outcomes: { entry_id: number | null; history_id: number | null; outcome: CountLineRow['outcome'] & string }[]) => {
      changes.forEach((l, i) => repo.setOutcome(id, l.user_product_id, outcomes[i]!));
      for (const l of counted)
        if (l.counted === l.base_quantity) repo.setOutcome(id, l.user_product_id, { entry_id: null, history_id: null, outcome: 'unchanged' });
      repo.skipUncounted(id);
      if (!repo.close(id, 'applied', p.service.clock.now())) throw countErrors.notOpen(id, requireSession(p, id).state);
    };
    try {
      if (p.kind === 'local') {
        await p.service.localEdits.editMany(
          p.principal,
          changes.map((l) => ({ target: target(l), change: { quantity: l.counted }, meta: { author: p.author, operator: p.operator, ref } })),
          (results) => record(results.map((r) => ({ entry_id: null, history_id: r.historyId, outcome: 'applied' }))),
        );
      } else {
        p.db
          .transaction(() => {
            requireOpen(p, id);
            const results =
              changes.length === 0
                ? []
                : p.engine.queueObservedCounts(
                    changes.map((l) => ({
                      ...target(l),
                      quantity: l.counted,
                      base: l.base_quantity ?? l.start_quantity,
                      author: p.author,
                      operator: p.operator,
                      ref,
                    })),
                  );
            record(results.map((r) => ({ entry_id: r.entryId, history_id: r.historyId, outcome: 'queued' })));
          })
          .immediate();
      }
    } catch (e) {
      throw lineError(e, changes);
    }
    return countSessions.review(p, id);
  },

  /** Drops an open session: nothing of it is applied; it stays listed as cancelled. */
  cancel(p: CountProfile, id: number): CountSessionView {
    const repo = repoOf(p.db);
    return p.db.transaction(() => {
      requireOpen(p, id);
      repo.close(id, 'cancelled', p.service.clock.now());
      return sessionView(repo, requireSession(p, id));
    })();
  },

  /** The user products a session's apply changed (for the grid's stock.changed). */
  changedProducts(p: CountProfile, id: number): string[] {
    return repoOf(p.db)
      .countedLines(id)
      .filter((l) => l.outcome !== null && l.outcome !== 'unchanged' && l.outcome !== 'skipped')
      .map((l) => l.user_product_id);
  },
};

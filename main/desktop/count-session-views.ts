/**
 * What a count session shows (main/desktop/count-sessions.ts holds the session's actions): the
 * session and line views, each applied line's outcome read now (its outbox entry's phase on a
 * replica), the review's variances, and what they read: the database's statements, prepared once,
 * and a store cell as the grid shows it now.
 */
import type { CountLineResultView, CountLineView, CountSessionView, CountVarianceView } from '../../common/count-views.js';
import type { Db } from '../db/open.js';
import { type CountLineRow, type CountSessionRow, type CountSessionsRepo, countSessionsRepo } from '../db/repos/count-sessions.js';
import { type HistoryRepo, historyRepo } from '../db/repos/history.js';
import { type MirrorRepo, mirrorRepo } from '../db/repos/mirror.js';
import { type SyncRepo, syncRepo } from '../db/repos/sync.js';
import { phaseOf } from '../sync/model.js';
import { cellKey, overlay } from '../sync/outbox.js';

/** The statements of one database, prepared once (preparing them per line costs milliseconds). */
const repos = new WeakMap<Db, { counts: CountSessionsRepo; mirror: MirrorRepo; sync: SyncRepo; history: HistoryRepo }>();
export function reposOf(db: Db) {
  let r = repos.get(db);
  if (!r) repos.set(db, (r = { counts: countSessionsRepo(db), mirror: mirrorRepo(db), sync: syncRepo(db), history: historyRepo(db) }));
  return r;
}
export const repoOf = (db: Db): CountSessionsRepo => reposOf(db).counts;

export function sessionView(repo: CountSessionsRepo, s: CountSessionRow): CountSessionView {
  return {
    id: s.id,
    storeId: s.store_id,
    storeLabel: repo.storeLabel(s.store_id),
    filter: s.filter === null ? null : (JSON.parse(s.filter) as CountSessionView['filter']),
    blind: s.blind === 1,
    state: s.state,
    author: s.author,
    operator: s.operator_name,
    createdAt: s.created_at,
    updatedAt: s.updated_at,
    appliedAt: s.applied_at,
    lines: s.lines,
    counted: s.counted,
  };
}

export function lineView(s: CountSessionRow, l: CountLineRow): CountLineView {
  const hidden = s.blind === 1 && s.state === 'open';
  return {
    userProductId: l.user_product_id,
    title: l.title,
    position: l.position,
    counted: l.counted,
    expected: hidden ? null : (l.base_quantity ?? l.start_quantity),
    countedAt: l.counted_at,
    countedBy: l.counted_by,
    outcome: l.outcome,
  };
}

/**
 * The store cell of a product as the grid shows it now (main/sync/read-model.ts's rule: the mirror
 * quantity with the cell's active outbox entries applied), and the product's version.
 */
export function shownNow(db: Db, storeId: string, userProductId: string): { shown: number; version: string | null } {
  const { mirror, sync } = reposOf(db);
  const key = cellKey(userProductId, 'seller_warehouse', storeId);
  const entries = sync.activeOfCell(key);
  const version = mirror.product(userProductId)?.version.toString() ?? null;
  // The cell's key: a transfer into this store adds here what it takes from its source.
  return { shown: overlay(mirror.cellQuantity(userProductId, 'seller_warehouse', storeId) ?? 0, entries, key), version };
}

/**
 * What became of an applied line, read now: its outbox entry's phase on a replica (it moves on
 * after Apply), 'applied' where the app is the marketplace.
 */
function resultOf(db: Db, l: CountLineRow): CountLineResultView | null {
  switch (l.outcome) {
    case null:
      return null;
    case 'applied':
    case 'unchanged':
    case 'skipped':
      return l.outcome;
  }
  if (l.entry_id === null) return 'queued';
  const { sync, counts } = reposOf(db);
  const e = sync.byId(l.entry_id);
  // Gone: dropped by the person (discarded, take theirs), or a done entry pruned long after it was sent.
  if (!e) return counts.entryDropped(l.entry_id) ? 'dropped' : 'sent';
  switch (phaseOf(e)) {
    case 'done':
      return 'sent';
    case 'conflict':
      return 'conflict';
    case 'refused':
    case 'unknown':
      return 'failed';
    case 'queued':
      return 'queued';
    case 'on_wire':
    case 'checking':
      return 'sending';
  }
}

export function variance(db: Db, s: CountSessionRow, l: CountLineRow & { counted: number }): CountVarianceView {
  const expected = l.base_quantity ?? l.start_quantity;
  const current = shownNow(db, s.store_id, l.user_product_id).shown;
  // Once applied, the cell shows the count itself: whether it had moved is what it showed just
  // before Apply (the apply's history row), never what it shows now.
  const before = s.state === 'open' || l.history_id === null ? null : (reposOf(db).history.byId(l.history_id)?.from_quantity ?? null);
  return {
    userProductId: l.user_product_id,
    title: l.title,
    counted: l.counted,
    expected,
    difference: l.counted - expected,
    current,
    before,
    moved: s.state === 'open' ? current !== expected : before !== null && before !== expected,
    countedBy: l.counted_by,
    outcome: l.outcome,
    result: s.state === 'open' ? null : resultOf(db, l),
  };
}

export const isCounted = (l: CountLineRow): l is CountLineRow & { counted: number } => l.counted !== null;

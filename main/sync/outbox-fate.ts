import type { OutboxRow } from '../db/repos/sync.js';
import { checkCount } from '../service/stock/cells.js';
import type { StockReason } from '../../common/stock-reasons.js';
import { deltaOn, onTheWire, outcomeUnknown, overlay } from './model.js';
import { type DiscardResult, type EditMeta, type Outbox, type QueueResult, type Resolution, cellOf, outboxErrors, versionOf } from './outbox.js';

/**
 * What happens to an entry after it was queued, by the person's hand (resolve, discard, retry) or
 * once its outcome is learnt (withdrawn): the relations of main/sync/model.ts kept in each case:
 * inverses follow the entry they undo, and the first later count's base loses what it included.
 * Every function runs in the caller's transaction.
 */

/** Resolves a conflict: keep mine (the count at the remote's base), take theirs (dropped), or a new count. */
export function resolve(o: Outbox, e: OutboxRow, resolution: Resolution, meta: EditMeta): QueueResult {
  const c = cellOf(e);
  const { mirror, entries, key } = o.cellState(c);
  const before = overlay(mirror, entries, key);
  const now = o.clock.now();
  const remoteBase = { base_version: versionOf(e.remote_version), base_quantity: e.remote_quantity };
  let note: string;
  if (resolution.action === 'take_theirs') {
    dropInverses(o, e, meta);
    removeAndRebase(o, e, o.repo.activeOfCell(key));
    note = 'take theirs';
  } else {
    if (resolution.action === 'new_count') {
      checkCount(resolution.quantity);
      // A new count replaces what an undo of the old one took back.
      dropInverses(o, e, meta);
    }
    const quantity = resolution.action === 'new_count' ? resolution.quantity : (e.quantity ?? 0);
    // The first later count's base counted on this count's quantity: it moves with it.
    if (quantity !== e.quantity) shiftNextCount(o, e, key, quantity - (e.quantity ?? 0));
    o.repo.updateIntent(e.id, { op: 'count', delta: null, quantity, ...remoteBase }, now);
    o.repo.reopen(e.id, now);
    note = resolution.action === 'keep_mine' ? 'keep mine' : `new count ${quantity}`;
  }
  const after = overlay(mirror, o.repo.activeOfCell(key), key);
  const historyId = o.history(c, 'conflict_resolution', before, after, null, e.id, meta, note);
  return { entryId: resolution.action === 'take_theirs' ? null : e.id, how: 'resolved', shown: after, historyId };
}

/** Drops a queued, refused or conflicting entry; one whose outcome is unknown is checked first. */
export function discard(o: Outbox, id: number, meta: EditMeta): DiscardResult {
  const e = o.repo.byId(id);
  if (!e || e.state === 'done') throw outboxErrors.notFound(id);
  if (e.withdraw === 1) throw outboxErrors.checking(id);
  if (onTheWire(e)) throw outboxErrors.onTheWire(id);
  if (outcomeUnknown(e)) {
    // It may have been applied: never dropped blind. The engine learns the outcome (model.ts).
    o.repo.setWithdraw(id, o.clock.now());
    return { how: 'checking' };
  }
  if (e.kind !== 'stock') o.repo.remove(id);
  else dropStock(o, e, 'discarded', meta, `discarded ${e.state === 'failed' ? 'refused' : e.state} ${e.cell2 ? 'transfer' : e.op}`);
  return { how: 'discarded' };
}

/** Sends a failed entry again: attempts start over; one of unknown outcome goes under the same key. */
export function retry(o: Outbox, id: number): void {
  const e = o.repo.byId(id);
  if (!e) throw outboxErrors.notFound(id);
  if (e.state !== 'failed') throw outboxErrors.notFailed(id);
  o.repo.reopen(id, o.clock.now());
}

/**
 * Removes a stock entry and its inverses (later counts rebased), with a history row on each of its
 * cells. Returns the first row's id.
 */
export function dropStock(o: Outbox, e: OutboxRow, kind: 'discarded' | 'adjustment', meta: EditMeta, note: string, reason: StockReason | null = null): number {
  dropInverses(o, e, meta);
  const cells = [cellOf(e), ...(e.cell2 ? [{ ...cellOf(e), storeKey: e.store_key2 ?? '' }] : [])];
  const before = cells.map((c) => o.shownOf(c));
  removeAndRebase(o, e, o.repo.activeOfCell(e.cell!));
  let first = 0;
  cells.forEach((c, i) => {
    const after = o.shownOf(c);
    const id = o.history(c, kind, before[i]!, after, after - before[i]!, e.id, i === 0 ? meta : { ...meta, undoes: undefined }, note, {
      reason,
      link: i === 0 ? null : first,
    });
    if (i === 0) first = id;
  });
  return first;
}

/** The inverses of `e` go with it (they never go out alone). */
function dropInverses(o: Outbox, e: OutboxRow, meta: EditMeta): void {
  for (const inverse of o.repo.inversesOf(e.id)) {
    if (onTheWire(inverse)) continue; // held behind `e` in its lane, so never the case; kept if it were
    dropStock(o, inverse, 'discarded', { ...meta, undoes: undefined }, `undo withdrawn with entry ${e.id}`);
  }
}

/**
 * Removes a stock entry; the first later count of each of its cells had counted on its effect in
 * its base (model.ts: a base includes every earlier active entry), so that base loses it.
 */
function removeAndRebase(o: Outbox, e: OutboxRow, cellEntries: OutboxRow[]): void {
  o.repo.remove(e.id);
  rebaseAfter(o, e, e.cell!, cellEntries);
  // A transfer was in the queue of its second cell too.
  if (e.cell2) rebaseAfter(o, e, e.cell2, o.repo.activeOfCell(e.cell2));
}

/** Moves the base of the first count after `e` in the cell by `by` (unless it is on the wire: then it cannot change). */
function shiftNextCount(o: Outbox, e: OutboxRow, key: string, by: number): void {
  const next = o.repo.activeOfCell(key).find((x) => x.id > e.id && x.op === 'count');
  if (!next || onTheWire(next) || next.base_quantity === null) return;
  o.repo.updateIntent(
    next.id,
    { op: 'count', delta: null, quantity: next.quantity, base_version: versionOf(next.base_version), base_quantity: next.base_quantity + by },
    o.clock.now(),
  );
}

function rebaseAfter(o: Outbox, e: OutboxRow, key: string, cellEntries: OutboxRow[]): void {
  const later = cellEntries.filter((x) => x.id > e.id);
  const nextCount = later.find((x) => x.op === 'count');
  if (!nextCount || onTheWire(nextCount)) return;
  // A count session's count in conflict at once keeps what it was counted at; its remote figure
  // (what keep mine and take theirs go on) had counted on the dropped entry, so that moves instead.
  const held = nextCount.state === 'conflict';
  const from = held ? nextCount.remote_quantity : nextCount.base_quantity;
  if (from === null) return;
  // The base is a (version, quantity) pair the remote really had.
  let base: number;
  let baseVersion = versionOf(held ? nextCount.remote_version : nextCount.base_version);
  if (e.op === 'adjust') base = from - deltaOn(e, key);
  else {
    const conflict = e.state === 'conflict';
    const start = conflict ? (e.remote_quantity ?? 0) : (e.base_quantity ?? 0);
    baseVersion = versionOf(conflict ? e.remote_version : e.base_version) ?? baseVersion;
    base = later.filter((x) => x.id < nextCount.id && x.op === 'adjust').reduce((s, x) => s + deltaOn(x, key), start);
  }
  if (held) o.repo.setConflictRemote(nextCount.id, baseVersion, base, o.clock.now());
  else
    o.repo.updateIntent(
      nextCount.id,
      { op: 'count', delta: null, quantity: nextCount.quantity, base_version: baseVersion, base_quantity: base },
      o.clock.now(),
    );
}

import type { EditableType, OutboxRow } from '../db/repos/sync.js';
import { badRequest } from '../service/errors.js';
import type { OperatorStamp } from '../service/operators/operators.js';
import { checkCount } from '../service/stock/cells.js';
import { coalescible, isTransfer, outcomeUnknown, overlay, refused } from './model.js';
import { type CellRef, type EditMeta, type Outbox, type UndoResult, versionOf } from './outbox.js';
import { dropStock } from './outbox-fate.js';

/**
 * Undo (main/sync/model.ts): the person's newest edit not undone yet.
 * - Only here (queued, at the end of its cell's queue): withdrawn, reduced or removed.
 * - Refused (nothing of it applied) and made of just that edit: dropped.
 * - Outcome unknown and made of just that edit: an inverse linked to it is queued, and the entry is
 *   checked with the marketplace: never applied → both go ("withdrawn"); applied → the inverse goes.
 * - Anything else whose fate is open (on the wire, in conflict, failed with other edits merged in):
 *   an inverse linked to it, which follows its fate.
 * - Done (or long gone): an ordinary inverse edit with reason 'correction'.
 * Runs in the caller's transaction.
 */
export function undoLast(o: Outbox, author: string, operator: OperatorStamp | null = null): UndoResult {
  const h = o.repo.lastEditOf(author);
  if (!h) return { how: 'nothing', undone: null, historyId: null, userProductId: null };
  const c: CellRef = { userProductId: h.user_product_id, type: h.cell_type as EditableType, storeKey: h.store_key };
  const meta: EditMeta = { author, reason: 'correction', undoes: h.id, operator };
  const e = h.entry_id === null ? undefined : o.repo.byId(h.entry_id);
  const open = e !== undefined && e.state !== 'done' ? e : undefined;
  const done = (how: UndoResult['how'], historyId: number): UndoResult => ({ how, undone: h.id, historyId, userProductId: c.userProductId });

  if (h.reason === 'transfer') {
    if (open && isTransfer(open) && (coalescible(open) || refused(open))) {
      return done('withdrawn', dropStock(o, open, 'adjustment', meta, 'undo: transfer withdrawn', 'correction'));
    }
    const partner = o.repo.historyLinkedTo(h.id);
    if (!partner) throw badRequest('This transfer cannot be undone: its destination is not in the history');
    const linked = open && isTransfer(open) ? open.id : null;
    const historyId = o.transfer(
      { ...c, storeKey: partner.store_key },
      c.storeKey,
      Math.abs(h.delta ?? 0),
      { ...meta, reason: 'correction' },
      linked,
    ).historyId;
    if (open && linked !== null && outcomeUnknown(open)) {
      o.repo.setWithdraw(open.id, o.clock.now());
      return done('checking', historyId);
    }
    return done('inverse', historyId);
  }

  const change = h.kind === 'adjustment' ? (h.delta ?? 0) : (h.to_quantity ?? 0) - (h.from_quantity ?? 0);
  const { mirror, entries, key } = o.cellState(c);
  if (open && entries.at(-1)?.id === open.id && coalescible(open) && !isTransfer(open)) return done('withdrawn', withdrawQueued(o, c, open, h, change, meta));
  const whole = open !== undefined && !isTransfer(open) && isJust(open, h);
  if (open && whole && refused(open)) {
    // Not part of what the cell shows: dropping it takes the edit back.
    return done('withdrawn', dropStock(o, open, 'adjustment', meta, 'undo: refused edit dropped', 'correction'));
  }
  if (change === 0) {
    const shown = overlay(mirror, entries, key);
    return done('inverse', o.history(c, 'adjustment', shown, shown, 0, null, meta, 'undo: nothing to change'));
  }
  // It may have reached the marketplace (or did): an inverse, behind it, following its fate while open.
  const historyId = o.inverse(c, -change, open?.id ?? null, meta);
  if (open && whole && outcomeUnknown(open)) {
    o.repo.setWithdraw(open.id, o.clock.now());
    return done('checking', historyId);
  }
  return done('inverse', historyId);
}

/** Whether the entry is made of just the edit of history row `h` (nothing merged into it). */
function isJust(e: OutboxRow, h: { kind: string; delta: number | null; to_quantity: number | null }): boolean {
  return h.kind === 'adjustment' ? e.op === 'adjust' && e.delta === h.delta : e.op === 'count' && e.quantity === h.to_quantity;
}

/** A queued entry at the end of its cell's queue: the edit comes out of it (the entry reduced or removed). */
function withdrawQueued(
  o: Outbox,
  c: CellRef,
  e: OutboxRow,
  h: { id: number; kind: string; from_quantity: number | null },
  change: number,
  meta: EditMeta,
): number {
  const { mirror, entries, key } = o.cellState(c);
  const before = overlay(mirror, entries, key);
  const now = o.clock.now();
  const base = { base_version: versionOf(e.base_version), base_quantity: e.base_quantity };
  if (h.kind === 'count') {
    const prev = overlay(mirror, entries.slice(0, -1), key);
    // An earlier count merged into the entry stays an intent of its own, even when it equals what the
    // (possibly stale) mirror shows: the remote may differ, and the person counted it.
    const alone = !o.repo.entryHasEarlierEdit(key, e.id, h.id);
    if (alone && (h.from_quantity === prev || h.from_quantity === null)) dropQuiet(o, e);
    else o.repo.updateIntent(e.id, { op: 'count', delta: null, quantity: checkCount(h.from_quantity ?? prev), ...base }, now);
  } else if (e.op === 'adjust') {
    const sum = (e.delta ?? 0) - change;
    if (sum === 0) dropQuiet(o, e);
    else o.repo.updateIntent(e.id, { op: 'adjust', delta: sum, quantity: null, base_version: null, base_quantity: null }, now);
  } else {
    o.repo.updateIntent(e.id, { op: 'count', delta: null, quantity: checkCount((e.quantity ?? 0) - change), ...base }, now);
  }
  const after = o.shownOf(c);
  const live = o.repo.byId(e.id) ? e.id : null;
  return o.history(c, 'adjustment', before, after, after - before, live, meta, 'undo: withdrawn before it was sent');
}

/** Removes a queued entry at the end of its cell's queue: no later count to rebase, no inverse (it was never sent). */
function dropQuiet(o: Outbox, e: OutboxRow): void {
  o.repo.remove(e.id);
}

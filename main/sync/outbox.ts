// Over 400 lines on purpose: the outbox's intents (count, adjust, transfer, message), how they
// coalesce, and undo/withdraw must see one another's rules to stay consistent in one transaction.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.js';
import { type MirrorRepo, mirrorRepo } from '../db/repos/mirror.js';
import { type EditableType, type HistoryKind, type OutboxRow, type SyncRepo, syncRepo } from '../db/repos/sync.js';
import type { Clock } from '../service/clock.js';
import { ServiceError, badRequest } from '../service/errors.js';
import { MAX_QUANTITY } from '../service/stock/locations.js';
import { adjusted, cellKey, checkCount } from '../service/stock/cells.js';
import type { StockReason } from '../../common/stock-reasons.js';

/**
 * The outbox: durable intents and their state machine.
 *
 *   pending ──claim──▶ in_flight ──2xx──────────────▶ done
 *      ▲                  │ 409: re-read, rebase, resend (stays in flight)
 *      │                  ├─ transient / offline ──▶ pending (next_attempt_at; the request is kept)
 *      │                  ├─ count, remote moved ──▶ conflict ──keep mine / new count──▶ pending
 *      │                  │                             └──take theirs──▶ (removed)
 *      │                  └─ 4xx, or attempts spent ▶ failed ──retry──▶ pending
 *      └── start-up: a row left in_flight by a crash goes back to pending  └──discard──▶ (removed)
 *
 * A claim whose request never went out (an entry the engine claimed ahead of a free slot, when
 * sending stops) is undone: back to pending exactly as it was, key included (engine.ts).
 *
 * Every intent is written with its cell-history row in one SQLite transaction
 * (synchronous=FULL), so a call that returned has survived a crash or a power cut.
 *
 * Coalescing (only into the newest entry of the cell, and only while it is pending and has never
 * been put on the wire: an entry whose request may already have reached the remote is never changed):
 * - adjust + adjust → one adjustment of the sum (removed when the sum is 0);
 * - count + adjust → the count, its quantity plus the delta (the base is kept);
 * - adjust + count → the count supersedes the unsent adjustment (also a failed one), which is removed;
 * - count + count → the later count with the earlier base;
 * - a count on a cell whose newest entry is a failed count replaces its quantity and retries it
 *   (the failed request's outcome may be unknown, so the new content goes out under a fresh key);
 * - a count on a cell in conflict resolves the conflict with that count ("enter a new count").
 *
 * Idempotency keys: a key carries one request only. Resending the request on the wire (a
 * transient failure, a restart, Retry on a failed entry) keeps its key; any new request of an
 * entry whose key may have reached the remote (a rebase after 409, new content merged into a
 * failed entry, a resolved conflict) goes out under a fresh key (`key_used`, stock-push.ts).
 *
 * Ordering: entries of one lane (one user product, one conversation) go out one at a time in id
 * order. A stock entry in conflict or failed holds back the later entries of its cell (other
 * cells of the product go on); a failed message holds back the rest of its conversation.
 *
 * Reasons (issue 14 §6): every stock entry and history row says why (received, damaged, …; a
 * count is 'count'). Adjustments coalesce only with an adjustment of the same reason.
 *
 * Transfers (issue 14 §5): N units from one store of a product to another are ONE entry: an
 * adjustment of -N on `cell` with `cell2` (+N) beside it, sent as one seller_warehouse PUT carrying
 * both locations under one x-version, so the marketplace applies both or neither. It is an entry
 * of both cells (their queues, their shown quantities, lanes.ts holds both), never coalesced with
 * anything, and rebased on 409 like an adjustment. Its history is a row on each cell.
 *
 * Undo (`undoLast`): the person's newest edit not undone yet. An entry still pending and never put
 * on the wire, at the end of its cell's queue, is withdrawn (reduced or removed); a failed entry
 * made of just that edit is dropped; anything that may have reached the marketplace (on the wire,
 * done) gets an inverse edit with reason 'correction', queued behind it (so it goes after it lands).
 *
 * Shown quantity: pending and in-flight entries apply; a failed one does not (the marketplace
 * refused it or it was given up), nor does it count in a later count's base.
 */

/**
 * A new idempotency key: a UUID of version 7 (RFC 9562), 48 bits of Unix milliseconds then 74
 * random bits. Keys made later sort later, so the remote's index of keys grows at its end instead
 * of taking a random page per request (random version-4 keys cost the bench's remote about 25 µs
 * of CPU more per PUT); the random bits keep the keys of one millisecond apart.
 */
export function newKey(now: number = Date.now()): string {
  const time = Math.max(0, Math.min(now, 0xffffffffffff)).toString(16).padStart(12, '0');
  // randomUUID's version nibble (index 14) becomes 7; its variant bits stay as they are.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`;
}

export { cellKey };
export const stockLane = (userProductId: string) => `up:${userProductId}`;
export const packLane = (packId: number) => `pack:${packId}`;

export type Resolution = { action: 'keep_mine' } | { action: 'take_theirs' } | { action: 'new_count'; quantity: number };

export interface CellRef {
  userProductId: string;
  type: EditableType;
  /** The store for seller_warehouse; '' for selling_address. */
  storeKey: string;
}

export interface QueueResult {
  /** The outbox entry now carrying this edit (a new one or the one it was merged into); null when it cancelled out. */
  entryId: number | null;
  /** queued: a new entry; merged: coalesced into the cell's newest entry; cancelled: summed to nothing; resolved: resolved a conflict. */
  how: 'queued' | 'merged' | 'cancelled' | 'resolved';
  /** What the grid shows for the cell after this edit. */
  shown: number;
  historyId: number;
}

export interface EditMeta {
  author?: string;
  /** A caller's reference for the edit, kept in the cell history. */
  ref?: string;
  /** Why (default: 'correction' for an adjustment; a count is always 'count'). */
  reason?: StockReason;
  /** The history row this edit undoes (an undo's inverse edit). */
  undoes?: number;
}

export interface TransferResult extends QueueResult {
  /** What the destination cell shows after it, and its history row. */
  shownTo: number;
  historyIdTo: number;
}

export interface UndoResult {
  how: 'withdrawn' | 'inverse' | 'nothing';
  /** The history row taken back; the undo's own row. */
  undone: number | null;
  historyId: number | null;
  userProductId: string | null;
}

/** True while an entry may still be changed: pending and never put on the wire. */
export const coalescible = (e: OutboxRow) => e.state === 'pending' && e.sent_version === null;
/** True when the entry's request may have reached the remote (outcome unknown). */
export const onTheWire = (e: OutboxRow) => e.state === 'in_flight' || (e.state === 'pending' && e.sent_version !== null);
/** A transfer between two stores (one entry, two cells). */
export const isTransfer = (e: Pick<OutboxRow, 'cell2'>) => (e.cell2 ?? null) !== null;

type OverlayEntry = Pick<OutboxRow, 'op' | 'delta' | 'quantity'> & Partial<Pick<OutboxRow, 'state' | 'cell2'>>;

/** An adjustment's (or a transfer's) delta on `cell`: a transfer adds the opposite on its second cell. */
export const deltaOn = (e: Pick<OutboxRow, 'delta'> & Partial<Pick<OutboxRow, 'cell2'>>, cell?: string) =>
  cell !== undefined && (e.cell2 ?? null) === cell ? -(e.delta ?? 0) : (e.delta ?? 0);

/**
 * What the grid shows: the mirror quantity with the cell's active intents applied in order; a
 * failed one is not applied (the marketplace did not take it). `cell` names the cell when a
 * transfer may be among them (it adds on its second cell what it takes from its first).
 */
export function overlay(mirrorQuantity: number, entries: OverlayEntry[], cell?: string): number {
  let q = mirrorQuantity;
  for (const e of entries) {
    if (e.state === 'failed') continue;
    q = e.op === 'adjust' ? q + deltaOn(e, cell) : (e.quantity ?? q);
  }
  return q;
}

export const outboxErrors = {
  notFound: (id: number) => new ServiceError(404, 'not_found', `Outbox entry ${id} not found`),
  notConflict: (id: number) => new ServiceError(409, 'conflict', `Outbox entry ${id} is not a conflict`),
  notFailed: (id: number) => new ServiceError(409, 'conflict', `Outbox entry ${id} has not failed`),
  onTheWire: (id: number) =>
    new ServiceError(409, 'conflict', `Outbox entry ${id} is being sent and may already be applied; it can be discarded once it fails`),
  undoStuck: (id: number, state: string) =>
    new ServiceError(
      409,
      'conflict',
      `The last edit is ${state === 'failed' ? 'failed with other changes merged into it' : 'in conflict'} (entry ${id}): ${state === 'failed' ? 'retry or discard it' : 'resolve the conflict'} instead`,
    ),
};

export class Outbox {
  readonly repo: SyncRepo;
  readonly mirror: MirrorRepo;

  constructor(
    readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.repo = syncRepo(db);
    this.mirror = mirrorRepo(db);
  }

  /** The mirror quantity and active entries of a cell. */
  cellState(c: CellRef): { mirror: number; entries: OutboxRow[]; key: string } {
    const key = cellKey(c.userProductId, c.type, c.storeKey);
    return { mirror: this.mirror.cellQuantity(c.userProductId, c.type, c.storeKey) ?? 0, entries: this.repo.activeOfCell(key), key };
  }

  /** What a cell shows now. */
  shownOf(c: CellRef): number {
    const { mirror, entries, key } = this.cellState(c);
    return overlay(mirror, entries, key);
  }

  private history(
    c: CellRef,
    kind: HistoryKind,
    from: number | null,
    to: number | null,
    delta: number | null,
    entryId: number | null,
    meta: EditMeta,
    note: string | null = null,
    extra: { reason?: StockReason | null; link?: number | null } = {},
  ): number {
    return this.repo.insertHistory({
      cell: cellKey(c.userProductId, c.type, c.storeKey),
      user_product_id: c.userProductId,
      cell_type: c.type,
      store_key: c.storeKey,
      kind,
      author: meta.author ?? 'local',
      at: this.clock.now(),
      from_quantity: from,
      to_quantity: to,
      delta,
      entry_id: entryId,
      ref: meta.ref ?? null,
      note,
      reason: extra.reason !== undefined ? extra.reason : kind === 'count' ? 'count' : kind === 'adjustment' ? (meta.reason ?? 'correction') : null,
      undoes: meta.undoes ?? null,
      link: extra.link ?? null,
    });
  }

  private newStock(
    c: CellRef,
    fields: {
      op: 'adjust' | 'count';
      delta?: number;
      quantity?: number;
      base_version?: bigint | null;
      base_quantity?: number | null;
      reason?: StockReason;
      cell2?: string;
      store_key2?: string;
    },
  ): number {
    return this.repo.insert({
      kind: 'stock',
      lane: stockLane(c.userProductId),
      idempotency_key: newKey(),
      now: this.clock.now(),
      user_product_id: c.userProductId,
      cell_type: c.type,
      store_key: c.storeKey,
      cell: cellKey(c.userProductId, c.type, c.storeKey),
      ...fields,
    });
  }

  /** An adjustment (a delta), coalesced per the rules above; one transaction. */
  adjust(c: CellRef, delta: number, meta: EditMeta = {}): QueueResult {
    return this.db
      .transaction((): QueueResult => {
        const { mirror, entries, key } = this.cellState(c);
        const before = overlay(mirror, entries, key);
        const after = adjusted(before, delta);
        const now = this.clock.now();
        const reason = meta.reason ?? 'correction';
        const tail = entries.at(-1);
        let entryId: number | null;
        let how: QueueResult['how'];
        if (tail && coalescible(tail) && !isTransfer(tail) && tail.op === 'adjust' && (tail.reason ?? 'correction') === reason) {
          const sum = (tail.delta ?? 0) + delta;
          if (sum === 0) {
            this.repo.remove(tail.id);
            entryId = null;
            how = 'cancelled';
          } else {
            this.repo.updateIntent(tail.id, { op: 'adjust', delta: sum, quantity: null, base_version: null, base_quantity: null }, now);
            entryId = tail.id;
            how = 'merged';
          }
        } else if (tail && coalescible(tail) && !isTransfer(tail) && tail.op === 'count') {
          this.repo.updateIntent(
            tail.id,
            { op: 'count', delta: null, quantity: (tail.quantity ?? 0) + delta, base_version: versionOf(tail.base_version), base_quantity: tail.base_quantity },
            now,
          );
          entryId = tail.id;
          how = 'merged';
        } else {
          entryId = this.newStock(c, { op: 'adjust', delta, reason });
          how = 'queued';
        }
        const historyId = this.history(c, 'adjustment', before, after, delta, entryId, meta);
        return { entryId, how, shown: after, historyId };
      })
      .immediate();
  }

  /** A count (an absolute quantity observed now), coalesced per the rules above; one transaction. */
  count(c: CellRef, quantity: number, meta: EditMeta = {}): QueueResult {
    return this.db
      .transaction((): QueueResult => {
        const { mirror, entries, key } = this.cellState(c);
        const before = overlay(mirror, entries, key);
        const now = this.clock.now();
        // The count supersedes unsent (or failed) adjustments at the end of the cell's queue (not a
        // transfer: it moves units of another store too).
        for (
          let tail = entries.at(-1);
          tail && tail.op === 'adjust' && !isTransfer(tail) && (coalescible(tail) || tail.state === 'failed');
          tail = entries.at(-1)
        ) {
          this.repo.remove(tail.id);
          entries.pop();
        }
        const tail = entries.at(-1);
        let entryId: number;
        let how: QueueResult['how'] = 'merged';
        let historyId: number;
        if (tail && tail.op === 'count' && (coalescible(tail) || tail.state === 'failed')) {
          this.repo.updateIntent(
            tail.id,
            { op: 'count', delta: null, quantity, base_version: versionOf(tail.base_version), base_quantity: tail.base_quantity },
            now,
          );
          if (tail.state === 'failed') {
            // New content: the failed request is dropped, the next one gets its own key.
            this.repo.clearSent(tail.id);
            this.repo.reopen(tail.id, now);
          }
          entryId = tail.id;
          historyId = this.history(c, 'count', before, quantity, null, entryId, meta);
        } else if (tail && tail.state === 'conflict') {
          // A count typed on a cell in conflict is the "enter a new count" resolution.
          historyId = this.resolveInTx(tail, { action: 'new_count', quantity }, meta).historyId;
          entryId = tail.id;
          how = 'resolved';
        } else {
          const product = this.mirror.product(c.userProductId);
          entryId = this.newStock(c, {
            op: 'count',
            quantity,
            base_version: product?.version ?? null,
            base_quantity: overlay(mirror, entries, key),
            reason: 'count',
          });
          how = 'queued';
          historyId = this.history(c, 'count', before, quantity, null, entryId, meta);
        }
        return { entryId, how, shown: quantity, historyId };
      })
      .immediate();
  }

  /** Resolves a conflict: keep mine (re-queue the count at the new base), take theirs (drop it), or a new count. */
  resolve(id: number, resolution: Resolution, meta: EditMeta = {}): QueueResult {
    return this.db
      .transaction((): QueueResult => {
        const e = this.repo.byId(id);
        if (!e) throw outboxErrors.notFound(id);
        if (e.state !== 'conflict' || e.kind !== 'stock') throw outboxErrors.notConflict(id);
        return this.resolveInTx(e, resolution, meta);
      })
      .immediate();
  }

  private resolveInTx(e: OutboxRow, resolution: Resolution, meta: EditMeta): QueueResult {
    const c = cellOf(e);
    const { mirror, entries, key } = this.cellState(c);
    const before = overlay(mirror, entries, key);
    const now = this.clock.now();
    const remoteBase = { base_version: versionOf(e.remote_version), base_quantity: e.remote_quantity };
    let note: string;
    if (resolution.action === 'take_theirs') {
      this.removeAndRebase(e, entries);
      note = 'take theirs';
    } else {
      if (resolution.action === 'new_count') checkCount(resolution.quantity);
      const quantity = resolution.action === 'new_count' ? resolution.quantity : (e.quantity ?? 0);
      this.repo.updateIntent(e.id, { op: 'count', delta: null, quantity, ...remoteBase }, now);
      this.repo.reopen(e.id, now);
      note = resolution.action === 'keep_mine' ? 'keep mine' : `new count ${quantity}`;
    }
    const after = overlay(mirror, this.repo.activeOfCell(key), key);
    const historyId = this.history(c, 'conflict_resolution', before, after, null, e.id, meta, note);
    return { entryId: resolution.action === 'take_theirs' ? null : e.id, how: 'resolved', shown: after, historyId };
  }

  /**
   * Removes a stock entry; the first later count of the cell had counted on its effect in its
   * base, so that base is corrected (an adjustment's delta comes off; after a dropped count the
   * base becomes the remote value seen at the conflict, or the dropped count's own base).
   */
  private removeAndRebase(e: OutboxRow, cellEntries: OutboxRow[]): void {
    this.repo.remove(e.id);
    this.rebaseAfter(e, e.cell!, cellEntries);
    // A transfer was in the queue of its second cell too.
    if (e.cell2) this.rebaseAfter(e, e.cell2, this.repo.activeOfCell(e.cell2));
  }

  private rebaseAfter(e: OutboxRow, key: string, cellEntries: OutboxRow[]): void {
    const later = cellEntries.filter((x) => x.id > e.id);
    const nextCount = later.find((x) => x.op === 'count');
    if (!nextCount || onTheWire(nextCount) || nextCount.base_quantity === null) return;
    // The base is a (version, quantity) pair the remote really had.
    let base: number;
    let baseVersion = versionOf(nextCount.base_version);
    if (e.op === 'adjust') base = nextCount.base_quantity - deltaOn(e, key);
    else {
      const conflict = e.state === 'conflict';
      const start = conflict ? (e.remote_quantity ?? 0) : (e.base_quantity ?? 0);
      baseVersion = versionOf(conflict ? e.remote_version : e.base_version) ?? baseVersion;
      base = later.filter((x) => x.id < nextCount.id && x.op === 'adjust' && x.state !== 'failed').reduce((s, x) => s + deltaOn(x, key), start);
    }
    this.repo.updateIntent(
      nextCount.id,
      { op: 'count', delta: null, quantity: nextCount.quantity, base_version: baseVersion, base_quantity: base },
      this.clock.now(),
    );
  }

  /** Drops a pending (never sent), failed or conflicting entry. */
  discard(id: number, meta: EditMeta = {}): void {
    this.db
      .transaction(() => {
        const e = this.repo.byId(id);
        if (!e || e.state === 'done') throw outboxErrors.notFound(id);
        if (onTheWire(e)) throw outboxErrors.onTheWire(id);
        if (e.kind !== 'stock') {
          this.repo.remove(id);
          return;
        }
        this.dropStock(e, 'discarded', meta, `discarded ${e.state} ${isTransfer(e) ? 'transfer' : e.op}`);
      })
      .immediate();
  }

  /** Removes a stock entry (its later counts rebased) with a history row on each of its cells. */
  private dropStock(e: OutboxRow, kind: 'discarded' | 'adjustment', meta: EditMeta, note: string, reason: StockReason | null = null): number {
    const cells = [cellOf(e), ...(e.cell2 ? [{ ...cellOf(e), storeKey: e.store_key2 ?? '' }] : [])];
    const before = cells.map((c) => this.shownOf(c));
    const entries = this.repo.activeOfCell(e.cell!);
    this.removeAndRebase(e, entries);
    let first = 0;
    cells.forEach((c, i) => {
      const after = this.shownOf(c);
      const id = this.history(c, kind, before[i]!, after, after - before[i]!, e.id, i === 0 ? meta : { ...meta, undoes: undefined }, note, {
        reason,
        link: i === 0 ? null : first,
      });
      if (i === 0) first = id;
    });
    return first;
  }

  /**
   * A transfer of `units` from one store of a user product to another: one entry, a history row
   * on each cell (reason 'transfer'), in one transaction. Refused when the source would go below 0.
   */
  transfer(from: CellRef, toStoreKey: string, units: number, meta: EditMeta = {}): TransferResult {
    if (from.type !== 'seller_warehouse' || toStoreKey === '' || toStoreKey === from.storeKey) {
      throw badRequest('A transfer moves units between two different stores of the seller');
    }
    if (!Number.isInteger(units) || units <= 0 || units > MAX_QUANTITY) throw badRequest(`A transfer moves 1 to ${MAX_QUANTITY} units`);
    const to: CellRef = { ...from, storeKey: toStoreKey };
    const reason = meta.reason ?? 'transfer';
    return this.db
      .transaction((): TransferResult => {
        const fromBefore = this.shownOf(from);
        const toBefore = this.shownOf(to);
        const fromAfter = adjusted(fromBefore, -units);
        const toAfter = adjusted(toBefore, units);
        const toKey = cellKey(to.userProductId, to.type, to.storeKey);
        const entryId = this.newStock(from, { op: 'adjust', delta: -units, reason, cell2: toKey, store_key2: to.storeKey });
        const historyId = this.history(from, 'adjustment', fromBefore, fromAfter, -units, entryId, meta, `transfer to ${to.storeKey}`, { reason });
        const historyIdTo = this.history(
          to,
          'adjustment',
          toBefore,
          toAfter,
          units,
          entryId,
          { ...meta, undoes: undefined },
          `transfer from ${from.storeKey}`,
          {
            reason,
            link: historyId,
          },
        );
        return { entryId, how: 'queued', shown: fromAfter, historyId, shownTo: toAfter, historyIdTo };
      })
      .immediate();
  }

  /**
   * Takes back `author`'s newest edit that is not undone yet (see the header): withdrawn while it
   * is only here, an inverse edit (reason 'correction') once it may have reached the marketplace.
   */
  undoLast(author: string): UndoResult {
    return this.db
      .transaction((): UndoResult => {
        const h = this.repo.lastEditOf(author);
        if (!h) return { how: 'nothing', undone: null, historyId: null, userProductId: null };
        const c: CellRef = { userProductId: h.user_product_id, type: h.cell_type as EditableType, storeKey: h.store_key };
        const meta: EditMeta = { author, reason: 'correction', undoes: h.id };
        const e = h.entry_id === null ? undefined : this.repo.byId(h.entry_id);
        const done = (how: UndoResult['how'], historyId: number): UndoResult => ({ how, undone: h.id, historyId, userProductId: c.userProductId });
        if (h.reason === 'transfer') {
          const partner = this.repo.historyLinkedTo(h.id);
          if (e && isTransfer(e) && (coalescible(e) || e.state === 'failed')) {
            return done('withdrawn', this.dropStock(e, 'adjustment', meta, 'undo: transfer withdrawn', 'correction'));
          }
          if (!partner) throw badRequest('This transfer cannot be undone: its destination is not in the history');
          return done(
            'inverse',
            this.transfer({ ...c, storeKey: partner.store_key }, c.storeKey, Math.abs(h.delta ?? 0), { ...meta, reason: 'correction' }).historyId,
          );
        }
        const change = h.kind === 'adjustment' ? (h.delta ?? 0) : (h.to_quantity ?? 0) - (h.from_quantity ?? 0);
        const { mirror, entries, key } = this.cellState(c);
        const tail = entries.at(-1);
        if (e && tail?.id === e.id && coalescible(e) && !isTransfer(e)) {
          const before = overlay(mirror, entries, key);
          const now = this.clock.now();
          const base = { base_version: versionOf(e.base_version), base_quantity: e.base_quantity };
          if (h.kind === 'count') {
            const prev = overlay(mirror, entries.slice(0, -1), key);
            if (h.from_quantity === prev || h.from_quantity === null) this.removeAndRebase(e, entries);
            else this.repo.updateIntent(e.id, { op: 'count', delta: null, quantity: checkCount(h.from_quantity), ...base }, now);
          } else if (e.op === 'adjust') {
            const sum = (e.delta ?? 0) - change;
            if (sum === 0) this.removeAndRebase(e, entries);
            else this.repo.updateIntent(e.id, { op: 'adjust', delta: sum, quantity: null, base_version: null, base_quantity: null }, now);
          } else {
            this.repo.updateIntent(e.id, { op: 'count', delta: null, quantity: checkCount((e.quantity ?? 0) - change), ...base }, now);
          }
          const after = this.shownOf(c);
          const live = this.repo.byId(e.id) ? e.id : null;
          return done('withdrawn', this.history(c, 'adjustment', before, after, after - before, live, meta, 'undo: withdrawn before it was sent'));
        }
        if (
          e &&
          e.state === 'failed' &&
          !isTransfer(e) &&
          (h.kind === 'adjustment' ? e.op === 'adjust' && e.delta === h.delta : e.op === 'count' && e.quantity === h.to_quantity)
        ) {
          // Not part of what the cell shows: dropping it takes the edit back.
          return done('withdrawn', this.dropStock(e, 'adjustment', meta, 'undo: failed edit dropped', 'correction'));
        }
        if (e && (e.state === 'failed' || e.state === 'conflict')) throw outboxErrors.undoStuck(e.id, e.state);
        if (change === 0) {
          const shown = overlay(mirror, entries, key);
          return done('inverse', this.history(c, 'adjustment', shown, shown, 0, null, meta, 'undo: nothing to change'));
        }
        // It may have reached the marketplace (or did): an inverse adjustment, queued behind it.
        return done('inverse', this.adjust(c, -change, meta).historyId);
      })
      .immediate();
  }

  /** Sends a failed entry again (attempts start over). */
  retry(id: number): void {
    this.db
      .transaction(() => {
        const e = this.repo.byId(id);
        if (!e) throw outboxErrors.notFound(id);
        if (e.state !== 'failed') throw outboxErrors.notFailed(id);
        this.repo.reopen(id, this.clock.now());
      })
      .immediate();
  }
}

export const versionOf = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

export function cellOf(e: Pick<OutboxRow, 'user_product_id' | 'cell_type' | 'store_key'>): CellRef {
  return { userProductId: e.user_product_id!, type: e.cell_type!, storeKey: e.store_key ?? '' };
}

import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.js';
import { type MirrorRepo, mirrorRepo } from '../db/repos/mirror.js';
import { type EditableType, type HistoryKind, type OutboxRow, type SyncRepo, syncRepo } from '../db/repos/sync.js';
import type { Clock } from '../service/clock.js';
import { ServiceError } from '../service/errors.js';
import { adjusted, cellKey, checkCount } from '../service/stock/cells.js';

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
 */

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
}

/** True while an entry may still be changed: pending and never put on the wire. */
export const coalescible = (e: OutboxRow) => e.state === 'pending' && e.sent_version === null;
/** True when the entry's request may have reached the remote (outcome unknown). */
export const onTheWire = (e: OutboxRow) => e.state === 'in_flight' || (e.state === 'pending' && e.sent_version !== null);

/** What the grid shows: the mirror quantity with every active intent of the cell applied in order. */
export function overlay(mirrorQuantity: number, entries: Pick<OutboxRow, 'op' | 'delta' | 'quantity'>[]): number {
  let q = mirrorQuantity;
  for (const e of entries) q = e.op === 'adjust' ? q + (e.delta ?? 0) : (e.quantity ?? q);
  return q;
}

export const outboxErrors = {
  notFound: (id: number) => new ServiceError(404, 'not_found', `Outbox entry ${id} not found`),
  notConflict: (id: number) => new ServiceError(409, 'conflict', `Outbox entry ${id} is not a conflict`),
  notFailed: (id: number) => new ServiceError(409, 'conflict', `Outbox entry ${id} has not failed`),
  onTheWire: (id: number) =>
    new ServiceError(409, 'conflict', `Outbox entry ${id} is being sent and may already be applied; it can be discarded once it fails`),
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
  cellState(c: CellRef): { mirror: number; entries: OutboxRow[] } {
    return {
      mirror: this.mirror.cellQuantity(c.userProductId, c.type, c.storeKey) ?? 0,
      entries: this.repo.activeOfCell(cellKey(c.userProductId, c.type, c.storeKey)),
    };
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
    });
  }

  private newStock(
    c: CellRef,
    fields: { op: 'adjust' | 'count'; delta?: number; quantity?: number; base_version?: bigint | null; base_quantity?: number | null },
  ): number {
    return this.repo.insert({
      kind: 'stock',
      lane: stockLane(c.userProductId),
      idempotency_key: randomUUID(),
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
        const { mirror, entries } = this.cellState(c);
        const before = overlay(mirror, entries);
        const after = adjusted(before, delta);
        const now = this.clock.now();
        const tail = entries.at(-1);
        let entryId: number | null;
        let how: QueueResult['how'];
        if (tail && coalescible(tail) && tail.op === 'adjust') {
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
        } else if (tail && coalescible(tail) && tail.op === 'count') {
          this.repo.updateIntent(
            tail.id,
            { op: 'count', delta: null, quantity: (tail.quantity ?? 0) + delta, base_version: versionOf(tail.base_version), base_quantity: tail.base_quantity },
            now,
          );
          entryId = tail.id;
          how = 'merged';
        } else {
          entryId = this.newStock(c, { op: 'adjust', delta });
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
        const { mirror, entries } = this.cellState(c);
        const before = overlay(mirror, entries);
        const now = this.clock.now();
        // The count supersedes unsent (or failed) adjustments at the end of the cell's queue.
        for (let tail = entries.at(-1); tail && tail.op === 'adjust' && (coalescible(tail) || tail.state === 'failed'); tail = entries.at(-1)) {
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
          entryId = this.newStock(c, { op: 'count', quantity, base_version: product?.version ?? null, base_quantity: overlay(mirror, entries) });
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
    const { mirror, entries } = this.cellState(c);
    const before = overlay(mirror, entries);
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
    const after = overlay(mirror, this.repo.activeOfCell(cellKey(c.userProductId, c.type, c.storeKey)));
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
    const later = cellEntries.filter((x) => x.id > e.id);
    const nextCount = later.find((x) => x.op === 'count');
    if (!nextCount || onTheWire(nextCount) || nextCount.base_quantity === null) return;
    // The base is a (version, quantity) pair the remote really had.
    let base: number;
    let baseVersion = versionOf(nextCount.base_version);
    if (e.op === 'adjust') base = nextCount.base_quantity - (e.delta ?? 0);
    else {
      const conflict = e.state === 'conflict';
      const start = conflict ? (e.remote_quantity ?? 0) : (e.base_quantity ?? 0);
      baseVersion = versionOf(conflict ? e.remote_version : e.base_version) ?? baseVersion;
      base = later.filter((x) => x.id < nextCount.id && x.op === 'adjust').reduce((s, x) => s + (x.delta ?? 0), start);
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
        const c = cellOf(e);
        const { mirror, entries } = this.cellState(c);
        const before = overlay(mirror, entries);
        this.removeAndRebase(e, entries);
        const after = overlay(mirror, this.repo.activeOfCell(e.cell!));
        this.history(c, 'discarded', before, after, e.op === 'adjust' ? -(e.delta ?? 0) : null, id, meta, `discarded ${e.state} ${e.op}`);
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

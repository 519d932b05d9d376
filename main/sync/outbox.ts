import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.js';
import { type MirrorRepo, mirrorRepo } from '../db/repos/mirror.js';
import { type EditableType, type HistoryKind, type OutboxRow, type SyncRepo, syncRepo } from '../db/repos/sync.js';
import type { Clock } from '../service/clock.js';
import { ServiceError, badRequest } from '../service/errors.js';
import { MAX_QUANTITY } from '../service/stock/locations.js';
import { adjusted, cellKey, checkCount, transferred } from '../service/stock/cells.js';
import type { StockReason } from '../../common/stock-reasons.js';
import { type OperatorStamp, operatorColumns } from '../service/operators/operators.js';
import { baseOverlay, coalescible, isTransfer, overlay, refused } from './model.js';
import { discard, dropStock, resolve, retry } from './outbox-fate.js';
import { undoLast } from './outbox-undo.js';
import { stockLane } from './kinds/lanes.js';

/**
 * The outbox: durable intents, each written with its cell-history row in one SQLite transaction
 * (synchronous=FULL), so a call that returned has survived a crash or a power cut. The life of an
 * entry and the relations between entries are the model of main/sync/model.ts; this module queues
 * the intents, outbox-fate.ts resolves, discards, retries and withdraws them, outbox-undo.ts undoes.
 *
 * Coalescing (only into the newest entry of the cell, and only while it is coalescible: pending,
 * never put on the wire, not sealed, not an inverse):
 * - adjust + adjust of the same reason → one adjustment of the sum (removed when the sum is 0);
 * - adjust + count → NOT merged: the adjustments go first and the count's base counts on them;
 * - count + count → the later count with the earlier base; a count on a cell whose newest entry is
 *   a refused count replaces its quantity and sends it again (under a fresh key);
 * - count + adjust → NOT merged: the adjustment stays its own intent (take theirs on the count keeps it);
 * - a count on a cell in conflict resolves the conflict with that count ("enter a new count").
 *
 * Idempotency keys: a key carries one request only. Resending the request on the wire (a
 * transient failure, a restart, Retry of an entry of unknown outcome) keeps its key; any new
 * request of an entry whose key may have reached the remote goes out under a fresh key.
 *
 * Ordering: entries of one lane (one user product, one conversation) go out one at a time in id
 * order. A stock entry in conflict or failed holds back the later entries of its cell; a failed
 * message holds back the rest of its conversation (lanes.ts).
 *
 * Transfers: N units from one store of a product to another are ONE entry: an adjustment of -N
 * on `cell` with `cell2` (+N) beside it, sent as one seller_warehouse PUT carrying both locations
 * under one x-version. Never coalesced; rebased on 409 like an adjustment; a history row on each cell.
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
export { packLane, stockLane } from './kinds/lanes.js';

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
  /** The workstation's operator signed in (issue 27); the account stays the author. */
  operator?: OperatorStamp | null;
}

export interface TransferResult extends QueueResult {
  /** What the destination cell shows after it, and its history row. */
  shownTo: number;
  historyIdTo: number;
}

export interface UndoResult {
  /**
   * withdrawn: taken out before anything of it was applied; inverse: an inverse edit queued (it
   * follows the edit while that edit's fate is open); checking: the edit's outcome is unknown, so
   * it is learnt first (withdrawn if it never applied, else the inverse goes); nothing: no edit left.
   */
  how: 'withdrawn' | 'inverse' | 'checking' | 'nothing';
  /** The history row taken back; the undo's own row. */
  undone: number | null;
  historyId: number | null;
  userProductId: string | null;
}

/** What discarding an entry did: removed now, or its outcome is being learnt first (unknown). */
export type DiscardResult = { how: 'discarded' | 'checking' };

export { coalescible, deltaOn, isTransfer, onTheWire, overlay } from './model.js';

export const outboxErrors = {
  notFound: (id: number) => new ServiceError(404, 'not_found', `Outbox entry ${id} not found`),
  notConflict: (id: number) => new ServiceError(409, 'conflict', `Outbox entry ${id} is not a conflict`),
  notFailed: (id: number) => new ServiceError(409, 'conflict', `Outbox entry ${id} has not failed`),
  onTheWire: (id: number) =>
    new ServiceError(409, 'conflict', `Outbox entry ${id} is being sent and may already be applied; it can be discarded once it fails`),
  checking: (id: number) => new ServiceError(409, 'conflict', `Outbox entry ${id} is being checked with the marketplace; wait for its outcome`),
};

type NewStock = {
  op: 'adjust' | 'count';
  delta?: number;
  quantity?: number;
  base_version?: bigint | null;
  base_quantity?: number | null;
  reason?: StockReason;
  cell2?: string;
  store_key2?: string;
  undoes_entry?: number | null;
  sealed?: boolean;
};

export class Outbox {
  readonly repo: SyncRepo;
  readonly mirror: MirrorRepo;

  constructor(
    readonly db: Db,
    readonly clock: Clock,
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

  /** A history row of the cell (in the caller's transaction). */
  history(
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
      ...operatorColumns(meta.operator),
    });
  }

  /** A new stock entry of the cell (in the caller's transaction). */
  insertStock(c: CellRef, fields: NewStock): number {
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
    return this.db.transaction((): QueueResult => this.adjustInTx(c, delta, meta)).immediate();
  }

  private adjustInTx(c: CellRef, delta: number, meta: EditMeta): QueueResult {
    const { mirror, entries, key } = this.cellState(c);
    const before = overlay(mirror, entries, key);
    const after = adjusted(before, delta);
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
        this.repo.updateIntent(tail.id, { op: 'adjust', delta: sum, quantity: null, base_version: null, base_quantity: null }, this.clock.now());
        entryId = tail.id;
        how = 'merged';
      }
    } else {
      // After an unsent count too: the adjustment stays its own intent (model.ts).
      entryId = this.insertStock(c, { op: 'adjust', delta, reason });
      how = 'queued';
    }
    const historyId = this.history(c, 'adjustment', before, after, delta, entryId, meta);
    return { entryId, how, shown: after, historyId };
  }

  /** A count (an absolute quantity observed now), coalesced per the rules above; one transaction. */
  count(c: CellRef, quantity: number, meta: EditMeta = {}): QueueResult {
    return this.db
      .transaction((): QueueResult => {
        const { mirror, entries, key } = this.cellState(c);
        const before = overlay(mirror, entries, key);
        const now = this.clock.now();
        // Adjustments before it stay their own intents (they go first; its base counts on them).
        const tail = entries.at(-1);
        if (tail && tail.op === 'count' && (coalescible(tail) || (refused(tail) && tail.sealed === 0 && this.repo.inversesOf(tail.id).length === 0))) {
          this.repo.updateIntent(
            tail.id,
            { op: 'count', delta: null, quantity, base_version: versionOf(tail.base_version), base_quantity: tail.base_quantity },
            now,
          );
          // A refused count sent again: new content, so its next request gets a fresh key.
          if (tail.state === 'failed') this.repo.reopen(tail.id, now);
          return { entryId: tail.id, how: 'merged', shown: quantity, historyId: this.history(c, 'count', before, quantity, null, tail.id, meta) };
        }
        if (tail && tail.state === 'conflict') {
          // A count typed on a cell in conflict is the "enter a new count" resolution.
          const historyId = resolve(this, tail, { action: 'new_count', quantity }, meta).historyId;
          return { entryId: tail.id, how: 'resolved', shown: quantity, historyId };
        }
        const entryId = this.insertStock(c, {
          op: 'count',
          quantity,
          base_version: this.mirror.product(c.userProductId)?.version ?? null,
          base_quantity: baseOverlay(mirror, entries, key),
          reason: 'count',
        });
        return { entryId, how: 'queued', shown: quantity, historyId: this.history(c, 'count', before, quantity, null, entryId, meta) };
      })
      .immediate();
  }

  /**
   * A count observed earlier at `base` (a count session's line): its own sealed entry, never
   * merged with anything. When the cell no longer shows `base` (edited here, or a pull brought
   * another change since it was counted), it is a conflict for the person at once; otherwise its
   * base is the cell's as any new count's, and a change on the remote meanwhile is found when it is
   * sent. Runs in the caller's transaction.
   */
  countObserved(c: CellRef, quantity: number, base: number, meta: EditMeta = {}): QueueResult & { moved: boolean } {
    const { mirror, entries, key } = this.cellState(c);
    const before = overlay(mirror, entries, key);
    const version = this.mirror.product(c.userProductId)?.version ?? null;
    const moved = before !== base;
    // What the remote should hold just before it if every earlier entry applies, failed ones
    // included (`before` leaves them out, yet a retry applies them): keep mine re-bases the count
    // on it, take theirs the next count (issue 29: else that count met a conflict nobody caused).
    const remote = baseOverlay(mirror, entries, key);
    const entryId = this.insertStock(c, {
      op: 'count',
      quantity: checkCount(quantity),
      base_version: version,
      // A conflict shows what the count was made against.
      base_quantity: moved ? base : remote,
      reason: 'count',
      sealed: true,
    });
    if (moved) this.repo.markConflict(entryId, version ?? 0n, remote, this.clock.now(), 'The cell changed after it was counted');
    const historyId = this.history(c, 'count', before, quantity, null, entryId, meta, moved ? `counted at ${base}; the cell changed since` : null);
    return { entryId, how: 'queued', shown: moved ? before : quantity, historyId, moved };
  }

  /**
   * A transfer of `units` from one store of a user product to another: one entry, a history row
   * on each cell (reason 'transfer'), in one transaction. Refused when the source would go below 0.
   * `undoes`: the transfer it takes back (an undo's inverse; it follows that entry's fate).
   */
  transfer(from: CellRef, toStoreKey: string, units: number, meta: EditMeta = {}, undoes: number | null = null): TransferResult {
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
        const fromAfter = transferred(fromBefore, units, true);
        const toAfter = transferred(toBefore, units, false);
        const toKey = cellKey(to.userProductId, to.type, to.storeKey);
        const entryId = this.insertStock(from, {
          op: 'adjust',
          delta: -units,
          reason,
          cell2: toKey,
          store_key2: to.storeKey,
          ...(undoes !== null ? { undoes_entry: undoes, sealed: true } : {}),
        });
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
          { reason, link: historyId },
        );
        return { entryId, how: 'queued', shown: fromAfter, historyId, shownTo: toAfter, historyIdTo };
      })
      .immediate();
  }

  /** An inverse adjustment of `delta` that takes back `undoes` (null: an ordinary correction), sealed. */
  inverse(c: CellRef, delta: number, undoes: number | null, meta: EditMeta): number {
    const { mirror, entries, key } = this.cellState(c);
    const before = overlay(mirror, entries, key);
    const entryId = this.insertStock(c, { op: 'adjust', delta, reason: 'correction', undoes_entry: undoes, sealed: true });
    // What the cell shows with it (nothing while the edit it follows is failed or in conflict).
    const after = this.shownOf(c);
    return this.history(c, 'adjustment', before, after, delta, entryId, meta, undoes !== null ? `undo of entry ${undoes}` : null);
  }

  /** Resolves a conflict: keep mine (re-queue the count at the new base), take theirs (drop it), or a new count. */
  resolve(id: number, resolution: Resolution, meta: EditMeta = {}): QueueResult {
    return this.db
      .transaction((): QueueResult => {
        const e = this.repo.byId(id);
        if (!e) throw outboxErrors.notFound(id);
        if (e.state !== 'conflict' || e.kind !== 'stock') throw outboxErrors.notConflict(id);
        return resolve(this, e, resolution, meta);
      })
      .immediate();
  }

  /** Drops a queued, refused or conflicting entry; one of unknown outcome is checked first (model.ts). */
  discard(id: number, meta: EditMeta = {}): DiscardResult {
    return this.db.transaction((): DiscardResult => discard(this, id, meta)).immediate();
  }

  /** Sends a failed entry again (attempts start over; one of unknown outcome under the same key). */
  retry(id: number): void {
    this.db.transaction(() => retry(this, id)).immediate();
  }

  /** Takes back `author`'s newest edit that is not undone yet (outbox-undo.ts). */
  undoLast(author: string, operator: OperatorStamp | null = null): UndoResult {
    return this.db.transaction((): UndoResult => undoLast(this, author, operator)).immediate();
  }

  /** The engine learnt that an entry being withdrawn never applied: it goes, its inverses with it (settling transaction). */
  withdrawChecked(id: number): void {
    const e = this.repo.byId(id);
    if (!e || e.state === 'done') return;
    if (e.kind !== 'stock') this.repo.remove(id);
    else dropStock(this, e, 'discarded', { author: 'sync' }, 'withdrawn: it had not reached the marketplace');
  }
}

export const versionOf = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

export function cellOf(e: Pick<OutboxRow, 'user_product_id' | 'cell_type' | 'store_key'>): CellRef {
  return { userProductId: e.user_product_id!, type: e.cell_type!, storeKey: e.store_key ?? '' };
}

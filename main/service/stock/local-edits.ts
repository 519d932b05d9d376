import type { GroupCommit } from '../../db/group-commit.js';
import { type EditableType, isEditableType } from '../../../common/stock-vocabulary.js';
import type { HistoryRepo } from '../../db/repos/history.js';
import type { LocationType, StockRepo } from '../../db/repos/stock.js';
import type { Principal } from '../auth/auth.js';
import type { Clock } from '../clock.js';
import { badRequest } from '../errors.js';
import type { StockReason } from '../../../common/stock-reasons.js';
import { type OperatorStamp, operatorColumns } from '../operators/operators.js';
import { adjusted, cellKey, checkCount, checkDelta, transferred } from './cells.js';
import { assertPairing } from './locations.js';
import type { StockService } from './stock.js';
import { type StoresService, storeErrors } from './stores.js';

export interface CellTarget {
  userProductId: string;
  type: string;
  /** Required for seller_warehouse, absent for selling_address. */
  storeId?: string | undefined;
}

export type CellChange = { delta: number } | { quantity: number };

export interface LocalEditResult {
  shown: number;
  historyId: number;
  version: bigint;
}

export interface TransferTarget {
  userProductId: string;
  fromStoreId: string;
  toStoreId: string;
  units: number;
}

export interface LocalTransferResult extends LocalEditResult {
  shownTo: number;
  historyIdTo: number;
}

/** What an undo did here: always an inverse edit (the database is the marketplace), or nothing to undo. */
export interface LocalUndoResult {
  how: 'inverse' | 'nothing';
  undone: number | null;
  historyId: number | null;
  userProductId: string | null;
}

/**
 * Stock edits made where the embedded service IS the marketplace (the desktop's local-only
 * profile): no outbox, no remote. Each edit is one write through the group commit, so it is on
 * disk when the call returns, with the same rules as the HTTP PUTs (ownership, stores, pairing,
 * SPEC 7.3 for the selling address, the quantity limits), its cell-history row, the version bump,
 * and (for the selling address) the durable job that copies the quantity to the items, all in
 * that one transaction: a crash keeps all of it or none.
 */
export function localEditsService(deps: {
  repo: StockRepo;
  stores: StoresService;
  stock: StockService;
  writes: GroupCommit;
  history: HistoryRepo;
  clock: Clock;
}) {
  const { repo, stores, stock, writes, history, clock } = deps;

  function editable(type: string): EditableType {
    if (isEditableType(type)) return type;
    return stock.rejectType(type);
  }

  /**
   * `reason`: why (an adjustment defaults to 'correction', a count is 'count'); `undoes`: the history
   * row an undo takes back; `operator`: the workstation's operator signed in (issue 27).
   */
  type Meta = {
    author: string;
    ref?: string | undefined;
    reason?: StockReason | undefined;
    undoes?: number | undefined;
    operator?: OperatorStamp | null | undefined;
  };

  /** The checks that need no data (type, quantity limits), before anything is written. */
  function checked(target: CellTarget, change: CellChange) {
    const type = editable(target.type);
    const delta = 'delta' in change ? checkDelta(change.delta) : null;
    const count = 'quantity' in change ? checkCount(change.quantity) : null;
    return { type, delta, count };
  }

  /** One edit's write (inside a group-commit op): the same for a single edit and a batch. */
  function write(principal: Principal, target: CellTarget, { type, delta, count }: ReturnType<typeof checked>, meta: Meta): LocalEditResult {
    const up = stock.ownedUserProduct(principal, target.userProductId);
    const locations = repo.locationsOf(up.id);
    let store: ReturnType<StoresService['requireStockLocation']> | null = null;
    if (type === 'seller_warehouse') {
      const storeId = target.storeId?.trim();
      if (!storeId) throw storeErrors.nullOrEmpty();
      store = stores.requireStockLocation(storeId, principal.userId);
    } else if (target.storeId !== undefined && target.storeId !== '') {
      throw badRequest('A selling_address cell has no store');
    }
    const storeKey = store?.id ?? '';
    const before = locations.find((l) => l.type === type && l.store_key === storeKey)?.quantity ?? 0;
    const after = delta !== null ? adjusted(before, delta) : count!;
    let version: bigint;
    if (!store) {
      // SPEC 7.3, section 8, the version bump and the items' job: the same write as the PUT's.
      version = stock.writeSellingAddress(up, after, null);
    } else {
      assertPairing(up.id, [...locations.map((l): LocationType => l.type), 'seller_warehouse']);
      repo.bumpVersion(up.id);
      repo.upsertLocation(up.id, { type: 'seller_warehouse', store_id: store.id, network_node_id: store.network_node_id, quantity: after });
      version = repo.userProductById(up.id)!.version;
    }
    const historyId = history.insert({
      cell: cellKey(up.id, type, storeKey),
      user_product_id: up.id,
      cell_type: type,
      store_key: storeKey,
      kind: delta !== null ? 'adjustment' : 'count',
      author: meta.author,
      at: clock.now(),
      from_quantity: before,
      to_quantity: after,
      delta,
      entry_id: null,
      ref: meta.ref ?? null,
      note: 'local-only',
      reason: delta !== null ? (meta.reason ?? 'correction') : 'count',
      undoes: meta.undoes ?? null,
      ...operatorColumns(meta.operator),
    });
    return { shown: after, historyId, version };
  }

  /**
   * A transfer between two stores of a user product, as the marketplace applies a seller_warehouse
   * PUT carrying both locations: one version bump, both quantities, a history row on each cell
   * (the second linked to the first), all in the one write, or nothing.
   */
  function writeTransfer(principal: Principal, t: TransferTarget, meta: Meta): LocalTransferResult {
    const up = stock.ownedUserProduct(principal, t.userProductId);
    const fromId = t.fromStoreId.trim();
    const toId = t.toStoreId.trim();
    if (!fromId || !toId) throw storeErrors.nullOrEmpty();
    if (fromId === toId) throw badRequest('A transfer moves units between two different stores of the seller');
    const from = stores.requireStockLocation(fromId, principal.userId);
    const to = stores.requireStockLocation(toId, principal.userId);
    const locations = repo.locationsOf(up.id);
    assertPairing(up.id, [...locations.map((l): LocationType => l.type), 'seller_warehouse']);
    const qty = (store: string) => locations.find((l) => l.type === 'seller_warehouse' && l.store_key === store)?.quantity ?? 0;
    const fromBefore = qty(from.id);
    const toBefore = qty(to.id);
    const fromAfter = transferred(fromBefore, t.units, true);
    const toAfter = transferred(toBefore, t.units, false);
    repo.bumpVersion(up.id);
    repo.upsertLocation(up.id, { type: 'seller_warehouse', store_id: from.id, network_node_id: from.network_node_id, quantity: fromAfter });
    repo.upsertLocation(up.id, { type: 'seller_warehouse', store_id: to.id, network_node_id: to.network_node_id, quantity: toAfter });
    const row = (store: string, before: number, after: number, note: string, link: number | null, undoes: number | null) =>
      history.insert({
        cell: cellKey(up.id, 'seller_warehouse', store),
        user_product_id: up.id,
        cell_type: 'seller_warehouse',
        store_key: store,
        kind: 'adjustment',
        author: meta.author,
        at: clock.now(),
        from_quantity: before,
        to_quantity: after,
        delta: after - before,
        entry_id: null,
        ref: meta.ref ?? null,
        note,
        reason: meta.reason ?? 'transfer',
        undoes,
        link,
        ...operatorColumns(meta.operator),
      });
    const historyId = row(from.id, fromBefore, fromAfter, `local-only; transfer to ${to.id}`, null, meta.undoes ?? null);
    const historyIdTo = row(to.id, toBefore, toAfter, `local-only; transfer from ${from.id}`, historyId, null);
    return { shown: fromAfter, shownTo: toAfter, historyId, historyIdTo, version: repo.userProductById(up.id)!.version };
  }

  /** Takes back `author`'s newest edit not undone yet: here it has reached the marketplace, so an inverse edit (reason 'correction'). */
  function undoLast(principal: Principal, author: string, operator: OperatorStamp | null): LocalUndoResult {
    const h = history.lastEditOf(author);
    if (!h) return { how: 'nothing', undone: null, historyId: null, userProductId: null };
    const meta: Meta = { author, reason: 'correction', undoes: h.id, operator };
    const done = (historyId: number): LocalUndoResult => ({ how: 'inverse', undone: h.id, historyId, userProductId: h.user_product_id });
    if (h.reason === 'transfer') {
      const partner = history.linkedTo(h.id);
      if (!partner) throw badRequest('This transfer cannot be undone: its destination is not in the history');
      const units = Math.abs(h.delta ?? 0);
      return done(
        writeTransfer(principal, { userProductId: h.user_product_id, fromStoreId: partner.store_key, toStoreId: h.store_key, units }, meta).historyId,
      );
    }
    const change = h.kind === 'adjustment' ? (h.delta ?? 0) : (h.to_quantity ?? 0) - (h.from_quantity ?? 0);
    const target: CellTarget = { userProductId: h.user_product_id, type: h.cell_type, ...(h.cell_type === 'seller_warehouse' ? { storeId: h.store_key } : {}) };
    if (change === 0) {
      const shown = h.to_quantity ?? 0;
      const { id: _undone, ...cell } = h;
      return done(
        history.insert({
          ...cell,
          kind: 'adjustment',
          author,
          at: clock.now(),
          from_quantity: shown,
          to_quantity: shown,
          delta: 0,
          entry_id: null,
          ref: null,
          note: 'undo: nothing to change',
          reason: 'correction',
          undoes: h.id,
          link: null,
          ...operatorColumns(operator),
        }),
      );
    }
    return done(write(principal, target, checked(target, { delta: -change }), meta).historyId);
  }

  return {
    /** N units from one store to another (both seller_warehouse locations of one user product). */
    async transfer(principal: Principal, t: TransferTarget, meta: Meta): Promise<LocalTransferResult> {
      if (!Number.isInteger(t.units) || t.units <= 0) throw badRequest('A transfer moves a positive whole number of units');
      checkDelta(t.units);
      return writes.run(() => writeTransfer(principal, t, meta));
    },

    async undoLast(principal: Principal, author: string, operator: OperatorStamp | null = null): Promise<LocalUndoResult> {
      return writes.run(() => undoLast(principal, author, operator));
    },

    async edit(principal: Principal, target: CellTarget, change: CellChange, meta: Meta): Promise<LocalEditResult> {
      const c = checked(target, change);
      return writes.run(() => write(principal, target, c, meta));
    },

    /**
     * Many edits as one write (a file import): every edit's rules, history row and version bump in
     * one group-commit op, so a refusal anywhere (thrown with its index) leaves none of them.
     */
    async editMany(
      principal: Principal,
      edits: { target: CellTarget; change: CellChange; meta: Meta }[],
      /** The caller's own writes about these edits (a count session's outcome), in the same op: all or none. */
      alongside?: (results: LocalEditResult[]) => void,
    ): Promise<LocalEditResult[]> {
      const all = edits.map((e, index) => atIndex(index, () => checked(e.target, e.change)));
      return writes.run(() => {
        const results = edits.map((e, index) => atIndex(index, () => write(principal, e.target, all[index]!, e.meta)));
        alongside?.(results);
        return results;
      });
    },
  };
}

/** A failure of the edit at `index` of a batch (a file import), carrying which one it was. */
export class BatchEditError extends Error {
  constructor(
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'BatchEditError';
  }
}

/** Runs one edit of a batch; a throw becomes a BatchEditError naming it. */
export function atIndex<T>(index: number, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw new BatchEditError(index, e);
  }
}
export type LocalEditsService = ReturnType<typeof localEditsService>;

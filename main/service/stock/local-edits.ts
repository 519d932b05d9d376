import type { GroupCommit } from '../../db/group-commit.js';
import type { HistoryRepo } from '../../db/repos/history.js';
import type { LocationType, StockRepo } from '../../db/repos/stock.js';
import type { Principal } from '../auth/auth.js';
import type { Clock } from '../clock.js';
import { badRequest } from '../errors.js';
import { adjusted, cellKey, checkCount, checkDelta } from './cells.js';
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

  function editable(type: string): 'seller_warehouse' | 'selling_address' {
    if (type === 'seller_warehouse' || type === 'selling_address') return type;
    return stock.rejectType(type);
  }

  return {
    async edit(principal: Principal, target: CellTarget, change: CellChange, meta: { author: string; ref?: string | undefined }): Promise<LocalEditResult> {
      const type = editable(target.type);
      const delta = 'delta' in change ? checkDelta(change.delta) : null;
      const count = 'quantity' in change ? checkCount(change.quantity) : null;
      return writes.run((): LocalEditResult => {
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
        });
        return { shown: after, historyId, version };
      });
    },
  };
}
export type LocalEditsService = ReturnType<typeof localEditsService>;

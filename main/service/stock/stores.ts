import { z } from 'zod';
import { jsonObjectColumn, stringListColumn, parseColumn } from '../../db/json-columns.js';
import type { StockRepo, StockStoreRow, StoreRow } from '../../db/repos/stock.js';
import type { UsersRepo } from '../../db/repos/users.js';
import type { StoreView } from '../../../common/views.js';
import type { Principal } from '../auth/auth.js';
import { badRequest, forbidden } from '../errors.js';
import { parseUserId, parseWith } from '../params.js';
import { userNotFound } from '../users/users.js';

/** Store of SPEC 2.2 (the shape is defined once, in common/views.ts). */
export type Store = StoreView;

export const toStore = (r: StoreRow): Store => ({
  id: r.id,
  user_id: r.user_id,
  description: r.description,
  status: r.status,
  location: parseColumn(jsonObjectColumn, r.location, 'stores.location'),
  tags: parseColumn(stringListColumn, r.tags, 'stores.tags'),
  network_node_id: r.network_node_id,
});

export const STORE_PAGE_LIMIT = 50;

// Unknown query parameters are ignored (clients add their own, such as application_id).
const searchQuery = z.object({
  tags: z.string().max(500).optional(),
  limit: z
    .string()
    .regex(/^[0-9]+$/, 'Invalid limit param')
    .optional(),
  offset: z
    .string()
    .regex(/^[0-9]+$/, 'Invalid offset param')
    .optional(),
});

/** SPEC 7.1 / 7.2 store rows, in the order they are checked. */
export const storeErrors = {
  nullOrEmpty: () => badRequest('Store cannot be null or empty'),
  notFound: (id: string) => badRequest(`Store not found: ${id}`),
  notOwned: (id: string) => badRequest(`Store does not belong to seller: ${id}`),
  notStockLocation: () => badRequest('Store is not configured to be a stock location'),
};

export function isStockLocation(store: Pick<StoreRow, 'tags'>): boolean {
  return parseColumn(stringListColumn, store.tags, 'stores.tags').includes('stock_location');
}

/** The store rows of SPEC 7.1/7.2 for `store` (read by id `storeId`) as a stock location of `sellerId`. */
export function assertStockLocation<T extends Pick<StoreRow, 'user_id' | 'tags'>>(store: T | undefined, storeId: string, sellerId: number): T {
  if (!store) throw storeErrors.notFound(storeId);
  if (store.user_id !== String(sellerId)) throw storeErrors.notOwned(storeId);
  if (!isStockLocation(store)) throw storeErrors.notStockLocation();
  return store;
}

export function storesService(stock: StockRepo, users: UsersRepo) {
  return {
    /**
     * SPEC 4.2. Only the seller reads its own stores. `tags` is a comma-separated list; a store
     * matches when it carries every tag. `limit` 1..50 (default 50) and `offset` page the result.
     */
    search(principal: Principal, rawUserId: string, query: unknown) {
      const userId = parseUserId(rawUserId);
      const q = parseWith(searchQuery, query ?? {}, 'query');
      const limit = q.limit === undefined ? STORE_PAGE_LIMIT : Number(q.limit);
      const offset = q.offset === undefined ? 0 : Number(q.offset);
      if (limit < 1 || limit > STORE_PAGE_LIMIT) throw badRequest(`Invalid limit param: must be between 1 and ${STORE_PAGE_LIMIT}`);
      if (!Number.isSafeInteger(offset)) throw badRequest('Invalid offset param');
      if (!users.byId(userId)) throw userNotFound(userId);
      if (userId !== principal.userId) {
        throw forbidden(`Access denied for user ${principal.userId} to the stores of user ${userId}`);
      }
      const wanted = (q.tags ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      const matching = stock
        .storesOfUser(String(userId))
        .map(toStore)
        .filter((s) => wanted.every((t) => s.tags.includes(t)));
      return {
        paging: { limit, offset, total: matching.length },
        results: matching.slice(offset, offset + limit),
      };
    },

    /** The checks of SPEC 7.1/7.2 for a store used as a stock location of `sellerId`. */
    requireStockLocation: (storeId: string, sellerId: number): StockStoreRow => assertStockLocation(stock.stockStoreById(storeId), storeId, sellerId),
  };
}
export type StoresService = ReturnType<typeof storesService>;

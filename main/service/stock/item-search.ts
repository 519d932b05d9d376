import type { ListingRepo } from '../../db/repos/listing.js';
import type { UsersRepo } from '../../db/repos/users.js';
import type { Principal } from '../auth/auth.js';
import { forbidden } from '../errors.js';
import { parsePaging, queryObject } from '../paging.js';
import { parseUserId } from '../params.js';
import { userNotFound } from '../users/users.js';

export const ITEM_SEARCH_DEFAULT_LIMIT = 50;
export const ITEM_SEARCH_MAX_LIMIT = 100;

/** GET /users/{user_id}/items/search: the seller's item ids, a page at a time (the real marketplace's shape). */
export interface ItemSearchResult {
  seller_id: string;
  query: null;
  paging: { limit: number; offset: number; total: number };
  results: string[];
}

/**
 * The seller's own listing of item ids, for a client that keeps a replica (the desktop sync reads
 * each item with GET /items/{id} for its `user_product_id`). Checks, in order: the user id (400),
 * `limit` (1..100, default 50) and `offset` (400, SPEC 7.5 wording), the user exists (404), the
 * caller is that user (403: only the seller lists its items). Ordered by item id; other query
 * parameters (application_id...) are ignored.
 */
export function itemSearchService(repo: ListingRepo, users: UsersRepo) {
  return {
    search(principal: Principal, rawUserId: string, query: unknown): ItemSearchResult {
      const userId = parseUserId(rawUserId);
      const { limit, offset } = parsePaging(queryObject(query), ITEM_SEARCH_DEFAULT_LIMIT, ITEM_SEARCH_MAX_LIMIT);
      if (!users.byId(userId)) throw userNotFound(userId);
      if (userId !== principal.userId) throw forbidden(`Access denied for user ${principal.userId} to the items of user ${userId}`);
      const page = repo.itemsOfSeller(userId, limit, offset);
      return { seller_id: String(userId), query: null, paging: { limit, offset, total: page.total }, results: page.ids };
    },
  };
}
export type ItemSearchService = ReturnType<typeof itemSearchService>;

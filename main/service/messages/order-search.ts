import type { ListingRepo } from '../../db/repos/listing.js';
import type { Principal } from '../auth/auth.js';
import { badRequest, forbidden } from '../errors.js';
import { parsePaging, queryObject } from '../paging.js';
import type { OrdersRepo } from '../../db/repos/orders.js';
import { marketplaceOrders } from '../orders/order-view.js';
import type { OrderView } from './orders.js';

export const ORDER_SEARCH_DEFAULT_LIMIT = 50;
export const ORDER_SEARCH_MAX_LIMIT = 100;

/** GET /orders/search (the real marketplace's shape, trimmed to what this service knows). */
export interface OrderSearchResult {
  query: null;
  results: OrderView[];
  sort: { id: 'id_asc'; name: string };
  paging: { total: number; offset: number; limit: number };
}

export const orderSearchErrors = {
  roleRequired: () => badRequest("The query param 'seller' or 'buyer' is required"),
  bothRoles: () => badRequest("Send only one of the query params 'seller' and 'buyer'"),
  invalidId: (param: string) => badRequest(`Invalid query param '${param}': a user id has digits only`),
  notCaller: (caller: number, param: string, id: number) =>
    forbidden(`Access denied for user ${caller} to the orders of ${param} ${id}: a user searches only its own orders`),
};

/**
 * `GET /orders/search?seller={id}` (or `buyer={id}`) with `limit` (1..100, default 50) and `offset`.
 * Checks, in order: exactly one of seller/buyer (400), its format (400), paging (400, SPEC 7.5
 * wording), the caller is that user (403). Orders come oldest id first (a stable order to page by).
 */
export function orderSearchService(repo: ListingRepo, details: OrdersRepo) {
  return {
    search(principal: Principal, query: unknown): OrderSearchResult {
      const q = queryObject(query);
      const hasSeller = q.seller !== undefined;
      const hasBuyer = q.buyer !== undefined;
      if (!hasSeller && !hasBuyer) throw orderSearchErrors.roleRequired();
      if (hasSeller && hasBuyer) throw orderSearchErrors.bothRoles();
      const role = hasSeller ? 'seller' : 'buyer';
      const raw = q[role];
      if (typeof raw !== 'string' || !/^[0-9]{1,15}$/.test(raw)) throw orderSearchErrors.invalidId(role);
      const userId = Number(raw);
      const { limit, offset } = parsePaging(q, ORDER_SEARCH_DEFAULT_LIMIT, ORDER_SEARCH_MAX_LIMIT);
      if (userId !== principal.userId) throw orderSearchErrors.notCaller(principal.userId, role, userId);
      const page = repo.ordersOf(role, userId, limit, offset);
      return {
        query: null,
        results: marketplaceOrders(
          details,
          page.rows.map((o) => o.id),
        ),
        sort: { id: 'id_asc', name: 'Order id ascending' },
        paging: { total: page.total, offset, limit },
      };
    },
  };
}
export type OrderSearchService = ReturnType<typeof orderSearchService>;

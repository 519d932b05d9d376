import { z } from 'zod';
import type { OrderSearchSort, OrdersRepo } from '../../db/repos/orders.js';
import type { Principal } from '../auth/auth.js';
import { badRequest, forbidden } from '../errors.js';
import { parsePaging, queryObject } from '../paging.js';
import { type MarketplaceOrder, marketplaceOrders } from './order-view.js';

export const ORDER_SEARCH_DEFAULT_LIMIT = 50;
export const ORDER_SEARCH_MAX_LIMIT = 100;

/** The order statuses of the marketplace's documentation; this service stores paid and cancelled. */
export const MARKETPLACE_ORDER_STATUSES = [
  'confirmed',
  'payment_required',
  'payment_in_process',
  'partially_paid',
  'paid',
  'partially_refunded',
  'pending_cancel',
  'cancelled',
  'invalid',
] as const;

const SORTS = {
  id_asc: 'Order id ascending',
  date_asc: 'Date ascending',
  date_desc: 'Date descending',
} as const satisfies Record<OrderSearchSort, string>;

/** GET /orders/search (the real marketplace's shape, trimmed to what this service knows). */
export interface OrderSearchResult {
  query: null;
  results: MarketplaceOrder[];
  sort: { id: OrderSearchSort; name: string };
  paging: { total: number; offset: number; limit: number };
}

export const orderSearchErrors = {
  roleRequired: () => badRequest("The query param 'seller' or 'buyer' is required"),
  bothRoles: () => badRequest("Send only one of the query params 'seller' and 'buyer'"),
  invalidId: (param: string) => badRequest(`Invalid query param '${param}': a user id has digits only`),
  emptyRange: () => badRequest("Invalid query params: 'order.date_created.from' is after 'order.date_created.to'"),
  notCaller: (caller: number, param: string, id: number) =>
    forbidden(`Access denied for user ${caller} to the orders of ${param} ${id}: a user searches only its own orders`),
};

// A date with a time and an offset (the marketplace's own form is 2015-07-01T00:00:00.000-00:00),
// or a whole day in UTC. A `+` left unescaped in a URL arrives as a space: read back as `+`.
const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(\.\d{1,9})?)?(Z|[+ -](?:[01]\d|2[0-3]):[0-5]\d)$/;
const DAY = /^(\d{4})-(\d\d)-(\d\d)$/;

/** The calendar day exists (Date.parse takes 2026-02-30 as 2 March). */
const realDay = (y: string, m: string, d: string) => {
  const day = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return day.getUTCFullYear() === Number(y) && day.getUTCMonth() === Number(m) - 1 && day.getUTCDate() === Number(d);
};

/** A date bound as canonical UTC text; a whole day starts (`from`) or ends (`to`) the range at its edge. */
const dateBound = (edge: 'from' | 'to') =>
  z.string().transform((text, ctx) => {
    const day = DAY.exec(text);
    if (day && realDay(day[1]!, day[2]!, day[3]!)) return `${text}T${edge === 'from' ? '00:00:00.000' : '23:59:59.999'}Z`;
    const m = DATE_TIME.exec(text);
    if (m && realDay(m[1]!, m[2]!, m[3]!)) return new Date(text.replace(/ (\d\d:\d\d)$/, '+$1')).toISOString();
    ctx.addIssue({ code: 'custom', message: 'an ISO 8601 date (2026-11-18) or date and time with its offset (2026-11-18T12:40:00.000-03:00)' });
    return z.NEVER;
  });

const KNOWN_PARAMS = ['seller', 'buyer', 'order.status', 'order.date_created.from', 'order.date_created.to', 'sort', 'limit', 'offset'];

/**
 * The query of GET /orders/search: the marketplace's documented filters, nothing else. A filter
 * this service does not know is refused rather than dropped (it answered every order before).
 * The role and the paging keep their own checks and wording below.
 */
const searchQuery = z.strictObject(
  {
    seller: z.unknown().optional(),
    buyer: z.unknown().optional(),
    limit: z.unknown().optional(),
    offset: z.unknown().optional(),
    'order.status': z.enum(MARKETPLACE_ORDER_STATUSES, { error: `one of ${MARKETPLACE_ORDER_STATUSES.join(', ')}` }).optional(),
    'order.date_created.from': dateBound('from').optional(),
    'order.date_created.to': dateBound('to').optional(),
    sort: z.enum(['date_asc', 'date_desc', 'id_asc'], { error: 'one of date_asc, date_desc, id_asc' }).optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `/orders/search takes ${KNOWN_PARAMS.join(', ')}` : undefined) },
);

/** Zod's issues as one 400: the message names the first, the cause lists them all. */
function parseQuery(query: Record<string, unknown>): z.infer<typeof searchQuery> {
  const result = searchQuery.safeParse(query);
  if (result.success) return result.data;
  const causes = result.error.issues.map((i) => {
    if (i.code === 'unrecognized_keys') {
      return { code: 'unknown_filter', message: `Unknown query param ${i.keys.map((k) => `'${k}'`).join(', ')}: ${i.message}` };
    }
    // A repeated parameter arrives as an array: a filter takes one value.
    const message = Array.isArray(query[String(i.path[0])]) ? 'a filter takes one value' : i.message;
    return { code: 'invalid_filter', message: `Invalid query param '${i.path.map(String).join('.')}': ${message}` };
  });
  throw badRequest(causes[0]!.message, causes);
}

/**
 * `GET /orders/search?seller={id}` (or `buyer={id}`) with the marketplace's filters: `order.status`,
 * `order.date_created.from` / `.to` (inclusive, on the answered `date_created`), `sort`
 * (`date_asc`, `date_desc`; default `id_asc`, a stable order to page by), `limit` (1..100,
 * default 50) and `offset`. Checks, in order: unknown or malformed filters (400), exactly one of
 * seller/buyer (400), its format (400), a date range that ends before it starts (400), paging
 * (400, SPEC 7.5 wording), the caller is that user (403).
 */
export function orderSearchService(repo: OrdersRepo) {
  return {
    search(principal: Principal, query: unknown): OrderSearchResult {
      const q = queryObject(query);
      const filters = parseQuery(q);
      const hasSeller = q.seller !== undefined;
      const hasBuyer = q.buyer !== undefined;
      if (!hasSeller && !hasBuyer) throw orderSearchErrors.roleRequired();
      if (hasSeller && hasBuyer) throw orderSearchErrors.bothRoles();
      const role = hasSeller ? 'seller' : 'buyer';
      const raw = q[role];
      if (typeof raw !== 'string' || !/^[0-9]{1,15}$/.test(raw)) throw orderSearchErrors.invalidId(role);
      const userId = Number(raw);
      const from = filters['order.date_created.from'] ?? null;
      const to = filters['order.date_created.to'] ?? null;
      if (from !== null && to !== null && from > to) throw orderSearchErrors.emptyRange();
      const { limit, offset } = parsePaging(q, ORDER_SEARCH_DEFAULT_LIMIT, ORDER_SEARCH_MAX_LIMIT);
      if (userId !== principal.userId) throw orderSearchErrors.notCaller(principal.userId, role, userId);
      const sort = filters.sort ?? 'id_asc';
      const page = repo.search({ role, userId, status: filters['order.status'] ?? null, from, to, sort, limit, offset });
      return {
        query: null,
        results: marketplaceOrders(repo, page.ids),
        sort: { id: sort, name: SORTS[sort] },
        paging: { total: page.total, offset, limit },
      };
    },
  };
}
export type OrderSearchService = ReturnType<typeof orderSearchService>;

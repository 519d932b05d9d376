import type { MessagesRepo, OrderRow } from '../../db/repos/messages.js';
import type { OrdersRepo } from '../../db/repos/orders.js';
import { type MarketplaceOrder, marketplaceOrders } from '../orders/order-view.js';
import type { Principal } from '../auth/auth.js';
import { ServiceError, badRequest, forbidden, notFound } from '../errors.js';

/**
 * Orders and packs (SPEC 4.9, FIXTURES "orders"). A pack is the conversation: it is addressed by
 * the orders' `pack_id`, or by the order id where `pack_id` is null. All orders of a pack share
 * seller, buyer and site (the fixture loader enforces it).
 */

/** Order and pack ids: positive integers written in digits, at most 2^53 - 1. */
function parsePositiveId(raw: string, what: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw badRequest(`Invalid ${what} id: '${raw.slice(0, 64)}'`);
  }
  return Number(raw);
}
export const parseOrderId = (raw: string) => parsePositiveId(raw, 'order');
export const parsePackId = (raw: string) => parsePositiveId(raw, 'pack');

export type Role = 'seller' | 'buyer';

export interface Pack {
  /** The id the conversation is addressed by: pack_id, or the lone order's id. */
  key: number;
  orders: OrderRow[];
  sellerId: number;
  buyerId: number;
  siteId: string;
  /** The order new messages are filed under (the pack's lowest order id): `resource_id` of the legacy shape. */
  orderId: number;
}

/** `version`: the pack's version read just before (repo.packVersion), to answer from what the repo keeps. */
export function resolvePack(repo: MessagesRepo, key: number, version?: bigint): Pack | undefined {
  const orders = repo.ordersOfPackKey(key, version);
  const first = orders[0];
  if (!first) return undefined;
  return { key, orders, sellerId: first.seller_id, buyerId: first.buyer_id, siteId: first.site_id, orderId: first.id };
}

export function roleIn(pack: Pick<Pack, 'sellerId' | 'buyerId'>, userId: number): Role | null {
  if (userId === pack.sellerId) return 'seller';
  if (userId === pack.buyerId) return 'buyer';
  return null;
}

export const orderErrors = {
  /** SPEC 7.5: the caller does not belong to the order / pack. */
  noAccess: (resourceId: number | string) => forbidden(`User access token invalid for resource ${resourceId}`),
  orderNotFound: (id: number) => notFound(`Order ${id} not found`),
  packNotFound: (key: number) => notFound(`Pack ${key} not found`),
  /** The `{user_id}` of /messages/packs/{pack_id}/sellers/{user_id} must be the pack's seller. */
  notTheSeller: (key: number, userId: number) => notFound(`Pack ${key} has no seller ${userId}`),
};

/**
 * Why sending is blocked for a sender of `role`, first reason wins:
 * 1. every order of the pack is cancelled → `blocked_by_cancelled_order` (both parties);
 * 2. the pack is on the mediation site and an order has a mediation in process → `blocked_by_mediation` (both);
 * 3. the sender is the seller and an order is platform fulfillment not yet delivered → `blocked_by_fulfillment`.
 */
export type BlockReason = 'blocked_by_cancelled_order' | 'blocked_by_mediation' | 'blocked_by_fulfillment';

export function sendBlock(pack: Pack, role: Role, mediationSite: string): BlockReason | null {
  if (pack.orders.every((o) => o.status === 'cancelled')) return 'blocked_by_cancelled_order';
  if (pack.siteId === mediationSite && pack.orders.some((o) => o.mediation_in_process)) return 'blocked_by_mediation';
  if (role === 'seller' && pack.orders.some((o) => o.logistic_type === 'fulfillment' && !o.delivered)) {
    return 'blocked_by_fulfillment';
  }
  return null;
}

/** SPEC 7.6 rows for each block reason. */
export function blockError(reason: BlockReason): ServiceError {
  switch (reason) {
    case 'blocked_by_cancelled_order':
      return new ServiceError(403, 'conversation_blocked', 'blocked_conversation_send_message_forbidden', [reason]);
    case 'blocked_by_mediation':
      return forbidden('You can not send the message because a mediation is in process', [reason]);
    case 'blocked_by_fulfillment':
      return forbidden('You can not send the message because the purchase is (platform fulfillment) and has not been yet delivered', [reason]);
  }
}

/** SPEC 2.9. */
export interface ConversationStatus {
  path: string;
  status: 'active' | 'blocked';
  substatus: BlockReason | null;
  status_date: string;
  status_update_allowed: boolean;
  claim_id: number | null;
  shipping_id: number | null;
}

/**
 * The conversation as seen by `role`: `blocked` with the reason that would refuse its next send
 * (sendBlock), else `active`. status_date is the latest status change among the pack's orders.
 * Nothing here lets a user change the status, and the fixtures carry no claims or shipments, so
 * status_update_allowed is false and claim_id / shipping_id are null.
 */
export function conversationStatus(pack: Pack, role: Role, mediationSite: string): ConversationStatus {
  const substatus = sendBlock(pack, role, mediationSite);
  const statusDate = pack.orders.map((o) => o.status_date).reduce((a, b) => (b > a ? b : a));
  return {
    path: `/packs/${pack.key}/sellers/${pack.sellerId}`,
    status: substatus ? 'blocked' : 'active',
    substatus,
    status_date: statusDate,
    status_update_allowed: false,
    claim_id: null,
    shipping_id: null,
  };
}

/** GET /orders/{id} and /orders/search: the marketplace's order shape (main/service/orders/order-view.ts). */
export type OrderView = MarketplaceOrder;

export function ordersService(repo: MessagesRepo, details: OrdersRepo) {
  return {
    /** Checks: 400 malformed id → 404 unknown order → 403 caller is neither its seller nor its buyer. */
    get(principal: Principal, rawId: string): OrderView {
      const id = parseOrderId(rawId);
      const order = repo.orderById(id);
      if (!order) throw orderErrors.orderNotFound(id);
      if (roleIn({ sellerId: order.seller_id, buyerId: order.buyer_id }, principal.userId) === null) {
        throw orderErrors.noAccess(id);
      }
      const [view] = marketplaceOrders(details, [id]);
      if (!view) throw orderErrors.orderNotFound(id);
      return view;
    },
  };
}
export type OrdersService = ReturnType<typeof ordersService>;

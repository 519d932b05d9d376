import type { LogisticType, OrderStatus } from '../../db/repos/messages.js';
import type { OrderDetailRow, OrderItemRow, OrdersRepo } from '../../db/repos/orders.js';

/**
 * An order in the marketplace's shape (its public API's GET /orders/{id}), trimmed to what this
 * service knows: the parties, the lines sold, the amount, the shipment and the pack. The last
 * five fields are this service's own: the messaging rules a replica applies before sending
 * (SPEC 7.6) read them.
 */
export interface MarketplaceOrder {
  id: number;
  status: OrderStatus;
  date_created: string;
  total_amount: number;
  /** Null only for an order without lines or currency (a fixture that gives neither). */
  currency_id: string | null;
  order_items: OrderLine[];
  buyer: { id: number; nickname: string; first_name: string; last_name: string };
  seller: { id: number };
  shipping: { id: number | null; logistic_type: LogisticType };
  pack_id: number | null;
  site_id: string;
  /** When the order reached its current status (the conversation's status_date, SPEC 2.9). */
  status_date: string;
  logistic_type: LogisticType;
  delivered: boolean;
  mediation_in_process: boolean;
}

export interface OrderLine {
  item: { id: string; title: string };
  quantity: number;
  unit_price: number;
  currency_id: string;
}

/** Amounts in cents are summed as integers, so 3 × 0.1 is 0.3 and not 0.30000000000000004. */
export const lineTotal = (lines: readonly { quantity: number; unit_price: number }[]): number =>
  Math.round(lines.reduce((sum, l) => sum + l.quantity * Math.round(l.unit_price * 100), 0)) / 100;

/**
 * The answer for one order row and its lines. Orders stored without the optional fields (older
 * data, fixtures without them) answer: `date_created` = the status date, `total_amount` = the sum
 * of the lines, `currency_id` = the first line's.
 */
export function toMarketplaceOrder(o: OrderDetailRow, rows: readonly OrderItemRow[]): MarketplaceOrder {
  const order_items = rows.map((l): OrderLine => ({
    item: { id: l.item_id, title: l.title },
    quantity: l.quantity,
    unit_price: l.unit_price,
    currency_id: l.currency_id,
  }));
  return {
    id: o.id,
    status: o.status,
    date_created: o.date_created ?? o.status_date,
    total_amount: o.total_amount ?? lineTotal(order_items),
    currency_id: o.currency_id ?? order_items[0]?.currency_id ?? null,
    order_items,
    buyer: { id: o.buyer_id, nickname: o.buyer_nickname ?? '', first_name: o.buyer_first_name ?? '', last_name: o.buyer_last_name ?? '' },
    seller: { id: o.seller_id },
    shipping: { id: o.shipping_id, logistic_type: o.logistic_type },
    pack_id: o.pack_id,
    site_id: o.site_id,
    status_date: o.status_date,
    logistic_type: o.logistic_type,
    delivered: o.delivered === 1,
    mediation_in_process: o.mediation_in_process === 1,
  };
}

/** Several orders with their lines in two reads (a page of /orders/search), in the order of `ids`. */
export function marketplaceOrders(repo: OrdersRepo, ids: readonly number[]): MarketplaceOrder[] {
  const rows = new Map(repo.details(ids).map((o) => [o.id, o]));
  const lines = new Map<number, OrderItemRow[]>();
  for (const l of repo.itemsOf(ids)) {
    const list = lines.get(l.order_id);
    if (list) list.push(l);
    else lines.set(l.order_id, [l]);
  }
  return ids.flatMap((id) => {
    const o = rows.get(id);
    return o ? [toMarketplaceOrder(o, lines.get(id) ?? [])] : [];
  });
}

import { z } from 'zod';
import type { ConversationOrderView, ConversationView } from '../../common/views.js';
import type { Db } from '../db/open.js';
import { ordersRepo } from '../db/repos/orders.js';
import { toMarketplaceOrder } from '../service/orders/order-view.js';

/**
 * The order context of a conversation (issue 15 §1): the buyer's names, the first product for the
 * list, and each order with its lines, amount and shipment for the side panel. Reads the service
 * tables (the demo database, or the replica's mirror that the pull fills from /orders/search).
 */

/** An item's stored ordinary attributes (items.attributes): the publishing flow's `pictures`, or a `thumbnail`. */
const storedPictures = z.object({
  pictures: z
    .array(z.object({ secure_url: z.string().nullable().optional(), url: z.string().nullable().optional(), source: z.string().optional() }))
    .optional()
    .catch(undefined),
  thumbnail: z.string().optional().catch(undefined),
});

/** The item's first https picture (the page's CSP loads https images only), or null. */
export function pictureOf(attributes: string | null): string | null {
  if (attributes === null) return null;
  let parsed;
  try {
    parsed = storedPictures.safeParse(JSON.parse(attributes));
  } catch {
    return null;
  }
  if (!parsed.success) return null;
  const candidates = [...(parsed.data.pictures ?? []).flatMap((p) => [p.secure_url, p.url, p.source]), parsed.data.thumbnail];
  return candidates.find((u): u is string => typeof u === 'string' && /^https:\/\//i.test(u)) ?? null;
}

export type OrderContext = Pick<ConversationView, 'product' | 'orders'> & { firstName: string | null; lastName: string | null };

export function conversationOrders(db: Db) {
  const repo = ordersRepo(db);
  return (packKey: number): OrderContext => {
    const rows = repo.ofPackKey(packKey);
    const ids = rows.map((o) => o.id);
    // Two reads per conversation (its orders, then their lines): the list's page reads this for each row.
    const lines = repo.itemsOf(ids);
    const pictures = new Map(lines.map((l) => [`${l.order_id}:${l.item_id}`, pictureOf(l.item_attributes)]));
    const orders = rows
      .map((row) =>
        toMarketplaceOrder(
          row,
          lines.filter((l) => l.order_id === row.id),
        ),
      )
      .map((o): ConversationOrderView => ({
        id: o.id,
        status: o.status,
        dateCreated: o.date_created,
        totalAmount: o.total_amount,
        currencyId: o.currency_id,
        items: o.order_items.map((l) => ({
          itemId: l.item.id,
          title: l.item.title,
          quantity: l.quantity,
          unitPrice: l.unit_price,
          currencyId: l.currency_id,
          picture: pictures.get(`${o.id}:${l.item.id}`) ?? null,
        })),
        shipping: { id: o.shipping.id, logisticType: o.shipping.logistic_type, delivered: o.delivered },
      }));
    const first = rows[0];
    const names = (s: string | null | undefined) => (s === null || s === undefined || s.trim() === '' ? null : s);
    return {
      product: orders.flatMap((o) => o.items)[0]?.title ?? null,
      orders,
      firstName: names(first?.buyer_first_name),
      lastName: names(first?.buyer_last_name),
    };
  };
}

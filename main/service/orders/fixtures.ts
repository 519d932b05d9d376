import type { Db } from '../../db/open.js';
import { ordersRepo } from '../../db/repos/orders.js';
import type { FixtureFile } from '../../fixtures/schema.js';

/**
 * The optional order fields of a fixture file (FIXTURES.md): `date_created`, `total_amount`,
 * `currency_id`, `order_items` and `shipping_id`.
 *
 * Rules checked before loading: each line's item exists and is the order's seller's (its title
 * and currency come from the item), and an item appears once per order.
 */
export function orderDetailsProblem(f: FixtureFile): { where: string; why: string } | null {
  const items = new Map((f.items ?? []).map((i) => [i.id, i]));
  for (const [i, o] of (f.orders ?? []).entries()) {
    const seen = new Set<string>();
    for (const [j, line] of (o.order_items ?? []).entries()) {
      const where = `orders[${i}].order_items[${j}].item_id`;
      const item = items.get(line.item_id);
      if (!item) return { where, why: `item ${line.item_id} does not exist` };
      if (item.seller_id !== o.seller_id) return { where, why: `item ${line.item_id} belongs to seller ${item.seller_id}, not ${o.seller_id}` };
      if (seen.has(line.item_id)) return { where, why: `item ${line.item_id} appears twice in the order` };
      seen.add(line.item_id);
    }
  }
  return null;
}

/** Writes the optional fields of every order (call inside the loader's transaction, after items and orders). */
export function insertOrderDetails(db: Db, f: FixtureFile): void {
  const repo = ordersRepo(db);
  const items = new Map((f.items ?? []).map((i) => [i.id, i]));
  for (const o of f.orders ?? []) {
    const lines = (o.order_items ?? []).map((l) => {
      const item = items.get(l.item_id)!;
      return { item_id: l.item_id, title: item.title, quantity: l.quantity, unit_price: l.unit_price, currency_id: item.currency_id };
    });
    repo.writeDetails(
      {
        id: o.id,
        date_created: o.date_created === undefined ? null : new Date(o.date_created).toISOString(),
        total_amount: o.total_amount ?? null,
        currency_id: o.currency_id ?? null,
        shipping_id: o.shipping_id ?? null,
      },
      lines,
    );
  }
}

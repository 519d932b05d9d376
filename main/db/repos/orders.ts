import type { Db } from '../open.js';
import type { OrderRow } from './messages.js';

/** An order with the columns of migration 016 and its buyer's names (null where the buyer is not known). */
export interface OrderDetailRow extends OrderRow {
  date_created: string | null;
  total_amount: number | null;
  currency_id: string | null;
  shipping_id: number | null;
  buyer_nickname: string | null;
  buyer_first_name: string | null;
  buyer_last_name: string | null;
}

/** One line of an order; `item_attributes` is the item's stored JSON (pictures) when the item is known here. */
export interface OrderItemRow {
  order_id: number;
  position: number;
  item_id: string;
  title: string;
  quantity: number;
  unit_price: number;
  currency_id: string;
  item_attributes: string | null;
}

export interface OrderDetails {
  id: number;
  date_created: string | null;
  total_amount: number | null;
  currency_id: string | null;
  shipping_id: number | null;
}

export interface NewOrderItem {
  item_id: string;
  title: string;
  quantity: number;
  unit_price: number;
  currency_id: string;
}

const DETAIL = `SELECT o.*, u.nickname AS buyer_nickname, u.first_name AS buyer_first_name, u.last_name AS buyer_last_name
  FROM orders o LEFT JOIN users u ON u.id = o.buyer_id`;

/** The order's answer (GET /orders/{id}, /orders/search) and the inbox's order panel: migration 016's reads and writes. */
export function ordersRepo(db: Db) {
  const detail = db.prepare<[number], OrderDetailRow>(`${DETAIL} WHERE o.id = ?`);
  const details = db.prepare<[string], OrderDetailRow>(`${DETAIL} WHERE o.id IN (SELECT value FROM json_each(?)) ORDER BY o.id`);
  // Two index lookups (orders_by_pack, the primary key), not a scan of coalesce(pack_id, id).
  const ofPackKey = db.prepare<[{ key: number }], OrderDetailRow>(`${DETAIL} WHERE o.pack_id = @key OR (o.pack_id IS NULL AND o.id = @key) ORDER BY o.id`);
  const items = db.prepare<[string], OrderItemRow>(
    `SELECT l.*, i.attributes AS item_attributes FROM order_items l LEFT JOIN items i ON i.id = l.item_id
      WHERE l.order_id IN (SELECT value FROM json_each(?)) ORDER BY l.order_id, l.position`,
  );
  const setDetails = db.prepare<[OrderDetails]>(
    `UPDATE orders SET date_created = @date_created, total_amount = @total_amount, currency_id = @currency_id,
       shipping_id = @shipping_id WHERE id = @id`,
  );
  const deleteItems = db.prepare<[number]>('DELETE FROM order_items WHERE order_id = ?');
  const insertItem = db.prepare<[NewOrderItem & { order_id: number; position: number }]>(
    `INSERT INTO order_items (order_id, position, item_id, title, quantity, unit_price, currency_id)
     VALUES (@order_id, @position, @item_id, @title, @quantity, @unit_price, @currency_id)`,
  );

  return {
    detail: (id: number) => detail.get(id),
    /** Orders by id, ascending (unknown ids are left out). */
    details: (ids: readonly number[]) => (ids.length === 0 ? [] : details.all(JSON.stringify(ids))),
    /** The orders of a conversation: those of the pack, or the lone order whose id is the key. */
    ofPackKey: (key: number) => ofPackKey.all({ key }),
    /** The lines of these orders, by order then position. */
    itemsOf: (ids: readonly number[]) => (ids.length === 0 ? [] : items.all(JSON.stringify(ids))),
    /** Writes an order's details and replaces its lines (call inside a transaction; the order row exists). */
    writeDetails(d: OrderDetails, lines: readonly NewOrderItem[]): void {
      setDetails.run(d);
      deleteItems.run(d.id);
      lines.forEach((l, position) => insertItem.run({ ...l, order_id: d.id, position }));
    },
  };
}
export type OrdersRepo = ReturnType<typeof ordersRepo>;

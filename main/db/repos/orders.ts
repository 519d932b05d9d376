import type { Db } from '../open.js';
import { titleFolded } from './folded.js';
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

/** A page of GET /orders/search: one party's orders, the filters already checked by the service. */
export interface OrderSearchFilter {
  role: 'seller' | 'buyer';
  userId: number;
  status: string | null;
  /** Inclusive bounds on the answered `date_created`, as canonical UTC text (`toISOString()`). */
  from: string | null;
  to: string | null;
  sort: OrderSearchSort;
  limit: number;
  offset: number;
}
export type OrderSearchSort = 'id_asc' | 'date_asc' | 'date_desc';

// The date an order answers (date_created, else its status date), in one text form so that
// comparing text compares instants: stored dates may carry an offset (a replica's mirror).
const ANSWERED_DATE = `strftime('%Y-%m-%dT%H:%M:%fZ', coalesce(date_created, status_date))`;
const SEARCH_WHERE = `(@status IS NULL OR status = @status)
  AND (@from IS NULL OR ${ANSWERED_DATE} >= @from) AND (@to IS NULL OR ${ANSWERED_DATE} <= @to)`;
const SEARCH_ORDER: Record<OrderSearchSort, string> = {
  id_asc: 'id',
  // The id breaks ties, so a page boundary between equal dates is stable.
  date_asc: `${ANSWERED_DATE}, id`,
  date_desc: `${ANSWERED_DATE} DESC, id DESC`,
};

const DETAIL = `SELECT o.*, u.nickname AS buyer_nickname, u.first_name AS buyer_first_name, u.last_name AS buyer_last_name
  FROM orders o LEFT JOIN users u ON u.id = o.buyer_id`;

/** The order's answer (GET /orders/{id}, /orders/search) and the inbox's order panel: migration 016's reads and writes. */
export function ordersRepo(db: Db) {
  const detail = db.prepare<[number], OrderDetailRow>(`${DETAIL} WHERE o.id = ?`);
  const details = db.prepare<[string], OrderDetailRow>(`${DETAIL} WHERE o.id IN (SELECT value FROM json_each(?)) ORDER BY o.id`);
  // Two index lookups (orders_by_pack, the primary key), not a scan of coalesce(pack_id, id).
  const ofPackKey = db.prepare<[{ key: number }], OrderDetailRow>(`${DETAIL} WHERE o.pack_id = @key OR (o.pack_id IS NULL AND o.id = @key) ORDER BY o.id`);
  const items = db.prepare<[string], OrderItemRow>(
    `SELECT l.order_id, l.position, l.item_id, l.title, l.quantity, l.unit_price, l.currency_id, i.attributes AS item_attributes
       FROM order_items l LEFT JOIN items i ON i.id = l.item_id
      WHERE l.order_id IN (SELECT value FROM json_each(?)) ORDER BY l.order_id, l.position`,
  );
  const setDetails = db.prepare<[OrderDetails]>(
    `UPDATE orders SET date_created = @date_created, total_amount = @total_amount, currency_id = @currency_id,
       shipping_id = @shipping_id WHERE id = @id`,
  );
  const deleteItems = db.prepare<[number]>('DELETE FROM order_items WHERE order_id = ?');
  const insertItem = db.prepare<[NewOrderItem & { order_id: number; position: number; title_folded: string }]>(
    `INSERT INTO order_items (order_id, position, item_id, title, quantity, unit_price, currency_id, title_folded)
     VALUES (@order_id, @position, @item_id, @title, @quantity, @unit_price, @currency_id, @title_folded)`,
  );

  type SearchParams = { user: number; status: string | null; from: string | null; to: string | null };
  type PageParams = SearchParams & { limit: number; offset: number };
  const searchStatements = (role: OrderSearchFilter['role']) => {
    const where = `${role}_id = @user AND ${SEARCH_WHERE}`;
    const page = (sort: OrderSearchSort) =>
      db.prepare<[PageParams], { id: number }>(`SELECT id FROM orders WHERE ${where} ORDER BY ${SEARCH_ORDER[sort]} LIMIT @limit OFFSET @offset`);
    return {
      count: db.prepare<[SearchParams], { n: number }>(`SELECT count(*) AS n FROM orders WHERE ${where}`),
      pages: { id_asc: page('id_asc'), date_asc: page('date_asc'), date_desc: page('date_desc') },
    };
  };
  const searches = { seller: searchStatements('seller'), buyer: searchStatements('buyer') };
  const search = db.transaction((f: OrderSearchFilter) => {
    const s = searches[f.role];
    const params = { user: f.userId, status: f.status, from: f.from, to: f.to };
    return { total: s.count.get(params)!.n, ids: s.pages[f.sort].all({ ...params, limit: f.limit, offset: f.offset }).map((r) => r.id) };
  });

  return {
    detail: (id: number) => detail.get(id),
    /** One page of a party's orders that pass the filters, and how many pass, read in one snapshot. */
    search: (f: OrderSearchFilter): { total: number; ids: number[] } => search(f),
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
      lines.forEach((l, position) => insertItem.run({ ...l, order_id: d.id, position, title_folded: titleFolded(l.title) }));
    },
  };
}
export type OrdersRepo = ReturnType<typeof ordersRepo>;

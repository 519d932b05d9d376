import { cellKey } from '../../../common/cells.js';
import type { Db } from '../open.js';

/** One change of a store's quantity, from the cell history (oldest first once read). */
export interface StockPointRow {
  store_key: string;
  at: number;
  from_quantity: number | null;
  to_quantity: number;
}

/** Units a product sold on one day (`YYYY-MM-DD`, in the caller's offset from UTC). */
export interface SalesDayRow {
  day: string;
  units: number;
}

// When an order was made as one text form (its status date when the order has no date_created):
// stored dates may carry an offset (a replica's mirror), so they are normalised before comparing.
const ORDER_INSTANT = `strftime('%Y-%m-%dT%H:%M:%fZ', coalesce(o.date_created, o.status_date))`;
// A cancelled order sold nothing; any other status (paid, a newer one the marketplace sent) did.
const SOLD = `o.status <> 'cancelled' AND ${ORDER_INSTANT} >= @since`;

/**
 * What a product's stock and sales look like over time (issue 28): its stores' quantities from the
 * cell history it already keeps (migration 007), and units sold from the seller's orders
 * (migration 016's `order_items`, found by item through migration 031's index).
 */
export function stockInsightRepo(db: Db) {
  const stores = db
    .prepare<[string], string>("SELECT store_key FROM stock_locations WHERE user_product_id = ? AND type = 'seller_warehouse' ORDER BY position")
    .pluck(true);
  // Newest first by the cell's index (cell, id): at most `limit` rows however long the history is;
  // the caller drops those older than its window.
  const points = db.prepare<[string, number], StockPointRow>(
    `SELECT store_key, at, from_quantity, to_quantity FROM sync_cell_history
      WHERE cell = ? AND to_quantity IS NOT NULL ORDER BY id DESC LIMIT ?`,
  );
  const salesByDay = db.prepare<[{ up: string; seller: number; since: string; offset: string }], SalesDayRow>(
    `SELECT date(${ORDER_INSTANT}, @offset) AS day, sum(l.quantity) AS units
       FROM items i JOIN order_items l ON l.item_id = i.id JOIN orders o ON o.id = l.order_id
      WHERE i.user_product_id = @up AND o.seller_id = @seller AND ${SOLD}
      GROUP BY day ORDER BY day`,
  );
  // The whole page in one statement: items by user product (items_by_user_product), their lines
  // by item (order_items_by_item), each line's order by its key.
  const salesOfProducts = db.prepare<[{ ids: string; seller: number; since: string }], { user_product_id: string; units: number }>(
    `SELECT i.user_product_id, sum(l.quantity) AS units
       FROM items i JOIN order_items l ON l.item_id = i.id JOIN orders o ON o.id = l.order_id
      WHERE i.user_product_id IN (SELECT value FROM json_each(@ids)) AND o.seller_id = @seller AND ${SOLD}
      GROUP BY i.user_product_id`,
  );
  return {
    /** The product's seller_warehouse stores (their ids), in the listing's order. */
    storesOf: (userProductId: string) => stores.all(userProductId),
    /** The store's quantity changes at or after `since` (ms), at most `limit` of the newest, oldest first. */
    pointsOf(userProductId: string, storeKey: string, since: number, limit: number): StockPointRow[] {
      return points
        .all(cellKey(userProductId, 'seller_warehouse', storeKey), limit)
        .filter((r) => r.at >= since)
        .reverse();
    },
    /**
     * Units of the product the seller sold per day since `since` (an ISO instant), days counted
     * at `offsetMinutes` east of UTC (the screen's time zone); days without sales are absent.
     */
    salesPerDay: (userProductId: string, sellerId: number, since: string, offsetMinutes: number) =>
      salesByDay.all({ up: userProductId, seller: sellerId, since, offset: `${offsetMinutes >= 0 ? '+' : '-'}${Math.abs(offsetMinutes)} minutes` }),
    /** Units each product sold since `since` (an ISO instant); products without sales are absent. */
    unitsSince(userProductIds: readonly string[], sellerId: number, since: string): Map<string, number> {
      const out = new Map<string, number>();
      if (userProductIds.length === 0) return out;
      for (const r of salesOfProducts.all({ ids: JSON.stringify(userProductIds), seller: sellerId, since })) out.set(r.user_product_id, r.units);
      return out;
    },
  };
}
export type StockInsightRepo = ReturnType<typeof stockInsightRepo>;

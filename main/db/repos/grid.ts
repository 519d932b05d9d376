import type { Db } from '../open.js';

/** What the stock grid needs of an item: its ids and the facts behind the selling-address rules (SPEC 7.3). */
export interface ItemFacts {
  id: string;
  user_product_id: string;
  logistic_type: string;
  local_delivery: number;
  inventory_id: string | null;
  full_inbound_done: number;
}

/** When a conflicting outbox entry was made and when the marketplace's different value was seen. */
export interface ConflictTimes {
  id: number;
  created_at: number;
  updated_at: number;
}

/** A user product and its position in the seller's unfiltered grid (ordered by id). */
export interface ProductPosition {
  id: string;
  pos: number;
}

/** Which of the seller's user products a filtered grid keeps. */
export interface ProductFilter {
  /** Title words, a user product id or an item id, trimmed; '' keeps every product. */
  search: string;
  /** States of an active stock entry of the product in the outbox; null for any product. */
  states: readonly string[] | null;
  /** Only the products stocked in this store (a location there, or an edit of it queued). */
  store?: string | undefined;
  /** Only the products with a seller-managed location (a store, the selling address) at or under this quantity. */
  lowStock?: number | undefined;
}

/** `%`, `_` and `\` typed by a person are literal characters, not patterns. */
const likeText = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The read queries of the stock grid (main/desktop/grid.ts builds the pages from them and from the
 * read model): the seller's column set, item facts and conflict times for the cells, searches and
 * positions in the grid's order. Reads only; the callers hold the read transaction.
 */
export function gridRepo(db: Db) {
  const stockStores = db.prepare<[string], { id: string }>(
    `SELECT id FROM stores WHERE user_id = ? AND EXISTS (SELECT 1 FROM json_each(stores.tags) WHERE value = 'stock_location')`,
  );
  const hasLocation = db.prepare<[string, number], { one: number }>(
    'SELECT 1 AS one FROM stock_locations sl JOIN user_products u ON u.id = sl.user_product_id WHERE sl.type = ? AND u.user_id = ? LIMIT 1',
  );
  const pendingSellingAddress = db.prepare<[number], { one: number }>(
    `SELECT 1 AS one FROM sync_outbox o JOIN user_products u ON u.id = o.user_product_id WHERE o.state <> 'done' AND o.cell_type = 'selling_address' AND u.user_id = ? LIMIT 1`,
  );
  const itemFacts = db.prepare<[string], ItemFacts>(
    'SELECT id, user_product_id, logistic_type, local_delivery, inventory_id, full_inbound_done FROM items WHERE user_product_id IN (SELECT value FROM json_each(?)) ORDER BY id',
  );
  const conflictTimes = db.prepare<[string], ConflictTimes>('SELECT id, created_at, updated_at FROM sync_outbox WHERE id IN (SELECT value FROM json_each(?))');
  const productById = db.prepare<[string, number], { id: string }>('SELECT id FROM user_products WHERE id = ? AND user_id = ?');
  const productOfItem = db.prepare<[string, number], { id: string }>('SELECT user_product_id AS id FROM items WHERE id = ? AND seller_id = ?');
  const productOfInventory = db.prepare<[string, number], { id: string }>(
    'SELECT user_product_id AS id FROM items WHERE inventory_id = ? AND seller_id = ? ORDER BY id LIMIT 1',
  );
  const productCount = db.prepare<[number], { n: number }>('SELECT n FROM user_product_counts WHERE user_id = ?');
  const productsBefore = db.prepare<[number, string], { n: number }>('SELECT count(*) AS n FROM user_products WHERE user_id = ? AND id < ?');
  const productsIn = db.prepare<[number, string], { id: string }>('SELECT id FROM user_products WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))');
  const itemsIn = db.prepare<[number, string], { id: string; user_product_id: string }>(
    'SELECT id, user_product_id FROM items WHERE seller_id = ? AND id IN (SELECT value FROM json_each(?))',
  );
  const positionsIn = db.prepare<[number, string], ProductPosition>(
    `WITH r AS (SELECT id, ROW_NUMBER() OVER (ORDER BY id) - 1 AS pos FROM user_products WHERE user_id = ?)
         SELECT id, pos FROM r WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
  );

  return {
    /** The seller's stores tagged `stock_location` (the grid's store columns). */
    stockStores: (sellerId: number) => stockStores.all(String(sellerId)).map((s) => s.id),
    /** Whether any of the seller's user products has a location of this type. */
    hasLocationOfType: (type: 'selling_address' | 'platform_facility', sellerId: number) => hasLocation.get(type, sellerId) !== undefined,
    /** Whether an edit of a selling-address cell of the seller's is still in the outbox. */
    hasPendingSellingAddress: (sellerId: number) => pendingSellingAddress.get(sellerId) !== undefined,
    /** The items of these user products, by item id. */
    itemFacts: (userProductIds: string[]) => itemFacts.all(JSON.stringify(userProductIds)),
    conflictTimes: (entryIds: number[]) => conflictTimes.all(JSON.stringify(entryIds)),
    /** The seller's user product with this id, by id, item id or inventory id. */
    productById: (id: string, sellerId: number) => productById.get(id, sellerId)?.id,
    productOfItem: (itemId: string, sellerId: number) => productOfItem.get(itemId, sellerId)?.id,
    productOfInventory: (inventoryId: string, sellerId: number) => productOfInventory.get(inventoryId, sellerId)?.id,
    /** Rows of the seller's unfiltered grid (migration 008 keeps the count). */
    productCount: (sellerId: number) => productCount.get(sellerId)?.n ?? 0,
    /** The position of a user product of the seller's in the unfiltered grid. */
    positionOf: (sellerId: number, userProductId: string) => productsBefore.get(sellerId, userProductId)!.n,
    /** Which of these ids are the seller's user products. */
    productsIn: (sellerId: number, ids: string[]) => productsIn.all(sellerId, JSON.stringify(ids)).map((r) => r.id),
    /** The seller's items among these ids, with their user products. */
    itemsIn: (sellerId: number, ids: string[]) => itemsIn.all(sellerId, JSON.stringify(ids)),
    /** These user products of the seller's with their positions in the unfiltered grid, by id. */
    positionsOf: (sellerId: number, userProductIds: string[]) => positionsIn.all(sellerId, JSON.stringify(userProductIds)),

    /**
     * The user products the filter keeps, in grid order, each with its position in the unfiltered
     * grid (the read model pages by position). One read over the seller's products; the statement
     * depends on the filter, so it is prepared for each call.
     */
    matches(sellerId: number, f: ProductFilter): ProductPosition[] {
      const where: string[] = [];
      const params: (string | number)[] = [sellerId];
      if (f.search !== '') {
        const words = f.search.split(/\s+/).slice(0, 8);
        const titleMatch = words.map(() => `i.title LIKE ? ESCAPE '\\'`).join(' AND ');
        where.push(`(upper(r.id) = upper(?) OR EXISTS (SELECT 1 FROM items i WHERE i.user_product_id = r.id AND (upper(i.id) = upper(?) OR (${titleMatch}))))`);
        params.push(f.search, f.search, ...words.map(likeText));
      }
      if (f.states !== null) {
        // lane + state <> 'done' reach the outbox's partial index of active entries.
        where.push(
          `EXISTS (SELECT 1 FROM sync_outbox o WHERE o.lane = 'up:' || r.id AND o.state <> 'done' AND o.kind = 'stock' AND o.state IN (${f.states.map(() => '?').join(', ')}))`,
        );
        params.push(...f.states);
      }
      if (f.store !== undefined) {
        where.push(`(EXISTS (SELECT 1 FROM stock_locations sl WHERE sl.user_product_id = r.id AND sl.type = 'seller_warehouse' AND sl.store_key = ?)
      OR EXISTS (SELECT 1 FROM sync_outbox o WHERE o.lane = 'up:' || r.id AND o.state <> 'done' AND o.cell_type = 'seller_warehouse' AND o.store_key = ?))`);
        params.push(f.store, f.store);
      }
      if (f.lowStock !== undefined) {
        const inStore = f.store !== undefined ? `sl.type = 'seller_warehouse' AND sl.store_key = ?` : `sl.type IN ('seller_warehouse', 'selling_address')`;
        where.push(`EXISTS (SELECT 1 FROM stock_locations sl WHERE sl.user_product_id = r.id AND ${inStore} AND sl.quantity <= ?)`);
        if (f.store !== undefined) params.push(f.store);
        params.push(f.lowStock);
      }
      const sql = `WITH r AS (SELECT id, ROW_NUMBER() OVER (ORDER BY id) - 1 AS pos FROM user_products WHERE user_id = ?)
    SELECT r.id, r.pos FROM r ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY r.id`;
      return db.prepare<(string | number)[], ProductPosition>(sql).all(...params);
    },
  };
}
export type GridRepo = ReturnType<typeof gridRepo>;

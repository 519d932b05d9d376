import type { EditableType } from '../../../common/stock-vocabulary.js';
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
  /** Title words, a user product id, an item id or a code (barcode, SKU, inventory id), trimmed; '' keeps every product. */
  search: string;
  /** States of an active stock entry of the product in the outbox; null for any product. */
  states: readonly string[] | null;
  /** Only the products stocked in this store (a location there, or an edit of it queued). */
  store?: string | undefined;
  /**
   * Only the products with a seller-managed location (a store, the selling address) at or under
   * this quantity; a cell with a reorder point is low at or under its point instead.
   */
  lowStock?: number | undefined;
  /** Only the products with a cell at or under its reorder point (a missing location counts as 0). */
  belowReorder?: boolean | undefined;
  /** The order; absent: by user product id (the covering index, no sort). */
  sort?: GridSort | undefined;
}

/** `product` (by id), `title`, `total`, `selling_address`, `platform_facility`, or a store id. */
export interface GridSort {
  key: string;
  dir: 'asc' | 'desc';
}

/** A location of a kind the app has no rules for, as the mirror keeps it (migration 024). */
export interface OtherLocationRow {
  user_product_id: string;
  type: string;
  store_key: string;
  quantity: number;
}

export interface ReorderPointRow {
  user_product_id: string;
  cell_type: EditableType;
  store_key: string;
  point: number;
}

/** A cell's reorder point when it has one, for a location `sl`. */
const POINT_OF = `(SELECT rp.point FROM reorder_points rp WHERE rp.user_product_id = sl.user_product_id AND rp.cell_type = sl.type AND rp.store_key = sl.store_key)`;

/** The expression a sort orders by, with its parameters (NULL, a missing cell, sorts last). */
function sortKey(sort: GridSort): { sql: string; params: string[] } {
  switch (sort.key) {
    case 'product':
      return { sql: 'r.id', params: [] };
    case 'title':
      return { sql: '(SELECT min(i.title) FROM items i WHERE i.user_product_id = r.id)', params: [] };
    case 'total':
      return { sql: '(SELECT sum(sl.quantity) FROM stock_locations sl WHERE sl.user_product_id = r.id)', params: [] };
    case 'selling_address':
    case 'platform_facility':
      return { sql: `(SELECT sl.quantity FROM stock_locations sl WHERE sl.user_product_id = r.id AND sl.type = ? AND sl.store_key = '')`, params: [sort.key] };
    default:
      return {
        sql: `(SELECT sl.quantity FROM stock_locations sl WHERE sl.user_product_id = r.id AND sl.type = 'seller_warehouse' AND sl.store_key = ?)`,
        params: [sort.key],
      };
  }
}

/**
 * A scanned or typed code as migration 012 stores it: trimmed, upper case, and an all-digit
 * EAN-8, UPC-A, EAN-13 or GTIN-14 left-padded with zeros to 14 digits (a UPC read as 12 digits
 * finds the GTIN kept as 13).
 */
export function normalizeCode(text: string): string {
  const t = text.trim();
  if (/^\d+$/.test(t) && [8, 12, 13, 14].includes(t.length)) return t.padStart(14, '0');
  return t.toUpperCase();
}

/** How a code matched an item (migration 012's kinds). */
export type CodeKind = 'gtin' | 'seller_sku' | 'inventory';

/** `%`, `_` and `\` typed by a person are literal characters, not patterns. */
const likeText = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type OtherLocationType = 'selling_address' | 'platform_facility';

/**
 * Whether seller ? has a location of `type`. The type written out, not bound: only then can SQLite
 * use that type's partial index (migration 021). CROSS JOIN keeps the index outside: left to itself
 * SQLite walks the seller's products and seeks each one (6 ms at 100,000 products, for none found).
 */
export const hasLocationSql = (type: OtherLocationType) =>
  `SELECT 1 AS one FROM stock_locations sl CROSS JOIN user_products u ON u.id = sl.user_product_id WHERE sl.type = '${type}' AND u.user_id = ? LIMIT 1`;

/**
 * Keyset seeks in the (user_id, id) index: the seller's `limit` products just before a product, and
 * from it on. Each is read from the product's key, not walked to from the first row as OFFSET is.
 */
export const IDS_BEFORE_SQL = 'SELECT id FROM user_products WHERE user_id = ? AND id < ? ORDER BY id DESC LIMIT ?';
export const IDS_FROM_SQL = 'SELECT id FROM user_products WHERE user_id = ? AND id >= ? ORDER BY id LIMIT ?';

/** The product `every` places after a product (OFFSET walks `every` entries of the index from it). */
export const FENCE_AFTER_SQL = 'SELECT id FROM user_products WHERE user_id = ? AND id >= ? ORDER BY id LIMIT 1 OFFSET ?';
/** The products from a known one up to another: the walk a place takes from the nearest kept place. */
export const COUNT_FROM_SQL = 'SELECT count(*) FROM user_products WHERE user_id = ? AND id >= ? AND id < ?';

/**
 * The read queries of the stock grid (main/desktop/grid.ts builds the pages from them and from the
 * read model): the seller's column set, item facts and conflict times for the cells, searches and
 * positions in the grid's order. Reads only; the callers hold the read transaction.
 */
export function gridRepo(db: Db) {
  const stockStores = db.prepare<[string], { id: string }>(
    `SELECT id FROM stores WHERE user_id = ? AND EXISTS (SELECT 1 FROM json_each(stores.tags) WHERE value = 'stock_location')`,
  );
  const hasLocationOf = (type: OtherLocationType) => db.prepare<[number], { one: number }>(hasLocationSql(type));
  const hasLocation = { selling_address: hasLocationOf('selling_address'), platform_facility: hasLocationOf('platform_facility') };
  const pendingSellingAddress = db.prepare<[number], { one: number }>(
    `SELECT 1 AS one FROM sync_outbox o JOIN user_products u ON u.id = o.user_product_id WHERE o.state <> 'done' AND o.cell_type = 'selling_address' AND u.user_id = ? LIMIT 1`,
  );
  const itemFacts = db.prepare<[string], ItemFacts>(
    'SELECT id, user_product_id, logistic_type, local_delivery, inventory_id, full_inbound_done FROM items WHERE user_product_id IN (SELECT value FROM json_each(?)) ORDER BY id',
  );
  const otherLocations = db.prepare<[string], OtherLocationRow>(
    `SELECT user_product_id, type, store_key, quantity FROM remote_other_locations
      WHERE user_product_id IN (SELECT value FROM json_each(?)) ORDER BY user_product_id, position`,
  );
  const conflictTimes = db.prepare<[string], ConflictTimes>('SELECT id, created_at, updated_at FROM sync_outbox WHERE id IN (SELECT value FROM json_each(?))');
  const productById = db.prepare<[string, number], { id: string }>('SELECT id FROM user_products WHERE id = ? AND user_id = ?');
  const productOfItem = db.prepare<[string, number], { id: string }>('SELECT user_product_id AS id FROM items WHERE id = ? AND seller_id = ?');
  // One seek in item_codes' primary key (seller, code); a barcode before a SKU before an inventory id.
  const productOfCode = db.prepare<[number, string], { id: string; kind: CodeKind }>(
    `SELECT i.user_product_id AS id, c.kind FROM item_codes c JOIN items i ON i.id = c.item_id
      WHERE c.seller_id = ? AND c.code = ?
      ORDER BY CASE c.kind WHEN 'gtin' THEN 0 WHEN 'seller_sku' THEN 1 ELSE 2 END, c.item_id LIMIT 1`,
  );
  const titleOf = db.prepare<[string], { title: string }>('SELECT title FROM items WHERE user_product_id = ? ORDER BY id LIMIT 1');
  // The first item's stored attributes, where its pictures are (the scan station shows one).
  const attributesOf = db.prepare<[string], string | null>('SELECT attributes FROM items WHERE user_product_id = ? ORDER BY id LIMIT 1').pluck(true);
  const productCount = db.prepare<[number], { n: number }>('SELECT n FROM user_product_counts WHERE user_id = ?');
  const productsBefore = db.prepare<[number, string], { n: number }>('SELECT count(*) AS n FROM user_products WHERE user_id = ? AND id < ?');
  // Migration 033: moves whenever one of the seller's products comes or goes.
  const productsStamp = db.prepare<[number], { n: number; changes: number }>('SELECT n, changes FROM user_product_counts WHERE user_id = ?');
  const firstProduct = db.prepare<[number], string>('SELECT id FROM user_products WHERE user_id = ? ORDER BY id LIMIT 1').pluck(true);
  const productAfter = db.prepare<[number, string, number], string>(FENCE_AFTER_SQL).pluck(true);
  const productsFrom = db.prepare<[number, string, string], number>(COUNT_FROM_SQL).pluck(true);
  const idsBefore = db.prepare<[number, string, number], string>(IDS_BEFORE_SQL).pluck(true);
  const idsFrom = db.prepare<[number, string, number], string>(IDS_FROM_SQL).pluck(true);
  const productsIn = db.prepare<[number, string], { id: string }>('SELECT id FROM user_products WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))');
  const itemsIn = db.prepare<[number, string], { id: string; user_product_id: string }>(
    'SELECT id, user_product_id FROM items WHERE seller_id = ? AND id IN (SELECT value FROM json_each(?))',
  );
  const reorderIn = db.prepare<[string], ReorderPointRow>(
    'SELECT user_product_id, cell_type, store_key, point FROM reorder_points WHERE user_product_id IN (SELECT value FROM json_each(?))',
  );
  // The seller's SKU: the item's SELLER_SKU attribute, else its seller_custom_field. `items.attributes`
  // is an object holding both (`{"attributes": [{"id", "value_name"}], "seller_custom_field"}`, migration 012).
  const skus = db.prepare<[string], { id: string; sku: string | null }>(
    `WITH i AS (SELECT id, user_product_id, CASE WHEN json_valid(attributes) THEN attributes ELSE '{}' END AS j
                  FROM items WHERE user_product_id IN (SELECT value FROM json_each(?)))
     SELECT i.user_product_id AS id,
       coalesce(
         (SELECT nullif(trim(a.value ->> '$.value_name'), '') FROM json_each(CASE WHEN json_type(i.j, '$.attributes') = 'array' THEN i.j ELSE '{"attributes":[]}' END, '$.attributes') a
           WHERE a.value ->> '$.id' = 'SELLER_SKU' AND typeof(a.value ->> '$.value_name') = 'text' LIMIT 1),
         CASE WHEN typeof(i.j ->> '$.seller_custom_field') = 'text' THEN nullif(trim(i.j ->> '$.seller_custom_field'), '') END
       ) AS sku
     FROM i ORDER BY i.id`,
  );
  const positionsIn = db.prepare<[number, string], ProductPosition>(
    `WITH r AS (SELECT id, ROW_NUMBER() OVER (ORDER BY id) - 1 AS pos FROM user_products WHERE user_id = ?)
         SELECT id, pos FROM r WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
  );

  return {
    /** The seller's stores tagged `stock_location` (the grid's store columns). */
    stockStores: (sellerId: number) => stockStores.all(String(sellerId)).map((s) => s.id),
    /** Whether any of the seller's user products has a location of this type. */
    hasLocationOfType: (type: OtherLocationType, sellerId: number) => hasLocation[type].get(sellerId) !== undefined,
    /** Whether an edit of a selling-address cell of the seller's is still in the outbox. */
    hasPendingSellingAddress: (sellerId: number) => pendingSellingAddress.get(sellerId) !== undefined,
    /** The items of these user products, by item id. */
    itemFacts: (userProductIds: string[]) => itemFacts.all(JSON.stringify(userProductIds)),
    /** The locations of kinds the app has no rules for, of these user products, in the order the remote sent them. */
    otherLocationsOf: (userProductIds: string[]) => otherLocations.all(JSON.stringify(userProductIds)),
    conflictTimes: (entryIds: number[]) => conflictTimes.all(JSON.stringify(entryIds)),
    /** The seller's user product with this id, or the one of an item id. */
    productById: (id: string, sellerId: number) => productById.get(id, sellerId)?.id,
    productOfItem: (itemId: string, sellerId: number) => productOfItem.get(itemId, sellerId)?.id,
    /** The seller's user product with this barcode, seller SKU or inventory id (any case; see normalizeCode), and how it matched. */
    productOfCode: (code: string, sellerId: number) => productOfCode.get(sellerId, normalizeCode(code)),
    /** The title of a user product's first item (null when it has none). */
    titleOf: (userProductId: string) => titleOf.get(userProductId)?.title ?? null,
    /** The first item's stored attributes as JSON (its pictures), or null. */
    attributesOf: (userProductId: string) => attributesOf.get(userProductId) ?? null,
    /** Rows of the seller's unfiltered grid (migration 008 keeps the count). */
    productCount: (sellerId: number) => productCount.get(sellerId)?.n ?? 0,
    /** The position of a user product of the seller's in the unfiltered grid. */
    positionOf: (sellerId: number, userProductId: string) => productsBefore.get(sellerId, userProductId)!.n,
    /** A stamp of the seller's set of products: it changes whenever one comes or goes (migration 033), never for an edit. */
    productsStamp: (sellerId: number) => {
      const r = productsStamp.get(sellerId);
      return r ? `${r.n}:${r.changes}` : '0:0';
    },
    /**
     * Every `every`-th product of the seller's unfiltered grid, from the first (position k × every
     * is the k-th id): one walk of the index in steps of `every`, a place for each step.
     */
    fences(sellerId: number, every: number): string[] {
      const out: string[] = [];
      for (let id = firstProduct.get(sellerId); id !== undefined; id = productAfter.get(sellerId, id, every)) out.push(id);
      return out;
    },
    /** How many of the seller's products are at or after `from` and before `userProductId` (a walk from `from` only). */
    countFrom: (sellerId: number, from: string, userProductId: string) => productsFrom.get(sellerId, from, userProductId) ?? 0,
    /**
     * The ids of the unfiltered grid's rows around a product of the seller's, in grid order: the
     * `before` rows just before it, then it and the rows after it, `size` in all (fewer at the end).
     * Two seeks: a scan's page is read from its product (issue 29), not from the grid's first row.
     */
    pageAround(sellerId: number, userProductId: string, before: number, size: number): string[] {
      const head = before > 0 ? idsBefore.all(sellerId, userProductId, before).reverse() : [];
      return [...head, ...idsFrom.all(sellerId, userProductId, Math.max(0, size - head.length))];
    },
    /** Which of these ids are the seller's user products. */
    productsIn: (sellerId: number, ids: string[]) => productsIn.all(sellerId, JSON.stringify(ids)).map((r) => r.id),
    /** The seller's items among these ids, with their user products. */
    itemsIn: (sellerId: number, ids: string[]) => itemsIn.all(sellerId, JSON.stringify(ids)),
    /** These user products of the seller's with their positions in the unfiltered grid, by id. */
    positionsOf: (sellerId: number, userProductIds: string[]) => positionsIn.all(sellerId, JSON.stringify(userProductIds)),
    /** The first SKU of each of these user products' items. */
    skusOf(userProductIds: string[]): Map<string, string> {
      const out = new Map<string, string>();
      for (const r of skus.all(JSON.stringify(userProductIds))) if (r.sku && !out.has(r.id)) out.set(r.id, r.sku);
      return out;
    },
    /** The reorder points of these user products' cells. */
    reorderPointsOf: (userProductIds: string[]) => reorderIn.all(JSON.stringify(userProductIds)),
    /** A number that changes whenever anything was written to the database (this connection or another): cached reads compare it. */
    writeStamp: () => `${(db.prepare('SELECT total_changes() AS n').get() as { n: number }).n}:${db.pragma('data_version', { simple: true }) as number}`,

    /**
     * The user products the filter keeps, in grid order (or the sort's, ties by id), each with its
     * position in the unfiltered grid (the read model pages by position). One read over the
     * seller's products; the statement depends on the filter, so it is prepared for each call.
     */
    matches(sellerId: number, f: ProductFilter): ProductPosition[] {
      const where: string[] = [];
      const params: (string | number)[] = [sellerId];
      if (f.search !== '') {
        const words = f.search.split(/\s+/).slice(0, 8);
        const titleMatch = words.map(() => `i.title LIKE ? ESCAPE '\\'`).join(' AND ');
        // A code (barcode, SKU, inventory id) is one seek in item_codes, evaluated once for the whole read.
        where.push(`(upper(r.id) = upper(?) OR EXISTS (SELECT 1 FROM items i WHERE i.user_product_id = r.id AND (upper(i.id) = upper(?) OR (${titleMatch})))
      OR r.id IN (SELECT i.user_product_id FROM item_codes c JOIN items i ON i.id = c.item_id WHERE c.seller_id = ? AND c.code = ?))`);
        params.push(f.search, f.search, ...words.map(likeText), sellerId, normalizeCode(f.search));
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
        where.push(`EXISTS (SELECT 1 FROM stock_locations sl WHERE sl.user_product_id = r.id AND ${inStore} AND sl.quantity <= coalesce(${POINT_OF}, ?))`);
        if (f.store !== undefined) params.push(f.store);
        params.push(f.lowStock);
      }
      if (f.belowReorder) {
        where.push(`EXISTS (SELECT 1 FROM reorder_points rp WHERE rp.user_product_id = r.id ${f.store !== undefined ? `AND rp.cell_type = 'seller_warehouse' AND rp.store_key = ?` : ''}
      AND coalesce((SELECT sl.quantity FROM stock_locations sl WHERE sl.user_product_id = rp.user_product_id AND sl.type = rp.cell_type AND sl.store_key = rp.store_key), 0) <= rp.point)`);
        if (f.store !== undefined) params.push(f.store);
      }
      const sort = f.sort && f.sort.key !== 'product' ? sortKey(f.sort) : null;
      const dir = f.sort?.dir === 'desc' ? 'DESC' : 'ASC';
      const order = sort ? `k IS NULL, k ${dir}, r.id` : `r.id ${dir}`;
      const sql = `WITH r AS (SELECT id, ROW_NUMBER() OVER (ORDER BY id) - 1 AS pos FROM user_products WHERE user_id = ?)
    SELECT r.id, r.pos${sort ? `, ${sort.sql} AS k` : ''} FROM r ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order}`;
      // The sort key's parameters come first: it is in the SELECT list, before the WHERE clause.
      const all = sort ? [params[0]!, ...sort.params, ...params.slice(1)] : params;
      return db.prepare<(string | number)[], ProductPosition>(sql).all(...all);
    },
  };
}
export type GridRepo = ReturnType<typeof gridRepo>;

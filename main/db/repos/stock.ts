import type { ItemFields } from '../../../common/views.js';
import type { Db } from '../open.js';
import type { LocationType } from '../../../common/stock-vocabulary.js';

export type { LocationType } from '../../../common/stock-vocabulary.js';

export interface StoreRow {
  id: string;
  user_id: string;
  description: string;
  status: string;
  tags: string;
  network_node_id: string;
  location: string;
}

export interface UserProductRow {
  id: string;
  /** Read with safeIntegers like the version. */
  user_id: bigint;
  /** 64-bit: read with safeIntegers so a version past 2^53 stays exact. */
  version: bigint;
  product_release_date: string | null;
}

export interface LocationRow {
  type: LocationType;
  store_key: string;
  network_node_id: string | null;
  quantity: number;
}

/** Writes one location: a new one goes last (position), an existing one takes the quantity (and a node when given). */
export const UPSERT_LOCATION_SQL = `INSERT INTO stock_locations (user_product_id, type, store_key, network_node_id, quantity, position)
     VALUES (@up, @type, @store, @node, @qty,
             (SELECT coalesce(max(position), -1) + 1 FROM stock_locations WHERE user_product_id = @up))
     ON CONFLICT (user_product_id, type, store_key)
     DO UPDATE SET quantity = excluded.quantity, network_node_id = coalesce(excluded.network_node_id, network_node_id)`;
export type UpsertLocationParams = { up: string; type: LocationType; store: string; node: string | null; qty: number };

/**
 * A user product's stock as the JSON of SPEC 2.5, built by SQLite in the statement that reads it:
 * the locations in their stored order, `store_id` and `network_node_id` only for seller_warehouse.
 * Building the text in SQLite costs half of reading ten rows into JavaScript and serializing them.
 */
const LOCATION_JSON = `CASE l.type WHEN 'seller_warehouse'
    THEN json_object('type', l.type, 'quantity', l.quantity, 'store_id', l.store_key, 'network_node_id', coalesce(l.network_node_id, ''))
    ELSE json_object('type', l.type, 'quantity', l.quantity) END`;
/** The joined locations `l` as a JSON array in their stored order ([] when none joined). */
const LOCATIONS_JSON = `json_group_array(${LOCATION_JSON} ORDER BY l.position) FILTER (WHERE l.type IS NOT NULL)`;
export const STOCK_JSON_SQL = `SELECT up.user_id, CAST(up.version AS TEXT),
       json_object('id', up.id, 'user_id', up.user_id, 'locations', ${LOCATIONS_JSON})
  FROM user_products up LEFT JOIN stock_locations l ON l.user_product_id = up.id
 WHERE up.id = ?`;

/** The owner, the version (64-bit, exact) and the body of GET .../stock; undefined when absent. */
export interface StockJsonRow {
  user_id: number;
  version: bigint;
  json: string;
}

/** A store as a stock write checks it (SPEC 7.1, 7.2). */
export type StockStoreRow = Pick<StoreRow, 'id' | 'user_id' | 'tags' | 'network_node_id'>;

/** An item as stored: the item's own fields, and its lists as JSON text. */
export interface ItemRow extends ItemFields {
  channels: string;
  official_store_id: number | null;
  logistic_type: 'fulfillment' | 'cross_docking' | 'self_service';
  local_delivery: number;
  inventory_id: string | null;
  full_inbound_done: number;
  available_quantity: number | null;
  attributes: string;
}

export interface NewStore {
  id: string;
  user_id: string;
  description: string;
  status: string;
  tags: string[];
  network_node_id: string;
  location: object;
}

export interface NewLocation {
  type: LocationType;
  store_id?: string | undefined;
  network_node_id?: string | undefined;
  quantity: number;
}

export type NewItem = Omit<ItemRow, 'channels' | 'local_delivery' | 'full_inbound_done' | 'attributes'> & {
  channels: string[];
  local_delivery: boolean;
  full_inbound_done: boolean;
  attributes: Record<string, unknown>;
};

/** Stores, user products with their stock per location, and items (SPEC 2.2-2.6). */
export function stockRepo(db: Db) {
  const storeById = db.prepare<[string], StoreRow>('SELECT * FROM stores WHERE id = ?');
  const storesOfUser = db.prepare<[string], StoreRow>('SELECT * FROM stores WHERE user_id = ? ORDER BY CAST(id AS INTEGER), id');
  const insertStore = db.prepare(
    `INSERT INTO stores (id, user_id, description, status, tags, network_node_id, location)
     VALUES (@id, @user_id, @description, @status, @tags, @network_node_id, @location)`,
  );

  const userProductById = db
    .prepare<[string], UserProductRow>('SELECT id, user_id, version, product_release_date FROM user_products WHERE id = ?')
    .safeIntegers(true);
  // The read of every GET .../stock; the 64-bit version as text (exact, made a BigInt once).
  // An aggregate without GROUP BY: one row even for an unknown id, with a null owner.
  const stockJson = db.prepare<[string], [number | null, string | null, string]>(STOCK_JSON_SQL).raw(true);
  // What a seller_warehouse write checks before writing: the owner, and the location types held.
  const writeHead = db
    .prepare<[string], [number, string | null]>(
      `SELECT user_id, (SELECT group_concat(DISTINCT type) FROM stock_locations WHERE user_product_id = up.id)
         FROM user_products up WHERE id = ?`,
    )
    .raw(true);
  // The answer of a seller_warehouse write (SPEC 4.5): its seller_warehouse locations, read back
  // inside the write's own transaction, so it is exactly what the write left.
  const sellerWarehouseJson = db
    .prepare<[string], string>(
      `SELECT json_object('id', up.id, 'user_id', up.user_id, 'locations', ${LOCATIONS_JSON}, 'product_release_date', up.product_release_date)
         FROM user_products up LEFT JOIN stock_locations l ON l.user_product_id = up.id AND l.type = 'seller_warehouse'
        WHERE up.id = ?`,
    )
    .pluck(true);
  const stockStoreById = db.prepare<[string], [string, string, string, string]>('SELECT id, user_id, tags, network_node_id FROM stores WHERE id = ?').raw(true);
  // Rows as arrays (raw): on every stock write, and building the objects here costs a third less
  // than the driver's named rows.
  const locationsOf = db
    .prepare<[string], [LocationType, string, string | null, number]>(
      `SELECT type, store_key, network_node_id, quantity FROM stock_locations
        WHERE user_product_id = ? ORDER BY position`,
    )
    .raw(true);
  const insertUserProduct = db.prepare<[string, number, bigint]>('INSERT INTO user_products (id, user_id, version) VALUES (?, ?, ?)');
  const bumpVersionIf = db.prepare<[string, bigint]>('UPDATE user_products SET version = version + 1 WHERE id = ? AND version = ?');
  const bumpVersion = db.prepare<[string]>('UPDATE user_products SET version = version + 1 WHERE id = ?');
  const upsertLocation = db.prepare<[UpsertLocationParams]>(UPSERT_LOCATION_SQL);
  // Most writes set a location that exists: a plain UPDATE costs a third of the upsert, whose
  // VALUES (the next position) are computed before the conflict is even seen.
  const setLocation = db.prepare<[UpsertLocationParams]>(
    `UPDATE stock_locations SET quantity = @qty, network_node_id = coalesce(@node, network_node_id)
      WHERE user_product_id = @up AND type = @type AND store_key = @store`,
  );

  const itemById = db.prepare<[string], ItemRow>('SELECT * FROM items WHERE id = ?');
  const itemsOfUserProduct = db.prepare<[string], ItemRow>('SELECT * FROM items WHERE user_product_id = ? ORDER BY id');
  const setAvailableQuantity = db.prepare<[number, string]>('UPDATE items SET available_quantity = ? WHERE user_product_id = ?');
  const insertItem = db.prepare(
    `INSERT INTO items (id, site_id, title, seller_id, category_id, user_product_id, price, base_price, currency_id,
       listing_type_id, channels, official_store_id, logistic_type, local_delivery, inventory_id, full_inbound_done,
       available_quantity, attributes, date_created)
     VALUES (@id, @site_id, @title, @seller_id, @category_id, @user_product_id, @price, @base_price, @currency_id,
       @listing_type_id, @channels, @official_store_id, @logistic_type, @local_delivery, @inventory_id,
       @full_inbound_done, @available_quantity, @attributes, @date_created)`,
  );
  const nextCounter = db.prepare<[string, number], { value: number }>(
    `INSERT INTO counters (name, value) VALUES (?, ?)
     ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value`,
  );

  return {
    storeById: (id: string) => storeById.get(id),
    storesOfUser: (userId: string) => storesOfUser.all(userId),
    insertStore: (s: NewStore) =>
      insertStore.run({
        ...s,
        tags: JSON.stringify(s.tags),
        location: JSON.stringify(s.location),
      }),

    userProductById: (id: string) => userProductById.get(id),
    locationsOf: (userProductId: string): LocationRow[] =>
      locationsOf.all(userProductId).map(([type, store_key, network_node_id, quantity]) => ({ type, store_key, network_node_id, quantity })),
    /** The user product's owner, version and stock JSON in one statement (one snapshot). */
    stockJson: (userProductId: string): StockJsonRow | undefined => {
      const [user_id, version, json] = stockJson.get(userProductId)!;
      return user_id === null || version === null ? undefined : { user_id, version: BigInt(version), json };
    },
    /** The owner and the location types a user product holds; undefined when absent. */
    writeHead: (userProductId: string): { user_id: number; types: LocationType[] } | undefined => {
      const row = writeHead.get(userProductId);
      return row && { user_id: row[0], types: row[1] === null ? [] : (row[1].split(',') as LocationType[]) };
    },
    /** The seller_warehouse answer of SPEC 4.5 as JSON (read inside the write that made it). */
    sellerWarehouseJson: (userProductId: string) => sellerWarehouseJson.get(userProductId)!,
    stockStoreById: (id: string): StockStoreRow | undefined => {
      const row = stockStoreById.get(id);
      return row && { id: row[0], user_id: row[1], tags: row[2], network_node_id: row[3] };
    },
    insertUserProduct: (id: string, userId: number, version: bigint) => insertUserProduct.run(id, userId, version),
    /** Compare-and-set: true when `expected` was the current version and it is now expected + 1. */
    bumpVersionIf: (id: string, expected: bigint) => bumpVersionIf.run(id, expected).changes === 1,
    bumpVersion: (id: string) => bumpVersion.run(id),
    /** Sets one location's quantity (and node when given), adding it after the others when new. */
    upsertLocation: (userProductId: string, l: NewLocation) => {
      const params = { up: userProductId, type: l.type, store: l.store_id ?? '', node: l.network_node_id ?? null, qty: l.quantity };
      if (setLocation.run(params).changes === 0) upsertLocation.run(params);
    },

    itemById: (id: string) => itemById.get(id),
    itemsOfUserProduct: (userProductId: string) => itemsOfUserProduct.all(userProductId),
    setAvailableQuantity: (userProductId: string, quantity: number) => setAvailableQuantity.run(quantity, userProductId),
    insertItem: (i: NewItem) =>
      insertItem.run({
        ...i,
        channels: JSON.stringify(i.channels),
        local_delivery: i.local_delivery ? 1 : 0,
        full_inbound_done: i.full_inbound_done ? 1 : 0,
        attributes: JSON.stringify(i.attributes),
      }),
    /** Next value of a named counter, starting at `start`. */
    nextCounter: (name: string, start: number) => nextCounter.get(name, start)!.value,
  };
}
export type StockRepo = ReturnType<typeof stockRepo>;

import type { ItemFields, UserView } from '../../../common/views.js';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../open.js';
import type { AttachmentRow } from './attachments.js';
import { userFolded } from './folded.js';
import type { MessageRow } from './messages.js';
import { type LocationType, UPSERT_LOCATION_SQL, type UpsertLocationParams } from './stock.js';

/** Most locations replaceStock writes in one statement (and so the most statements it prepares). */
const LOCATIONS_PER_INSERT = 64;

/** A location as the remote reports it (SPEC 2.5). */
export interface RemoteLocation {
  type: LocationType;
  quantity: number;
  store_id?: string;
  network_node_id?: string;
}

/** A location of a kind the app has no rules for, as the remote sent it (migration 024). */
export interface OtherLocation {
  type: string;
  quantity: number;
  store_id?: string;
  network_node_id?: string;
}

export interface MirrorCell {
  type: LocationType;
  store_key: string;
  network_node_id: string | null;
  quantity: number;
}

/** A message as the remote answered it (its moderation status as sent; no local sequence or text hash). */
export type MirrorMessage = Omit<MessageRow, 'status' | 'text_hash' | 'seq' | 'moderation_status'> & { moderation_status: string };

/** An attachment of a pulled message: the row without its content hash (the bytes come on demand), always linked. */
export type MirrorAttachment = Omit<AttachmentRow, 'sha256' | 'message_id' | 'position'> & { message_id: string; position: number };

/**
 * An item of the replica's mirror. Its logistic type is 'unknown' when the remote's answer did not
 * carry it; whether the first full inbound is done is never in the answer (stored as done: the
 * remote refuses the edit if not, and the cell then shows it as failed).
 */
export interface MirrorItem extends ItemFields {
  /** JSON array. */
  channels: string;
  official_store_id: number | null;
  available_quantity: number | null;
  inventory_id: string | null;
  /** fulfillment, cross_docking, self_service; 'unknown' when not sent; a newer kind as the remote sent it. */
  logistic_type: string;
  local_delivery: 0 | 1;
  /** JSON object: `{ attributes?: [...], seller_custom_field?: string | null }`. */
  attributes: string;
}

/**
 * Writes of the desktop replica into the service tables (the MIRROR of the remote marketplace):
 * only the pull and the outbox completions write here; what the person meant lives in the outbox.
 */
export function mirrorRepo(db: Db) {
  const product = db.prepare<[string], { id: string; user_id: number; version: string; stock_read: number }>(
    'SELECT id, user_id, CAST(version AS TEXT) AS version, stock_read FROM user_products WHERE id = ?',
  );
  const cells = db.prepare<[string], MirrorCell>(
    'SELECT type, store_key, network_node_id, quantity FROM stock_locations WHERE user_product_id = ? ORDER BY position',
  );
  const cell = db.prepare<[string, string, string], { quantity: number }>(
    'SELECT quantity FROM stock_locations WHERE user_product_id = ? AND type = ? AND store_key = ?',
  );
  const upsertProduct = db.prepare<[string, number, bigint]>(
    `INSERT INTO user_products (id, user_id, version) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, version = excluded.version, stock_read = 1`,
  );
  // A product known from its listing only (migration 029): version 0, below any the remote answers.
  const listProduct = db.prepare<[string, number]>(
    'INSERT INTO user_products (id, user_id, version, stock_read) VALUES (?, ?, 0, 0) ON CONFLICT (id) DO NOTHING',
  );
  const unreadOf = db.prepare<[number, string, number], { id: string }>(
    'SELECT id FROM user_products WHERE user_id = ? AND stock_read = 0 AND id > ? ORDER BY id LIMIT ?',
  );
  const unreadCount = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM user_products WHERE user_id = ? AND stock_read = 0');
  const unreadAmong = db.prepare<[string], { id: string }>('SELECT id FROM user_products WHERE stock_read = 0 AND id IN (SELECT value FROM json_each(?))');
  const productExists = db.prepare<[string], 1>('SELECT 1 FROM user_products WHERE id = ?').pluck();
  const setVersion = db.prepare<[bigint, string]>('UPDATE user_products SET version = ? WHERE id = ?');
  const advanceVersion = db.prepare<[bigint, string, bigint]>('UPDATE user_products SET version = ? WHERE id = ? AND version = ?');
  const updateQuantity = db.prepare<[number, string, string, string]>(
    'UPDATE stock_locations SET quantity = ? WHERE user_product_id = ? AND type = ? AND store_key = ?',
  );
  const deleteLocations = db.prepare<[string]>('DELETE FROM stock_locations WHERE user_product_id = ?');
  const deleteOthers = db.prepare<[string]>('DELETE FROM remote_other_locations WHERE user_product_id = ?');
  // A location repeated in the answer keeps its first position and the last quantity sent.
  const insertOther = db.prepare<[string, string, string, string | null, number, number]>(
    `INSERT INTO remote_other_locations (user_product_id, type, store_key, network_node_id, quantity, position) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_product_id, type, store_key) DO UPDATE SET quantity = excluded.quantity, network_node_id = excluded.network_node_id`,
  );
  const upsertLocation = db.prepare<[UpsertLocationParams]>(UPSERT_LOCATION_SQL);
  // replaceStock's insert: the product has no locations left, so positions are counted in order
  // (UPSERT_LOCATION_SQL's max(position) + 1, without its lookup per row), and a snapshot's
  // locations go in one statement (a first pull writes a million of them: one call per row costs
  // twice as much). One statement per row count, prepared when first needed.
  const insertLocations = new Map<number, Statement<unknown[]>>();
  const insertLocationsOf = (rows: number) => {
    let stmt = insertLocations.get(rows);
    if (!stmt) {
      stmt = db.prepare<unknown[]>(
        `INSERT INTO stock_locations (user_product_id, type, store_key, network_node_id, quantity, position)
         VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?)').join(', ')}
         ON CONFLICT (user_product_id, type, store_key)
         DO UPDATE SET quantity = excluded.quantity, network_node_id = coalesce(excluded.network_node_id, network_node_id)`,
      );
      insertLocations.set(rows, stmt);
    }
    return stmt;
  };
  const productIdsOf = db.prepare<[number], { id: string }>('SELECT id FROM user_products WHERE user_id = ? AND stock_read = 1 ORDER BY id');

  const upsertUser = db.prepare(
    `INSERT INTO users (id, nickname, registration_date, first_name, last_name, gender, country_id, site_id, user_type, tags,
       nickname_folded, name_folded)
     VALUES (@id, @nickname, @registration_date, @first_name, @last_name, @gender, @country_id, @site_id, @user_type, @tags,
       @nickname_folded, @name_folded)
     ON CONFLICT (id) DO UPDATE SET nickname = excluded.nickname, registration_date = excluded.registration_date,
       nickname_folded = excluded.nickname_folded, name_folded = excluded.name_folded,
       first_name = excluded.first_name, last_name = excluded.last_name, gender = excluded.gender,
       country_id = excluded.country_id, site_id = excluded.site_id, tags = excluded.tags,
       user_type = coalesce(excluded.user_type, user_type)`,
  );
  const userExists = db.prepare<[number], { id: number }>('SELECT id FROM users WHERE id = ?');
  const upsertStore = db.prepare(
    `INSERT INTO stores (id, user_id, description, status, tags, network_node_id, location)
     VALUES (@id, @user_id, @description, @status, @tags, @network_node_id, @location)
     ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, description = excluded.description, status = excluded.status,
       tags = excluded.tags, network_node_id = excluded.network_node_id, location = excluded.location`,
  );
  const deleteStoresExcept = db.prepare<[string, string]>('DELETE FROM stores WHERE user_id = ? AND id NOT IN (SELECT value FROM json_each(?))');
  const itemExists = db.prepare<[string], { id: string }>('SELECT id FROM items WHERE id = ?');
  const upsertItem = db.prepare(
    `INSERT INTO items (id, site_id, title, seller_id, category_id, user_product_id, price, base_price, currency_id,
       listing_type_id, channels, official_store_id, logistic_type, local_delivery, inventory_id, full_inbound_done,
       available_quantity, attributes, date_created)
     VALUES (@id, @site_id, @title, @seller_id, @category_id, @user_product_id, @price, @base_price, @currency_id,
       @listing_type_id, @channels, @official_store_id, @logistic_type, @local_delivery, @inventory_id, 1, @available_quantity, @attributes, @date_created)
     ON CONFLICT (id) DO UPDATE SET title = excluded.title, price = excluded.price, base_price = excluded.base_price,
       channels = excluded.channels, official_store_id = excluded.official_store_id,
       logistic_type = excluded.logistic_type, local_delivery = excluded.local_delivery,
       available_quantity = excluded.available_quantity, inventory_id = excluded.inventory_id, attributes = excluded.attributes`,
  );
  const upsertOrder = db.prepare(
    `INSERT INTO orders (id, pack_id, seller_id, buyer_id, site_id, status, logistic_type, delivered, mediation_in_process, status_date)
     VALUES (@id, @pack_id, @seller_id, @buyer_id, @site_id, @status, @logistic_type, @delivered, @mediation_in_process, @status_date)
     ON CONFLICT (id) DO UPDATE SET pack_id = excluded.pack_id, status = excluded.status, logistic_type = excluded.logistic_type,
       delivered = excluded.delivered, mediation_in_process = excluded.mediation_in_process, status_date = excluded.status_date`,
  );
  const packKeysOf = db.prepare<[number], { pack_key: number }>(
    'SELECT DISTINCT coalesce(pack_id, id) AS pack_key FROM orders WHERE seller_id = ? ORDER BY pack_key',
  );
  const messageState = db.prepare<
    [string],
    { moderation_status: string; date_read: string | null; date_notified: string | null; date_available: string | null }
  >('SELECT moderation_status, date_read, date_notified, date_available FROM messages WHERE id = ?');
  const upsertMessage = db.prepare<[MirrorMessage]>(
    `INSERT INTO messages (id, order_id, from_user_id, to_user_id, pack_key, site_id, client_id, subject, text,
       date_created, date_received, date_available, date_notified, date_read,
       moderation_status, moderation_reason, moderation_source, moderation_date, conversation_first_message, text_hash, seq)
     VALUES (@id, @order_id, @from_user_id, @to_user_id, @pack_key, @site_id, @client_id, @subject, @text,
       @date_created, @date_received, @date_available, @date_notified, @date_read,
       @moderation_status, @moderation_reason, @moderation_source, @moderation_date, @conversation_first_message, NULL,
       (SELECT coalesce(max(seq), 0) + 1 FROM messages))
     ON CONFLICT (id) DO UPDATE SET text = excluded.text, date_available = excluded.date_available,
       date_notified = excluded.date_notified, date_read = excluded.date_read,
       moderation_status = excluded.moderation_status, moderation_reason = excluded.moderation_reason,
       moderation_source = excluded.moderation_source, moderation_date = excluded.moderation_date`,
  );
  const upsertAttachment = db.prepare<[MirrorAttachment]>(
    `INSERT INTO attachments (id, uploader_id, site_id, original_filename, media_type, size, sha256,
       potential_security_threat, created_at, message_id, position)
     VALUES (@id, @uploader_id, @site_id, @original_filename, @media_type, @size, NULL,
       @potential_security_threat, @created_at, @message_id, @position)
     ON CONFLICT (id) DO UPDATE SET potential_security_threat = excluded.potential_security_threat,
       message_id = excluded.message_id, position = excluded.position`,
  );
  const attachmentById = db.prepare<
    [string],
    { id: string; sha256: string | null; site_id: string; original_filename: string; media_type: string; size: number }
  >('SELECT id, sha256, site_id, original_filename, media_type, size FROM attachments WHERE id = ?');
  const setAttachmentSha = db.prepare<[string, string]>('UPDATE attachments SET sha256 = ? WHERE id = ?');
  const deleteBrandsOf = db.prepare<[number]>('DELETE FROM brands WHERE official_store_id IN (SELECT official_store_id FROM brand_users WHERE cust_id = ?)');
  const deleteBrand = db.prepare<[number]>('DELETE FROM brands WHERE official_store_id = ?');

  return {
    product: (id: string) => {
      const r = product.get(id);
      return r ? { id: r.id, user_id: r.user_id, version: BigInt(r.version), stockRead: r.stock_read === 1 } : undefined;
    },
    /** A product known from its listing, its stock not read yet (a progressive first pull); an existing one is left as it is. */
    listProduct: (id: string, userId: number) => listProduct.run(id, userId).changes === 1,
    /** The seller's products whose stock is not read yet, in id order after `after`. */
    unreadProductIds: (userId: number, after: string, limit: number) => unreadOf.all(userId, after, limit).map((r) => r.id),
    unreadCount: (userId: number) => unreadCount.get(userId)?.n ?? 0,
    /** Which of `ids` are not read yet. */
    unreadAmong: (ids: readonly string[]) => unreadAmong.all(JSON.stringify(ids)).map((r) => r.id),
    productExists: (id: string) => productExists.get(id) !== undefined,
    cells: (id: string) => cells.all(id),
    /** The mirror quantity of one cell; undefined when the product has no such location. */
    cellQuantity: (id: string, type: string, storeKey: string) => cell.get(id, type, storeKey)?.quantity,
    /** The seller's products whose stock was read (the pull's round robin of known products). */
    productIdsOf: (userId: number) => productIdsOf.all(userId).map((r) => r.id),
    /**
     * Replaces a user product's stock with a remote snapshot (call inside a transaction).
     * `known: false` says the product is not in the mirror yet (a first pull): it has no
     * locations to delete (they cascade with their product).
     */
    replaceStock(id: string, userId: number, version: bigint, locations: RemoteLocation[], known = true): void {
      upsertProduct.run(id, userId, version);
      if (known) deleteLocations.run(id);
      // A location repeated in the answer updates the first one, as the upsert would (same position).
      const keys = new Set<string>();
      for (let from = 0; from < locations.length; from += LOCATIONS_PER_INSERT) {
        const rows = locations.slice(from, from + LOCATIONS_PER_INSERT);
        const values: unknown[] = [];
        for (const l of rows) {
          const store = l.type === 'seller_warehouse' ? (l.store_id ?? '') : '';
          values.push(id, l.type, store, l.network_node_id ?? null, l.quantity, keys.size);
          keys.add(`${l.type}|${store}`);
        }
        insertLocationsOf(rows.length).run(...values);
      }
    },
    /**
     * Replaces a user product's locations of other kinds with a snapshot's (call inside the
     * transaction of its replaceStock). `known: false`: the product is new, it has none to delete.
     */
    replaceOtherLocations(id: string, others: readonly OtherLocation[], known = true): void {
      if (known) deleteOthers.run(id);
      others.forEach((l, position) => insertOther.run(id, l.type, l.store_id ?? '', l.network_node_id ?? null, l.quantity, position));
    },
    /** Sets one cell's quantity (an UPDATE when the cell exists, else an insert at the end). */
    setCell: (id: string, type: LocationType, storeKey: string, node: string | null, quantity: number) => {
      if (updateQuantity.run(quantity, id, type, storeKey).changes === 0) upsertLocation.run({ up: id, type, store: storeKey, node, qty: quantity });
    },
    setVersion: (id: string, version: bigint) => setVersion.run(version, id),
    /** Moves a product from version `from` to `to`; false (nothing written) when the mirror does not hold it at `from`. */
    advanceVersion: (id: string, from: bigint, to: bigint) => advanceVersion.run(to, id, from).changes === 1,

    userExists: (id: number) => userExists.get(id) !== undefined,
    upsertUser: (u: UserView & { user_type?: string | null }) =>
      upsertUser.run({ ...u, ...userFolded(u), user_type: u.user_type ?? null, tags: JSON.stringify(u.tags) }),
    upsertStore: (s: { id: string; user_id: string; description: string; status: string; tags: string[]; network_node_id: string; location: unknown }) =>
      upsertStore.run({ ...s, tags: JSON.stringify(s.tags), location: JSON.stringify(s.location) }),
    deleteStoresExcept: (userId: string, keep: string[]) => deleteStoresExcept.run(userId, JSON.stringify(keep)).changes,
    itemExists: (id: string) => itemExists.get(id) !== undefined,
    /**
     * An item as the remote answered it; `attributes` is the JSON object of its publishing-flow
     * attributes and `seller_custom_field` (the codes a scan finds it by: migration 012's triggers).
     */
    upsertItem: (i: MirrorItem) => upsertItem.run(i),
    upsertOrder: (o: Record<string, unknown>) => upsertOrder.run(o),
    packKeysOf: (sellerId: number) => packKeysOf.all(sellerId).map((r) => r.pack_key),
    messageState: (id: string) => messageState.get(id),
    upsertMessage: (m: MirrorMessage) => upsertMessage.run(m),
    upsertAttachment: (a: MirrorAttachment) => upsertAttachment.run(a),
    attachmentById: (id: string) => attachmentById.get(id),
    setAttachmentSha: (id: string, sha256: string) => setAttachmentSha.run(sha256, id),
    deleteBrandsOf: (userId: number) => deleteBrandsOf.run(userId).changes,
    deleteBrand: (id: number) => deleteBrand.run(id).changes,
  };
}
export type MirrorRepo = ReturnType<typeof mirrorRepo>;

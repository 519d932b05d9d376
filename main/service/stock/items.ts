import type { ItemPictureView, ItemView } from '../../../common/views.js';
import { stringListColumn, parseColumn } from '../../db/json-columns.js';
import { z } from 'zod';
import type { GroupCommit } from '../../db/group-commit.js';
import type { ItemRow, NewLocation, StockRepo } from '../../db/repos/stock.js';
import type { UsersRepo } from '../../db/repos/users.js';
import type { Principal } from '../auth/auth.js';
import type { Clock } from '../clock.js';
import { ServiceError, badRequest, fieldsInvalid, fieldsRequired, forbidden } from '../errors.js';
import { parseItemId, parseWith, requireObject } from '../params.js';
import { MAX_QUANTITY } from './locations.js';
import type { StockService } from './stock.js';
import { type StoresService, storeErrors } from './stores.js';

/**
 * Attributes of the ordinary item-publishing flow that may travel with a multi-warehouse item
 * (SPEC 4.3: "further item attributes ... can be sent in the same body"). They are stored as given;
 * any other key is rejected with "The fields [...] are invalid for requested call".
 */
export const ORDINARY_ITEM_ATTRIBUTES = [
  'attributes',
  'seller_custom_field',
  'buying_mode',
  'catalog_listing',
  'catalog_product_id',
  'condition',
  'description',
  'official_store_id',
  'pictures',
  'sale_terms',
  'shipping',
  'site_id',
  'tags',
  'video_id',
  'warranty',
] as const;

export const REQUIRED = ['title', 'category_id', 'price', 'currency_id', 'listing_type_id'] as const;
const KNOWN = new Set<string>([...REQUIRED, 'channels', 'stock_locations', 'available_quantity', ...ORDINARY_ITEM_ATTRIBUTES]);

const text = (max: number) => z.string().trim().min(1, 'cannot be empty').max(max);

/**
 * An attribute as the publishing flow takes it: an `id` (GTIN, SELLER_SKU, BRAND...) with its
 * value as `value_name` and/or `value_id`; the flow's other keys (`values`, `name`...) are kept
 * as sent. GTIN and SELLER_SKU are what a barcode scan finds the item by (migration 012).
 */
export const itemAttribute = z.looseObject({
  id: z.string().trim().min(1, 'cannot be empty').max(64),
  value_name: z.string().max(255).nullable().optional(),
  value_id: z
    .union([z.string().max(64), z.number()])
    .nullable()
    .optional(),
});

/** The attributes kept in `items.attributes` (a JSON object of the body's ordinary attributes). */
const storedAttributes = z.object({
  attributes: z.array(itemAttribute).optional().catch(undefined),
  seller_custom_field: z.string().nullable().optional().catch(undefined),
  // The publishing flow sends `{ source }`; a mirrored item keeps the marketplace's `url` / `secure_url`.
  pictures: z
    .array(
      z.looseObject({
        id: z.union([z.string(), z.number()]).optional().catch(undefined),
        source: z.string().optional().catch(undefined),
        url: z.string().nullable().optional().catch(undefined),
        secure_url: z.string().nullable().optional().catch(undefined),
      }),
    )
    .optional()
    .catch(undefined),
});

const WEB_ADDRESS = /^https?:\/\/[^\s]+$/i;

/** An item's pictures as the marketplace answers them (`id`, `url`, `secure_url`): those with a web address. */
function picturesOf(itemId: string, stored: z.infer<typeof storedAttributes>): ItemPictureView[] {
  const out: ItemPictureView[] = [];
  for (const [i, p] of (stored.pictures ?? []).entries()) {
    const url = [p.secure_url, p.url, p.source].find((u): u is string => typeof u === 'string' && WEB_ADDRESS.test(u));
    if (url === undefined) continue;
    const secure = [p.secure_url, p.url, p.source].find((u): u is string => typeof u === 'string' && /^https:\/\//i.test(u)) ?? null;
    out.push({
      id: p.id === undefined ? `${itemId}-${i + 1}` : String(p.id),
      url: typeof p.url === 'string' && WEB_ADDRESS.test(p.url) ? p.url : url,
      secure_url: secure,
    });
  }
  return out;
}

export const itemBody = z.object({
  title: text(255),
  category_id: z.string().regex(/^[A-Z]{3}[0-9]{1,12}$/, 'expected a category id such as MLA1902'),
  price: z.number().positive('must be greater than 0').max(1e12),
  currency_id: z.string().regex(/^[A-Z]{3}$/, 'expected a currency code such as ARS'),
  listing_type_id: text(64),
  channels: z
    .array(z.enum(['marketplace', 'mshops']))
    .min(1)
    .max(5)
    .optional(),
  site_id: z.string().optional(),
  official_store_id: z.number().int().positive().optional(),
  attributes: z.array(itemAttribute).max(200).optional(),
  seller_custom_field: z.string().max(255).nullable().optional(),
  stock_locations: z
    .array(
      z.strictObject({
        store_id: z.union([z.string().max(64), z.null()]).optional(),
        network_node_id: z.string().max(64).optional(),
        quantity: z
          .number()
          .int('expected an integer quantity')
          .min(0, 'quantity cannot be negative')
          .max(MAX_QUANTITY, `quantity cannot exceed ${MAX_QUANTITY}`),
      }),
    )
    .max(100),
});

// Item response of SPEC 2.4 (`stock_locations` only on creation, rule 4.3.3): the shape the screens
// receive too, defined once in common/views.ts.
export type { ItemView };

export function toItemView(r: ItemRow): ItemView {
  const view: ItemView = {
    id: r.id,
    site_id: r.site_id,
    title: r.title,
    seller_id: r.seller_id,
    category_id: r.category_id,
    user_product_id: r.user_product_id,
    price: r.price,
    base_price: r.base_price,
    currency_id: r.currency_id,
    listing_type_id: r.listing_type_id,
    channels: parseColumn(stringListColumn, r.channels, 'items.channels'),
    available_quantity: r.available_quantity,
    date_created: r.date_created,
  };
  if (r.official_store_id !== null) view.official_store_id = r.official_store_id;
  // The codes a scanner reads, as the marketplace's item carries them.
  const stored = storedOf(r.attributes);
  view.inventory_id = r.inventory_id;
  view.attributes = stored.attributes ?? [];
  view.seller_custom_field = stored.seller_custom_field ?? null;
  // What the order panel shows for the item, online as on the demo data.
  view.pictures = picturesOf(r.id, stored);
  view.thumbnail = view.pictures[0]?.secure_url ?? view.pictures[0]?.url ?? null;
  // A replica locks a selling-address cell before the edit from these (with inventory_id).
  view.shipping = { logistic_type: r.logistic_type, local_delivery: r.local_delivery === 1 };
  return view;
}

/** Attributes that identify the seller's own stock (what a scan finds it by): the owner's only. */
const PRIVATE_ATTRIBUTES = new Set(['GTIN', 'SELLER_SKU', 'EAN', 'UPC', 'ISBN', 'MPN']);

/** An item as anyone but its seller sees it: no inventory id, no seller's code, no private attributes. */
export function publicItemView(view: ItemView): ItemView {
  const { inventory_id: _inventory, seller_custom_field: _custom, attributes, ...rest } = view;
  return attributes === undefined ? rest : { ...rest, attributes: attributes.filter((a) => !PRIVATE_ATTRIBUTES.has(a.id.toUpperCase())) };
}

/** The stored ordinary attributes of an item row (a row that does not parse has none). */
function storedOf(json: string): z.infer<typeof storedAttributes> {
  try {
    const r = storedAttributes.safeParse(JSON.parse(json));
    return r.success ? r.data : {};
  } catch {
    return {};
  }
}

/** The ordinary attributes of a listing body that are stored as given (all but the columns). */
export function ordinaryAttributes(obj: Record<string, unknown>): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const k of ORDINARY_ITEM_ATTRIBUTES) if (k !== 'official_store_id' && k !== 'site_id' && obj[k] !== undefined) attributes[k] = obj[k];
  return attributes;
}

const legacyUpdateBody = z.strictObject({
  available_quantity: z
    .number()
    .int('expected an integer quantity')
    .min(0, 'quantity cannot be negative')
    .max(MAX_QUANTITY, `quantity cannot exceed ${MAX_QUANTITY}`),
});

/**
 * A check that runs on every item listing (multi-warehouse and ordinary). The brands area plugs
 * the official-store rules of SPEC 7.4 in here.
 */
export type ListingCheck = (seller: { id: number; site_id: string; user_type: string | null }, officialStoreId: number | undefined) => void;

export function itemsService(writes: GroupCommit, repo: StockRepo, users: UsersRepo, stores: StoresService, stock: StockService, clock: Clock) {
  const listingChecks: ListingCheck[] = [];

  const newUserProductId = (site: string) => `${site}U${repo.nextCounter('user_product', 900_000_001)}`;
  function newItemId(site: string): string {
    for (;;) {
      const id = `${site}${repo.nextCounter('item', 1_500_000_001)}`;
      if (!repo.itemById(id)) return id;
    }
  }

  /**
   * Creates a user product with `locations` and its item (cross docking, no local delivery): the
   * common end of both listing flows. Runs inside the caller's write.
   */
  function insertListing(
    seller: { id: number; site_id: string },
    input: {
      title: string;
      category_id: string;
      price: number;
      currency_id: string;
      listing_type_id: string;
      channels?: string[] | undefined;
      official_store_id?: number | undefined;
    },
    body: Record<string, unknown>,
    locations: NewLocation[],
    availableQuantity: number | null,
  ): string {
    const userProductId = newUserProductId(seller.site_id);
    repo.insertUserProduct(userProductId, seller.id, 1n);
    for (const location of locations) repo.upsertLocation(userProductId, location);
    const id = newItemId(seller.site_id);
    repo.insertItem({
      id,
      site_id: seller.site_id,
      title: input.title,
      seller_id: seller.id,
      category_id: input.category_id,
      user_product_id: userProductId,
      price: input.price,
      base_price: input.price,
      currency_id: input.currency_id,
      listing_type_id: input.listing_type_id,
      channels: input.channels ?? ['marketplace'],
      official_store_id: input.official_store_id ?? null,
      logistic_type: 'cross_docking',
      local_delivery: false,
      inventory_id: null,
      full_inbound_done: false,
      available_quantity: availableQuantity,
      attributes: ordinaryAttributes(body),
      date_created: new Date(clock.now()).toISOString(),
    });
    return id;
  }

  return {
    insertListing,
    addListingCheck(check: ListingCheck): void {
      listingChecks.push(check);
    },

    /** Runs the registered listing checks (for the other listing flows, such as POST /items). */
    runListingChecks(seller: Parameters<ListingCheck>[0], officialStoreId: number | undefined): void {
      for (const check of listingChecks) check(seller, officialStoreId);
    },

    /** Identifier generators shared by the listing flows; call inside the creating transaction. */

    /**
     * SPEC 4.3 with the rows of 7.1, checked in this order: the seller must have
     * `warehouse_management` (403 otherwise: the multi-origin flow is not enabled for them);
     * `available_quantity` is invalid; `stock_locations` is required (at least one); unknown fields;
     * other required fields; field types; each store (null/empty, not found, not the seller's, not a
     * stock location, its network node); the listing checks (official stores).
     */
    async createMultiwarehouse(principal: Principal, body: unknown): Promise<ItemView> {
      const seller = users.byId(principal.userId);
      if (!seller) throw new ServiceError(404, 'not_found', `The user '${principal.userId}' was not found`);
      const tags = parseColumn(stringListColumn, seller.tags, 'users.tags');
      if (!tags.includes('warehouse_management')) {
        throw forbidden(`User ${seller.id} is not a multi-warehouse seller: the tag warehouse_management is required to create items with stock_locations`);
      }
      const obj = requireObject(body);
      if ('available_quantity' in obj) throw fieldsInvalid(['available_quantity']);
      if (!Array.isArray(obj.stock_locations) || obj.stock_locations.length === 0) throw fieldsRequired(['stock_locations']);
      const unknown = Object.keys(obj).filter((k) => !KNOWN.has(k));
      if (unknown.length) throw fieldsInvalid(unknown);
      const missing = REQUIRED.filter((k) => obj[k] === undefined || obj[k] === null);
      if (missing.length) throw fieldsRequired([...missing]);
      const input = parseWith(itemBody, obj, 'body');
      if (input.site_id !== undefined && input.site_id !== seller.site_id) {
        throw badRequest(`Invalid site_id: the seller operates on site ${seller.site_id}`);
      }

      const seen = new Set<string>();
      const resolved = input.stock_locations.map((l) => {
        if (l.store_id === undefined || l.store_id === null || l.store_id.trim() === '') throw storeErrors.nullOrEmpty();
        if (seen.has(l.store_id)) throw badRequest(`Store sent more than once: ${l.store_id}`);
        seen.add(l.store_id);
        const store = stores.requireStockLocation(l.store_id, seller.id);
        if (l.network_node_id !== undefined && l.network_node_id !== store.network_node_id) {
          throw badRequest(`Invalid network_node_id for store ${store.id}: the store search gives ${store.network_node_id}`);
        }
        return { store, quantity: l.quantity };
      });
      for (const check of listingChecks) check(seller, input.official_store_id);

      return writes.run(() => {
        const id = insertListing(
          seller,
          input,
          obj,
          resolved.map(({ store, quantity }) => ({ type: 'seller_warehouse', store_id: store.id, network_node_id: store.network_node_id, quantity })),
          null,
        );
        const view = toItemView(repo.itemById(id)!);
        delete view.available_quantity;
        view.stock_locations = resolved.map(({ store, quantity }) => ({
          store_id: store.id,
          quantity,
          network_node_id: store.network_node_id,
        }));
        return view;
      });
    },

    /**
     * GET /items/{id}: any authenticated caller (listings are public); the seller's own codes only
     * to the seller (issue 25: another seller or a buyer could read them).
     */
    get(principal: Principal, rawId: string): ItemView {
      const row = repo.itemById(parseItemId(rawId));
      if (!row) throw new ServiceError(404, 'not_found', `Item not found: ${rawId}`);
      const view = toItemView(row);
      return row.seller_id === principal.userId ? view : publicItemView(view);
    },

    /**
     * GET /items?ids=a,b (the real marketplace's multi-get; SPEC is silent, docs/service.md): up to
     * 20 ids, one entry per id in the order asked, `{ code, body }` with the item or the error
     * GET /items/{id} would answer. How a replica's first pull reads 100,000 items in 5,000 requests.
     */
    multiGet(principal: Principal, rawIds: unknown): { code: number; body: unknown }[] {
      if (typeof rawIds !== 'string' || rawIds.trim() === '') throw badRequest('ids is required: GET /items?ids=ID1,ID2 (at most 20)');
      const ids = rawIds.split(',').map((id) => id.trim());
      if (ids.length > 20) throw badRequest(`At most 20 ids per request: ${ids.length} were given`);
      return ids.map((id) => {
        try {
          return { code: 200, body: this.get(principal, id) };
        } catch (e) {
          if (e instanceof ServiceError) return { code: e.status, body: e.toBody() };
          throw e;
        }
      });
    },

    /**
     * The older item update (SPEC 4.6): `available_quantity` sets the selling-address stock of the
     * item's user product, under the same rules as 4.6, and reaches every item of that user product.
     * No x-version: it bumps the version so the next stock PUT with an old version gets 409.
     * A multi-warehouse user product rejects `available_quantity` as in 7.1.
     */
    async legacyUpdate(principal: Principal, rawId: string, body: unknown): Promise<ItemView> {
      const id = parseItemId(rawId);
      const row = repo.itemById(id);
      if (!row) throw new ServiceError(404, 'not_found', `Item not found: ${id}`);
      if (row.seller_id !== principal.userId) throw forbidden(`Access denied for user ${principal.userId} to item ${id}`);
      const obj = requireObject(body);
      const unknown = Object.keys(obj).filter((k) => k !== 'available_quantity');
      if (unknown.length) throw fieldsInvalid(unknown);
      const { available_quantity } = parseWith(legacyUpdateBody, obj, 'body');
      await writes.run(() => {
        const up = stock.ownedUserProduct(principal, row.user_product_id);
        if (repo.locationsOf(up.id).some((l) => l.type === 'seller_warehouse')) throw fieldsInvalid(['available_quantity']);
        stock.writeSellingAddress(up, available_quantity, null);
      });
      return toItemView(repo.itemById(id)!);
    },
  };
}
export type ItemsService = ReturnType<typeof itemsService>;

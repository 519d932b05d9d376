import { z } from 'zod';
import type { GroupCommit } from '../../db/group-commit.js';
import type { ItemRow, LocationType, StockRepo, UserProductRow } from '../../db/repos/stock.js';
import type { Principal } from '../auth/auth.js';
import { ServiceError, badRequest } from '../errors.js';
import type { JobRunner } from '../jobs/runner.js';
import { type IdempotencyGuard, guarded } from '../idempotency/idempotency.js';
import { parseUserProductId, parseWith, requireObject } from '../params.js';
import { MAX_QUANTITY, assertPairing, type StockJson, userProductErrors } from './locations.js';
import { type StoresService, storeErrors } from './stores.js';
import { parseVersionHeader, versionMismatch } from './version.js';

export const PROPAGATE_SELLING_ADDRESS = 'stock.propagate_selling_address';

const quantity = z
  .number({ error: 'expected an integer quantity' })
  .int('expected an integer quantity')
  .min(0, 'quantity cannot be negative')
  .max(MAX_QUANTITY, `quantity cannot exceed ${MAX_QUANTITY}`);

const sellerWarehouseBody = z.strictObject({
  locations: z
    .array(
      z.strictObject({
        store_id: z.union([z.string().max(64), z.null()]).optional(),
        network_node_id: z.union([z.string().max(64), z.null()]).optional(),
        quantity,
      }),
    )
    .max(500),
});

const sellingAddressBody = z.strictObject({ quantity });

/** SPEC 7.3, in the order they are checked. */
export const sellingAddressErrors = {
  fulfillmentOnly: () => badRequest('You cannot modify selling address stock if associated items are fulfillment only or no items are associated.'),
  noInventoryId: () => badRequest('You cannot modify selling address stock in items without inventory id.'),
  noFullInbound: () => badRequest('You cannot modify selling address stock because you have to do a full inbound first before modifying.'),
};

/**
 * Whether the selling-address stock of a user product may be written, from its items (SPEC 2.5, 7.3):
 * 1. no items, or every item is platform fulfillment without the local-delivery option: not editable;
 * 2. an item that mixes fulfillment with local delivery needs an inventory id,
 * 3. and its first full inbound done.
 * Items outside fulfillment (cross docking, self service) hold plain seller stock and pass.
 */
export function sellingAddressRule(items: Pick<ItemRow, 'logistic_type' | 'local_delivery' | 'inventory_id' | 'full_inbound_done'>[]): ServiceError | null {
  const fulfillmentOnly = (i: (typeof items)[number]) => i.logistic_type === 'fulfillment' && !i.local_delivery;
  if (items.length === 0 || items.every(fulfillmentOnly)) return sellingAddressErrors.fulfillmentOnly();
  const hybrid = items.filter((i) => i.logistic_type === 'fulfillment' && i.local_delivery);
  if (hybrid.some((i) => i.inventory_id === null || i.inventory_id === '')) return sellingAddressErrors.noInventoryId();
  if (hybrid.some((i) => !i.full_inbound_done)) return sellingAddressErrors.noFullInbound();
  return null;
}

/**
 * The caller of a stock write, resolved inside the write's transaction, before anything else is
 * checked: the token read there costs a third of one made on its own (which opens and closes a WAL
 * read transaction of its own). `guard` is the request's X-Idempotency-Key for that user.
 */
export type WriteCaller<T> = () => { principal: Principal; guard?: IdempotencyGuard<T> | undefined };

/**
 * Runs a check that needs no database now, and keeps its refusal to be thrown later, in its place
 * in the spec's order (inside the write, after authentication and the ownership check).
 */
function deferred<T>(check: () => T): () => T {
  try {
    const value = check();
    return () => value;
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return () => {
      throw e;
    };
  }
}

/** The version header and the body of a seller_warehouse PUT, checked in the order of SPEC 7.2. */
function sellerWarehouseRequest(versionHeader: string | string[] | undefined, body: unknown) {
  const expected = parseVersionHeader(versionHeader);
  const obj = requireObject(body);
  if (obj.locations === undefined || obj.locations === null || (Array.isArray(obj.locations) && obj.locations.length === 0)) {
    throw storeErrors.nullOrEmpty();
  }
  const { locations } = parseWith(sellerWarehouseBody, obj, 'body');
  const seen = new Set<string>();
  for (const l of locations) {
    if (l.store_id === undefined || l.store_id === null || l.store_id.trim() === '') throw storeErrors.nullOrEmpty();
    if (seen.has(l.store_id)) throw badRequest(`Store sent more than once: ${l.store_id}`);
    seen.add(l.store_id);
  }
  return { expected, locations };
}

export function stockService(repo: StockRepo, stores: StoresService, jobs: JobRunner, writes: GroupCommit) {
  const locationTypes = (id: string): LocationType[] => repo.writeHead(id)?.types ?? [];

  /** 400 for a malformed id, 404 when absent, 403 when it belongs to another seller. */
  function ownedUserProduct(principal: Principal, rawId: string): UserProductRow {
    return ownedRow(principal, parseUserProductId(rawId));
  }

  /** The row read for user product `id`: 404 when absent, 403 when it belongs to another seller. */
  function owned<T extends { user_id: number | bigint }>(principal: Principal, id: string, row: T | undefined): T {
    if (row === undefined) throw userProductErrors.notFound(id);
    if (Number(row.user_id) !== principal.userId) throw userProductErrors.denied(principal.userId, id);
    return row;
  }

  /** 404 when absent, 403 when it belongs to another seller (`id` already checked). */
  const ownedRow = (principal: Principal, id: string): UserProductRow => owned(principal, id, repo.userProductById(id));

  /**
   * Writes the selling-address quantity after the checks of 7.3 and section 8. `expected` is the
   * version the caller read (the legacy item call has none). Runs inside the caller's write.
   */
  function writeSellingAddress(up: UserProductRow, qty: number, expected: bigint | null): bigint {
    const rule = sellingAddressRule(repo.itemsOfUserProduct(up.id));
    if (rule) throw rule;
    assertPairing(up.id, [...locationTypes(up.id), 'selling_address']);
    if (expected === null) repo.bumpVersion(up.id);
    else if (!repo.bumpVersionIf(up.id, expected)) throw versionMismatch();
    repo.upsertLocation(up.id, { type: 'selling_address', quantity: qty });
    // The stock resource is definitive at once; the items' copies follow in a durable job.
    jobs.enqueue(PROPAGATE_SELLING_ADDRESS, { user_product_id: up.id });
    return repo.userProductById(up.id)!.version;
  }

  jobs.register({
    kind: PROPAGATE_SELLING_ADDRESS,
    schema: z.object({ user_product_id: z.string() }),
    // Idempotent: copies whatever the stock is now, so a re-run or a late run is harmless.
    run: ({ user_product_id }) => {
      const selling = repo.locationsOf(user_product_id).find((l) => l.type === 'selling_address');
      if (selling) repo.setAvailableQuantity(user_product_id, selling.quantity);
    },
  });

  return {
    ownedUserProduct,
    writeSellingAddress,

    /** SPEC 4.4: the stock and its version (for the `x-version` header), from one statement (one snapshot). */
    read(principal: Principal, rawId: string): StockJson {
      const id = parseUserProductId(rawId);
      const { json, version } = owned(principal, id, repo.stockJson(id));
      return { json, version };
    },

    /**
     * SPEC 4.5 with the rows of 7.2: compare-and-set on the version, inside one group-commit op.
     * Refusals in order: 401 (caller), 400 idempotency key, 400 id, 404 / 403, 400 version header
     * and body, 400 stores, 400 pairing (section 8), 409 version.
     */
    async putSellerWarehouse(caller: WriteCaller<StockJson>, rawId: string, versionHeader: string | string[] | undefined, body: unknown): Promise<StockJson> {
      const id = deferred(() => parseUserProductId(rawId));
      const request = deferred(() => sellerWarehouseRequest(versionHeader, body));
      return writes.run(() => {
        const { principal, guard } = caller();
        const upId = id();
        const head = owned(principal, upId, repo.writeHead(upId));
        const { expected, locations } = request();
        // X-Idempotency-Key: the replay check and the stored answer run inside this same write.
        return guarded(guard, () => {
          const resolved = locations.map((l) => ({ store: stores.requireStockLocation(l.store_id!, principal.userId), quantity: l.quantity }));
          assertPairing(upId, [...head.types, 'seller_warehouse']);
          if (!repo.bumpVersionIf(upId, expected)) throw versionMismatch();
          for (const { store, quantity: q } of resolved) {
            // network_node_id in the body is "not validated" (SPEC 4.5): the store's own node is kept.
            repo.upsertLocation(upId, { type: 'seller_warehouse', store_id: store.id, network_node_id: store.network_node_id, quantity: q });
          }
          // Existing locations keep their order, stores new to the product come last, as stored.
          return { json: repo.sellerWarehouseJson(upId), version: expected + 1n };
        });
      });
    },

    /**
     * SPEC 4.6 with the rows of 7.3: 204, the items follow asynchronously. Refusals in order: 401,
     * 400 idempotency key, 400 id, 404 / 403, 400 version header, 400 body, the rows of 7.3, 409.
     */
    async putSellingAddress(caller: WriteCaller<bigint>, rawId: string, versionHeader: string | string[] | undefined, body: unknown) {
      const id = deferred(() => parseUserProductId(rawId));
      const expected = deferred(() => parseVersionHeader(versionHeader));
      const qty = deferred(() => parseWith(sellingAddressBody, requireObject(body), 'body').quantity);
      const version = await writes.run(() => {
        const { principal, guard } = caller();
        const up = ownedRow(principal, id());
        const request = { expected: expected(), quantity: qty() };
        return guarded(guard, () => writeSellingAddress(up, request.quantity, request.expected));
      });
      return { version };
    },

    /** `platform_facility` (and any unknown type) is never writable through the interface. */
    rejectType(type: string): never {
      if (type === 'platform_facility') {
        throw badRequest('Stock of type platform_facility is managed by the platform and cannot be edited');
      }
      throw badRequest(`Unknown stock location type: ${type}`);
    },
  };
}
export type StockService = ReturnType<typeof stockService>;

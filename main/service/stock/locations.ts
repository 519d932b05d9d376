import type { LocationType } from '../../db/repos/stock.js';
import { ServiceError, badRequest, forbidden } from '../errors.js';

/** A user product that is absent (404), or another seller's (403): never its data. */
export const userProductErrors = {
  notFound: (id: string) => new ServiceError(404, 'not_found', `User product not found: ${id}`),
  denied: (userId: number, id: string) => forbidden(`Access denied for user ${userId} to user product ${id}`),
};

/** Largest quantity one location may hold; anything above is a typo or an attack, not stock. */
export const MAX_QUANTITY = 1_000_000;

/** Location of SPEC 2.5; `store_id` and `network_node_id` only for `seller_warehouse`. */
export interface Location {
  type: LocationType;
  quantity: number;
  store_id?: string;
  network_node_id?: string;
}

export interface UserProductStock {
  id: string;
  user_id: number;
  locations: Location[];
  product_release_date?: string | null;
}

/**
 * A stock answer as the client receives it: the JSON text of a UserProductStock, built by SQLite
 * in the statement that reads it (main/db/repos/stock.ts), and the version for `x-version`.
 */
export interface StockJson {
  json: string;
  version: bigint;
}

/**
 * SPEC section 8: at most two location types per user product, paired as
 * selling_address + platform_facility or seller_warehouse + platform_facility.
 * Returns the reason a set of types is not allowed, or null.
 */
export function pairingViolation(types: Iterable<LocationType>): string | null {
  const set = new Set(types);
  if (set.has('selling_address') && set.has('seller_warehouse')) {
    return 'A user product cannot hold selling_address and seller_warehouse stock together: the allowed pairs are selling_address + platform_facility and seller_warehouse + platform_facility';
  }
  return null;
}

export function assertPairing(userProductId: string, types: Iterable<LocationType>): void {
  const reason = pairingViolation(types);
  if (reason) throw badRequest(`${reason} (user product ${userProductId})`);
}

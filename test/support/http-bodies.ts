import { demo } from './fixtures.js';

/**
 * A POST /items/multiwarehouse body (SPEC 4.3) for the demo seller: `title`, a valid category,
 * price, currency and listing type, and 3 units in the Palermo store; `extra` adds fields or
 * replaces these (codes, other stores, a wrong value to refuse). The HTTP, service and sync tests
 * that list a product each wrote this body out; they now say only what their test is about.
 */
export function multiwarehouseListing(title: string, extra: Record<string, unknown> = {}) {
  return {
    title,
    category_id: 'MLA1902',
    price: 19999,
    currency_id: 'ARS',
    listing_type_id: 'gold_special',
    stock_locations: [{ store_id: demo.stores.palermo, quantity: 3 }],
    ...extra,
  };
}

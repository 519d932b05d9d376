import { readFileSync } from 'node:fs';
import { DEMO_FIXTURES } from '../../main/fixtures/load.js';
import type { FixtureFile } from '../../main/fixtures/schema.js';

/** The bundled demo marketplace, a fresh deep copy each call so tests can change it freely. */
export function demoFixtures(): FixtureFile {
  return JSON.parse(readFileSync(DEMO_FIXTURES, 'utf8')) as FixtureFile;
}

/** Demo identities, named for what they are in the tests. */
export const demo = {
  app: 5503910054141466,
  seller: { id: 1780493260, token: 'APP_USR-5503910054141466-demo-seller' },
  brand: { id: 1780493261, token: 'APP_USR-5503910054141466-demo-brand' },
  buyer: { id: 1780493262, token: 'APP_USR-5503910054141466-demo-buyer' },
  other: { id: 1780493263, token: 'APP_USR-5503910054141466-demo-other' },
  stores: { palermo: '64712', avellaneda: '64713', showroom: '64714', otherSellers: '77001' },
  userProducts: {
    /** seller_warehouse 64712=12, 64713=30 + platform_facility 8; version 1 */
    termo: 'MLAU100000001',
    /** selling_address 5 + platform_facility 20; fulfillment with local delivery, inbound done; version 4 */
    mate: 'MLAU100000002',
    /** platform_facility only; fulfillment-only item */
    yerba: 'MLAU100000003',
    /** selling_address 0; fulfillment + local delivery without inventory id */
    bombilla: 'MLAU100000004',
    /** selling_address 3 + platform_facility 0; inventory id but no full inbound */
    canasta: 'MLAU100000005',
    /** another seller's seller_warehouse product */
    otherSellers: 'MLAU200000001',
  },
  items: { termo: 'MLA1400000001', mate: 'MLA1400000002', yerba: 'MLA1400000003', bombilla: 'MLA1400000004', canasta: 'MLA1400000005' },
} as const;

let counter = 0;
/** A bigger marketplace for one seller: `products` user products over `stores` stores. */
export function warehouseFixtures(opts: { products: number; stores: number; quantity?: number }): FixtureFile {
  const sellerId = 900000 + ++counter;
  const site = 'MLA';
  const stores = Array.from({ length: opts.stores }, (_, s) => ({
    id: String(sellerId * 100 + s),
    user_id: String(sellerId),
    description: `Depósito ${s + 1}`,
    status: 'active',
    tags: ['stock_location'],
    network_node_id: `NODE${s}`,
    location: {
      address_id: s,
      address_line: `Calle ${s}`,
      street_name: 'Calle',
      street_number: s,
      latitude: -34.6,
      longitude: -58.4,
      city: 'Buenos Aires',
      state: 'Capital Federal',
      country: 'Argentina',
      zip_code: '1000',
    },
  }));
  return {
    applications: [{ id: demo.app, name: 'Test app' }],
    users: [
      {
        id: sellerId,
        nickname: `SELLER_${sellerId}`,
        registration_date: '2020-01-01T00:00:00.000-03:00',
        first_name: 'Test',
        last_name: 'Seller',
        gender: '',
        country_id: 'AR',
        site_id: site,
        tags: ['normal', 'user_product_seller', 'warehouse_management'],
      },
    ],
    tokens: [{ access_token: `TOKEN-${sellerId}`, user_id: sellerId, application_id: demo.app }],
    stores,
    user_products: Array.from({ length: opts.products }, (_, p) => ({
      id: `MLAU${String(p + 1).padStart(9, '0')}`,
      user_id: sellerId,
      locations: stores.map((s) => ({
        type: 'seller_warehouse' as const,
        store_id: s.id,
        network_node_id: s.network_node_id,
        quantity: opts.quantity ?? 10,
      })),
    })),
  };
}

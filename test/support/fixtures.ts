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

type BrandEntry = NonNullable<FixtureFile['brands']>[number];

/** One official store on site MLA linked to `custIds` (each as a brand user); `overrides` win. */
export function brandEntry(officialStoreId: number, custIds: number[], overrides: Partial<BrandEntry> = {}): BrandEntry {
  return {
    official_store_id: officialStoreId,
    site_id: 'MLA',
    name: `Tienda ${officialStoreId}`,
    fantasy_name: `Tienda ${officialStoreId}`,
    type: 'brand',
    status: 'active',
    relevance_position: 1,
    date_created: '2021-03-04T05:06:07Z',
    last_updated: '2026-01-02T03:04:05Z',
    return_policy: null,
    landing_permalink: `https://example.com/tienda/${officialStoreId}`,
    permalink: `https://example.com/${officialStoreId}`,
    tags: [],
    categories_ids: [],
    main_categories: [],
    boost: { is_active: false, last_update: '2026-01-01T00:00:00Z' },
    pictures: [],
    users: custIds.map((cust_id) => ({ cust_id, tags: ['brand'], site_id: 'MLA', user_type: 'brand' })),
    ...overrides,
  };
}

let brandSellers = 0;
/**
 * Adds to `f` (which must hold the demo application) a seller on site MLA linked to
 * `officialStores` new official stores. `brandUser` (default true) makes it `user_type: "brand"`;
 * `warehouse` gives it the tag `warehouse_management` and one stock-location store.
 */
export function addBrandSeller(
  f: FixtureFile,
  opts: { officialStores: number; brandUser?: boolean; warehouse?: boolean },
): { id: number; token: string; store: { id: string; network_node_id: string } | undefined; officialStoreIds: number[] } {
  const n = ++brandSellers;
  const id = 1_790_000_000 + n;
  const token = `TOKEN-BRAND-${id}`;
  const brandUser = opts.brandUser ?? true;
  (f.users ??= []).push({
    id,
    nickname: `BRAND_SELLER_${n}`,
    registration_date: '2019-01-01T00:00:00.000-03:00',
    first_name: 'Brand',
    last_name: `Seller ${n}`,
    gender: '',
    country_id: 'AR',
    site_id: 'MLA',
    tags: ['normal', 'user_product_seller', ...(brandUser ? ['brand'] : []), ...(opts.warehouse ? ['warehouse_management'] : [])],
    ...(brandUser ? { user_type: 'brand' as const } : {}),
  });
  (f.tokens ??= []).push({ access_token: token, user_id: id, application_id: demo.app });
  let store: { id: string; network_node_id: string } | undefined;
  if (opts.warehouse) {
    store = { id: String(880_000 + n), network_node_id: `BRNODE${n}` };
    (f.stores ??= []).push({
      id: store.id,
      user_id: String(id),
      description: `Depósito marca ${n}`,
      status: 'active',
      tags: ['stock_location'],
      network_node_id: store.network_node_id,
      location: {
        address_id: 1_500_000_000 + n,
        address_line: `Calle ${n}`,
        street_name: 'Calle',
        street_number: n,
        latitude: -34.6,
        longitude: -58.4,
        city: 'Buenos Aires',
        state: 'Capital Federal',
        country: 'Argentina',
        zip_code: '1000',
      },
    });
  }
  const officialStoreIds = Array.from({ length: opts.officialStores }, (_, k) => 70_000 + n * 10 + k);
  for (const osId of officialStoreIds) {
    (f.brands ??= []).push(
      brandEntry(osId, [id], { users: [{ cust_id: id, tags: brandUser ? ['brand'] : [], site_id: 'MLA', user_type: brandUser ? 'brand' : 'seller' }] }),
    );
  }
  return { id, token, store, officialStoreIds };
}

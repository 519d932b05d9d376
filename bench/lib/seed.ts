import { openDatabase } from '../../main/db/open.js';
import { loadFixtures, parseFixtures } from '../../main/fixtures/load.js';

export const BENCH_SELLER = 7000001;
export const BENCH_TOKEN = 'BENCH-TOKEN';
export const BENCH_APP = 1;
export const productId = (i: number) => `MLAU${String(i + 1).padStart(9, '0')}`;
export const storeId = (s: number) => String(8000000 + s);

/**
 * A database with one multi-warehouse seller, `stores` stores and `products` user products holding
 * stock in every store. Written with direct inserts in one transaction (fixtures would be a
 * 100 MB JSON for 100,000 products).
 */
export function seedWarehouse(dbFile: string, products: number, stores = 10): void {
  const db = openDatabase(dbFile, { synchronous: 'NORMAL' });
  loadFixtures(
    db,
    parseFixtures({
      applications: [{ id: BENCH_APP, name: 'bench' }],
      users: [
        {
          id: BENCH_SELLER,
          nickname: 'BENCH',
          registration_date: '2020-01-01T00:00:00.000Z',
          first_name: 'Bench',
          last_name: 'Seller',
          gender: '',
          country_id: 'AR',
          site_id: 'MLA',
          tags: ['normal', 'warehouse_management'],
        },
      ],
      tokens: [{ access_token: BENCH_TOKEN, user_id: BENCH_SELLER, application_id: BENCH_APP }],
      stores: Array.from({ length: stores }, (_, s) => ({
        id: storeId(s),
        user_id: String(BENCH_SELLER),
        description: `Depósito ${s}`,
        status: 'active',
        tags: ['stock_location'],
        network_node_id: `NODE${s}`,
        location: {
          address_id: s,
          address_line: 'x',
          street_name: 'x',
          street_number: 1,
          latitude: 0,
          longitude: 0,
          city: 'x',
          state: 'x',
          country: 'x',
          zip_code: 'x',
        },
      })),
    }),
  );
  const up = db.prepare('INSERT INTO user_products (id, user_id, version) VALUES (?, ?, 1)');
  const loc = db.prepare(
    "INSERT INTO stock_locations (user_product_id, type, store_key, network_node_id, quantity, position) VALUES (?, 'seller_warehouse', ?, ?, ?, ?)",
  );
  db.transaction(() => {
    for (let i = 0; i < products; i++) {
      const id = productId(i);
      up.run(id, BENCH_SELLER);
      for (let s = 0; s < stores; s++) loc.run(id, storeId(s), `NODE${s}`, 10 + ((i + s) % 50), s);
    }
  })();
  db.close();
}

/** The item id of product `i`'s one listing (seedItems). */
export const itemId = (i: number) => `MLA${String(1_500_000_000 + i)}`;

/**
 * One listing per user product of seedWarehouse (how a replica discovers its products: GET
 * /users/{id}/items/search, then GET /items/{id}), titled `<title(i)>`.
 */
export function seedItems(dbFile: string, products: number, title: (i: number) => string = (i) => `Producto ${i + 1}`): void {
  const db = openDatabase(dbFile, { synchronous: 'NORMAL' });
  try {
    const item = db.prepare(
      `INSERT INTO items (id, site_id, title, seller_id, category_id, user_product_id, price, base_price, currency_id, listing_type_id, logistic_type, date_created)
       VALUES (?, 'MLA', ?, ?, 'MLA1902', ?, 100, 100, 'ARS', 'gold_special', 'cross_docking', '2026-01-01T00:00:00.000Z')`,
    );
    db.transaction(() => {
      for (let i = 0; i < products; i++) item.run(itemId(i), title(i), BENCH_SELLER, productId(i));
    })();
  } finally {
    db.close();
  }
}

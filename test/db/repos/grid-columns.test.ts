import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../main/db/open.js';
import { gridRepo, hasLocationSql } from '../../../main/db/repos/grid.js';

/** Two sellers, 50 products each, every product with a seller_warehouse location. */
function twoSellers() {
  const db = openDatabase(':memory:');
  const user = db.prepare(
    "INSERT INTO users (id, nickname, registration_date, first_name, last_name, country_id, site_id) VALUES (?, ?, '2020-01-01', 'a', 'b', 'AR', 'MLA')",
  );
  const product = db.prepare('INSERT INTO user_products (id, user_id) VALUES (?, ?)');
  const location = db.prepare('INSERT INTO stock_locations (user_product_id, type, store_key, quantity, position) VALUES (?, ?, ?, 5, 0)');
  for (const seller of [1, 2]) {
    user.run(seller, `seller${seller}`);
    for (let i = 0; i < 50; i++) {
      product.run(`U${seller}-${i}`, seller);
      location.run(`U${seller}-${i}`, 'seller_warehouse', '8000000');
    }
  }
  return { db, repo: gridRepo(db), location };
}

describe("the grid's column set: which kinds of location a seller has (migration 021)", () => {
  it('answers per seller and per kind, seeing a location added later', () => {
    const { repo, location } = twoSellers();
    expect(repo.hasLocationOfType('selling_address', 1)).toBe(false);
    expect(repo.hasLocationOfType('platform_facility', 1)).toBe(false);
    location.run('U2-7', 'selling_address', '');
    // Another seller's selling address is not this seller's.
    expect(repo.hasLocationOfType('selling_address', 1)).toBe(false);
    expect(repo.hasLocationOfType('selling_address', 2)).toBe(true);
    expect(repo.hasLocationOfType('platform_facility', 2)).toBe(false);
    location.run('U1-49', 'platform_facility', '');
    expect(repo.hasLocationOfType('platform_facility', 1)).toBe(true);
    expect(repo.hasLocationOfType('selling_address', 1)).toBe(false);
  });

  it('reads only the rows of the kind asked for, never the seller_warehouse ones (no walk of every location or product)', () => {
    const { db } = twoSellers();
    for (const type of ['selling_address', 'platform_facility'] as const) {
      const plan = db
        .prepare<[number], { detail: string }>(`EXPLAIN QUERY PLAN ${hasLocationSql(type)}`)
        .all(1)
        .map((r) => r.detail);
      expect(plan[0]).toBe(`SCAN sl USING COVERING INDEX stock_locations_${type}`);
    }
  });
});

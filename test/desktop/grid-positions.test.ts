import { describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../main/db/open.js';
import { FENCE_EVERY, positionOf } from '../../main/desktop/grid-cache.js';
import { tempDirs } from '../support/temp-dir.js';

const dir = tempDirs('stockroom-positions-');

/** Sellers 1 and 2 in a real SQLite file; their products are added by each test. */
function twoSellers() {
  const db = openDatabase(`${dir()}/stockroom.db`);
  const user = db.prepare(
    "INSERT INTO users (id, nickname, registration_date, first_name, last_name, country_id, site_id) VALUES (?, ?, '2020-01-01', 'a', 'b', 'AR', 'MLA')",
  );
  user.run(1, 'seller1');
  user.run(2, 'seller2');
  const insert = db.prepare('INSERT INTO user_products (id, user_id) VALUES (?, ?)');
  const add = (ids: string[], seller: number) => db.transaction(() => ids.forEach((id) => insert.run(id, seller)))();
  return { db, add };
}

/** Each product's place as SQLite orders the seller's grid. */
const placesOf = (db: Db, seller: number) => db.prepare<[number], string>('SELECT id FROM user_products WHERE user_id = ? ORDER BY id').pluck(true).all(seller);

/** Asks every product's place twice (the second round reads them from the kept places) and compares it with SQLite's order. */
function expectPlaces(db: Db, seller: number) {
  const ids = placesOf(db, seller);
  for (let round = 0; round < 2; round++) {
    const found = ids.map((id) => positionOf(db, seller, id));
    expect(found).toEqual(ids.map((_, i) => i));
  }
  return ids;
}

describe("a scanned product's place in the unfiltered grid, from the kept places (issue 29)", () => {
  it('is the place SQLite orders it at: first, middle and last, across several kept places, per seller', () => {
    const { db, add } = twoSellers();
    const n = 3 * FENCE_EVERY + 17;
    // Interleaved ids: each seller's places skip the other's products.
    add(
      Array.from({ length: n }, (_, i) => `P${String(2 * i).padStart(5, '0')}`),
      1,
    );
    add(
      Array.from({ length: n }, (_, i) => `P${String(2 * i + 1).padStart(5, '0')}`),
      2,
    );
    const ids = expectPlaces(db, 1);
    expect([positionOf(db, 1, ids[0]!), positionOf(db, 1, ids[Math.floor(n / 2)]!), positionOf(db, 1, ids[n - 1]!)]).toEqual([0, Math.floor(n / 2), n - 1]);
    expectPlaces(db, 2);
    db.close();
  });

  it('follows products that come, go or move to another seller (the kept places are read again)', () => {
    const { db, add } = twoSellers();
    add(
      Array.from({ length: 2 * FENCE_EVERY + 5 }, (_, i) => `Q${String(i * 10).padStart(6, '0')}`),
      1,
    );
    expectPlaces(db, 1);
    // Before every kept place: each later product moves one place down.
    add(['Q000001'], 1);
    expect(positionOf(db, 1, 'Q000010')).toBe(2);
    expectPlaces(db, 1);
    db.prepare("DELETE FROM user_products WHERE id IN ('Q000000', 'Q002560')").run();
    expectPlaces(db, 1);
    db.prepare("UPDATE user_products SET user_id = 2 WHERE id = 'Q000010'").run();
    expectPlaces(db, 1);
    expect(expectPlaces(db, 2)).toEqual(['Q000010']);
    // A product added in the same place as one removed: the count stays, the places are still read again.
    db.transaction(() => {
      db.prepare("DELETE FROM user_products WHERE id = 'Q000020'").run();
      add(['Q000021'], 1);
    })();
    expect(positionOf(db, 1, 'Q000021')).toBe(1);
    expectPlaces(db, 1);
    db.close();
  });

  it('orders ids as SQLite does (by their UTF-8 bytes), where JavaScript orders them otherwise', () => {
    const { db, add } = twoSellers();
    // U+FFFD before U+1F600 in UTF-8 bytes; in UTF-16 code units (JavaScript's <) the emoji comes first.
    add(
      Array.from({ length: 2 * FENCE_EVERY + 40 }, (_, i) => `Z${i % 2 === 0 ? '\uFFFD' : '\u{1F600}'}${String(i).padStart(4, '0')}`),
      1,
    );
    const ids = expectPlaces(db, 1);
    expect(ids[0]!.startsWith('Z\uFFFD')).toBe(true);
    expect(ids.at(-1)!.startsWith('Z\u{1F600}')).toBe(true);
    db.close();
  });
});

import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../main/db/open.js';
import { IDS_BEFORE_SQL, IDS_FROM_SQL, gridRepo } from '../../../main/db/repos/grid.js';
import { tempDirs } from '../../support/temp-dir.js';

const dir = tempDirs('stockroom-page-around-');

/** Two sellers whose 300 products interleave by id (seller 1 the even numbers, seller 2 the odd), in a real SQLite file. */
function twoSellers() {
  const db = openDatabase(`${dir()}/stockroom.db`);
  const user = db.prepare(
    "INSERT INTO users (id, nickname, registration_date, first_name, last_name, country_id, site_id) VALUES (?, ?, '2020-01-01', 'a', 'b', 'AR', 'MLA')",
  );
  const product = db.prepare('INSERT INTO user_products (id, user_id) VALUES (?, ?)');
  user.run(1, 'seller1');
  user.run(2, 'seller2');
  db.transaction(() => {
    for (let n = 0; n < 300; n++) product.run(`P${String(n).padStart(4, '0')}`, n % 2 === 0 ? 1 : 2);
  })();
  const offsetPage = db.prepare<[number, number, number], string>('SELECT id FROM user_products WHERE user_id = ? ORDER BY id LIMIT ? OFFSET ?').pluck(true);
  return { db, repo: gridRepo(db), offsetPage };
}

describe("the page around a scanned product (the unfiltered grid's keyset read, issue 29)", () => {
  it('reads the same rows as the page at its offset, at the first, a middle and the last product, for several page sizes', () => {
    const { db, repo, offsetPage } = twoSellers();
    const mine = offsetPage.all(1, 1000, 0);
    expect(mine).toHaveLength(150);
    for (const size of [50, 7, 1, 150, 200]) {
      for (const index of [0, 1, size - 1, 74, 75, 148, 149].filter((i) => i >= 0 && i < 150)) {
        const offset = Math.floor(index / size) * size;
        const page = repo.pageAround(1, mine[index]!, index - offset, size);
        expect(page, `size ${size}, row ${index}`).toEqual(offsetPage.all(1, size, offset));
        expect(page[index - offset]).toBe(mine[index]);
      }
    }
    // The last page of 7 is short (150 = 21 × 7 + 3), and never holds the other seller's products.
    expect(repo.pageAround(1, mine[149]!, 2, 7)).toEqual(mine.slice(147));
    db.close();
  });

  it('seeks both ways in the (user_id, id) index: no walk from the first row, no sort', () => {
    const { db } = twoSellers();
    const plan = (sql: string) =>
      db
        .prepare<[number, string, number], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(1, 'P0100', 5)
        .map((r) => r.detail);
    expect(plan(IDS_BEFORE_SQL)).toEqual(['SEARCH user_products USING COVERING INDEX user_products_by_user (user_id=? AND id<?)']);
    expect(plan(IDS_FROM_SQL)).toEqual(['SEARCH user_products USING COVERING INDEX user_products_by_user (user_id=? AND id>?)']);
    db.close();
  });
});

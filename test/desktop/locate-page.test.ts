import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_SELLER, itemId, productId, seedItems, seedWarehouse, storeId } from '../../bench/lib/seed.js';
import { type Db, openDatabase } from '../../main/db/open.js';
import { type GridFilters, gridPage, locateWithPage } from '../../main/desktop/grid.js';
import { tempDirs } from '../support/temp-dir.js';

const PRODUCTS = 250;
const dir = tempDirs('stockroom-locate-page-', 'all');

/**
 * A scan's lookup with the row's page in one read (`locateWithPage`, issue 29) against the grid's
 * own page at that offset (`gridPage`), on a real SQLite file of 250 products × 3 stores: the page
 * around the product is read by seeks, so it must be the page the grid reads by position.
 */
describe('locate with the page of its row', () => {
  let db: Db;
  beforeAll(() => {
    const file = `${dir()}/stockroom.db`;
    seedWarehouse(file, PRODUCTS, 3);
    seedItems(file, PRODUCTS, (i) => `${['Termo', 'Mate', 'Yerba'][i % 3]} ${i + 1}`);
    db = openDatabase(file);
  });
  afterAll(() => db.close());

  const o = { authority: false };
  const ids = (g: { rows: { userProductId: string }[] }) => g.rows.map((r) => r.userProductId);

  /** Scans each product of `rows` (grid positions) under `filters`; each lands on its row with the grid's page holding it. */
  function expectLanding(filters: GridFilters, size: number, rows: (all: string[]) => number[]) {
    const all = ids(gridPage(db, BENCH_SELLER, { ...filters, limit: 1000, offset: 0 }));
    expect(all.length).toBeGreaterThan(size);
    for (const index of rows(all)) {
      const wanted = all[index]!;
      const found = locateWithPage(db, BENCH_SELLER, { ...filters, search: itemId(Number(wanted.slice(4)) - 1) }, size, o);
      const offset = Math.floor(index / size) * size;
      expect(found, `${JSON.stringify(filters)} row ${index}`).toMatchObject({ userProductId: wanted, index, total: all.length, page: { offset } });
      expect(found.page!.grid).toEqual(gridPage(db, BENCH_SELLER, { ...filters, limit: size, offset }, o));
      expect(ids(found.page!.grid)[index - offset]).toBe(wanted);
    }
  }
  const firstMiddleLast = (all: string[]) => [0, Math.floor(all.length / 2), all.length - 1];

  it('unfiltered: the first, a middle and the last product, in pages of 50 and of 7 (the last page short)', () => {
    expectLanding({}, 50, firstMiddleLast);
    expectLanding({}, 7, (all) => [...firstMiddleLast(all), 6, 7, 125]);
    const last = locateWithPage(db, BENCH_SELLER, { search: itemId(PRODUCTS - 1) }, 7, o);
    expect(ids(last.page!.grid)).toEqual(Array.from({ length: PRODUCTS % 7 }, (_, k) => productId(PRODUCTS - (PRODUCTS % 7) + k)));
  });

  it('with filters and a sort: the row and the page of the filtered, sorted grid', () => {
    expectLanding({ lowStock: 12 }, 7, firstMiddleLast);
    expectLanding({ sort: { key: 'total', dir: 'desc' } }, 50, firstMiddleLast);
    expectLanding({ sort: { key: 'title', dir: 'asc' } }, 7, firstMiddleLast);
    expectLanding({ store: storeId(1), sort: { key: storeId(1), dir: 'asc' } }, 50, firstMiddleLast);
    expectLanding({ sort: { key: 'product', dir: 'desc' } }, 7, firstMiddleLast);
  });

  it('with near: only the row and its near rows within its page, offset at the first of them', () => {
    for (const filters of [{}, { sort: { key: 'title', dir: 'asc' } }] as GridFilters[]) {
      const all = ids(gridPage(db, BENCH_SELLER, { ...filters, limit: 1000, offset: 0 }));
      for (const [index, near] of [
        [0, 0],
        [0, 3],
        [73, 0],
        [73, 3],
        [51, 5],
        [99, 5],
        [all.length - 1, 2],
      ] as const) {
        const wanted = all[index]!;
        const found = locateWithPage(db, BENCH_SELLER, { ...filters, search: itemId(Number(wanted.slice(4)) - 1) }, 50, o, near);
        const pageStart = Math.floor(index / 50) * 50;
        const from = Math.max(pageStart, index - near);
        const to = Math.min(pageStart + 50, index + near + 1, all.length);
        expect(found, `${JSON.stringify(filters)} row ${index} near ${near}`).toMatchObject({ userProductId: wanted, index, page: { offset: from } });
        expect(ids(found.page!.grid)).toEqual(all.slice(from, to));
        // The same rows as the grid's own page holds for them, cell for cell.
        expect(found.page!.grid.rows).toEqual(gridPage(db, BENCH_SELLER, { ...filters, limit: to - from, offset: from }, o).rows);
      }
    }
  });

  it('no page for a product the filters hide, nor for a code nothing has', () => {
    const low = ids(gridPage(db, BENCH_SELLER, { lowStock: 12, limit: 1000, offset: 0 }));
    const hidden = Array.from({ length: PRODUCTS }, (_, i) => i).find((i) => !low.includes(productId(i)))!;
    expect(locateWithPage(db, BENCH_SELLER, { search: itemId(hidden), lowStock: 12 }, 50, o)).toEqual({
      userProductId: productId(hidden),
      index: null,
      total: low.length,
      title: expect.any(String) as string,
      matchedBy: 'item',
      picture: null,
    });
    expect(locateWithPage(db, BENCH_SELLER, { search: 'MLA9999999999' }, 50, o)).toEqual({ userProductId: null, index: null, total: PRODUCTS });
  });
});

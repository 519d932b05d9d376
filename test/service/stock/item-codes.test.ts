import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../main/db/open.js';
import { gridRepo, normalizeCode } from '../../../main/db/repos/grid.js';
import { gridPage, locate } from '../../../main/desktop/grid.js';
import { loadFixtures, parseFixtures } from '../../../main/fixtures/load.js';
import { type Service, createService } from '../../../main/service/index.js';
import { demo, demoFixtures } from '../../support/fixtures.js';
import { multiwarehouseListing } from '../../support/http-bodies.js';

/**
 * Codes a barcode scan finds a product by (issue 14 §2): the GTIN and SELLER_SKU attributes,
 * seller_custom_field, inventory id, item id and user product id, on a real SQLite file with the
 * demo marketplace (main/fixtures/demo.json carries the codes), through `stock.locate`'s lookup
 * (main/desktop/grid.ts over main/db/repos/grid.ts and migration 012's item_codes).
 */
let dir: string;
let db: Db;
let service: Service;
const seller = { userId: demo.seller.id, applicationId: demo.app };
const other = { userId: demo.other.id, applicationId: demo.app };
const find = (search: string, sellerId: number = demo.seller.id) => locate(db, sellerId, { search });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stockroom-item-codes-'));
  db = openDatabase(join(dir, 'local.db'));
  loadFixtures(db, parseFixtures(demoFixtures()));
  service = createService(db, { attachmentsDir: join(dir, 'files') });
});
afterEach(async () => {
  await service.stop();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const listing = (extra: Record<string, unknown>) => multiwarehouseListing('Termo 500 ml', extra);

describe('normalizeCode', () => {
  it('pads EAN-8, UPC-A, EAN-13 and GTIN-14 to 14 digits and upper-cases the rest', () => {
    expect(normalizeCode(' 00123457 ')).toBe('00000000123457');
    expect(normalizeCode('012345678905')).toBe('00012345678905');
    expect(normalizeCode('0012345678905')).toBe('00012345678905');
    expect(normalizeCode('10012345678902')).toBe('10012345678902');
    expect(normalizeCode('term-1l')).toBe('TERM-1L');
    // Other lengths of digits are kept as they are (an inventory id of 6 digits is not a GTIN).
    expect(normalizeCode('123456')).toBe('123456');
  });
});

describe('a scan finds the product by any of its codes', () => {
  it('on the demo data: GTIN, EAN-8, seller SKU, seller_custom_field, inventory id, item id, user product id', () => {
    const termo = demo.userProducts.termo;
    expect(find('7790001234565')).toMatchObject({ userProductId: termo, index: 0, matchedBy: 'gtin', title: 'Termo acero inoxidable 1L' });
    expect(find('term-1l')).toMatchObject({ userProductId: termo, matchedBy: 'seller_sku' });
    expect(find('NORTE-TERMO-01')).toMatchObject({ userProductId: termo, matchedBy: 'seller_sku' });
    expect(find('TERM0001')).toMatchObject({ userProductId: termo, matchedBy: 'inventory' });
    expect(find(demo.items.termo.toLowerCase())).toMatchObject({ userProductId: termo, matchedBy: 'item' });
    expect(find(termo)).toMatchObject({ userProductId: termo, matchedBy: 'user_product' });
    // The EAN-8: a product, not a count of 123,457.
    expect(find('00123457')).toMatchObject({ userProductId: demo.userProducts.bombilla, index: 3, matchedBy: 'gtin', title: 'Bombilla alpaca' });
    expect(find('NORTE-CANASTA')).toMatchObject({ userProductId: demo.userProducts.canasta, matchedBy: 'seller_sku' });
    expect(find('7790009999999')).toEqual({ userProductId: null, index: null, total: 5 });
  });

  it('the grid search narrows to the product of a code as well', () => {
    const page = gridPage(db, demo.seller.id, { limit: 10, offset: 0, search: 'mate-cal' });
    expect(page.rows.map((r) => r.userProductId)).toEqual([demo.userProducts.mate]);
  });

  it("never finds another seller's item by its code", async () => {
    const theirs = await service.items.createMultiwarehouse(
      other,
      listing({ stock_locations: [{ store_id: demo.stores.otherSellers, quantity: 1 }], attributes: [{ id: 'GTIN', value_name: '7791112223334' }] }),
    );
    expect(locate(db, demo.other.id, { search: '7791112223334' })).toMatchObject({ userProductId: theirs.user_product_id, matchedBy: 'gtin' });
    expect(find('7791112223334').userProductId).toBeNull();
  });

  it('is one seek in the index of codes, not a scan of the items', () => {
    const plan = db
      .prepare<[number, string], { detail: string }>(
        `EXPLAIN QUERY PLAN SELECT i.user_product_id FROM item_codes c JOIN items i ON i.id = c.item_id WHERE c.seller_id = ? AND c.code = ?`,
      )
      .all(demo.seller.id, '07790001234565')
      .map((r) => r.detail);
    expect(plan[0]).toMatch(/^SEARCH c USING PRIMARY KEY \(seller_id=\? AND code=\?\)/);
    expect(plan.some((d) => d.startsWith('SCAN'))).toBe(false);
    // And the repository's lookup is that statement.
    expect(gridRepo(db).productOfCode(' 7790001234565 ', demo.seller.id)).toEqual({ id: demo.userProducts.termo, kind: 'gtin' });
  });
});

describe('listing with attributes (POST /items/multiwarehouse, POST /items)', () => {
  it('stores GTIN, SELLER_SKU and seller_custom_field, answers them on GET /items/{id}, and a scan finds the listing', async () => {
    const attributes = [
      { id: 'GTIN', value_name: '0012345678905' },
      { id: 'SELLER_SKU', value_name: 'TERM-500' },
      { id: 'BRAND', value_name: 'Norte', value_id: '9344' },
    ];
    const item = await service.items.createMultiwarehouse(seller, listing({ attributes, seller_custom_field: 'NORTE-T500' }));
    expect(service.items.get(seller, item.id)).toMatchObject({ attributes, seller_custom_field: 'NORTE-T500', inventory_id: null });
    // A UPC-A scanner reads the 13-digit GTIN that starts with 0 as 12 digits.
    expect(find('012345678905')).toMatchObject({ userProductId: item.user_product_id, matchedBy: 'gtin', title: 'Termo 500 ml' });
    expect(find('term-500')).toMatchObject({ userProductId: item.user_product_id, matchedBy: 'seller_sku' });
    expect(find('NORTE-T500')).toMatchObject({ userProductId: item.user_product_id, matchedBy: 'seller_sku' });
  });

  it('the ordinary flow keeps them too', async () => {
    // The brand seller lists without warehouse_management (POST /items), in an official store of its own (SPEC 7.4).
    const brand = { userId: demo.brand.id, applicationId: demo.app };
    const [store] = service.brands.allowedOfficialStores({ id: demo.brand.id, site_id: 'MLA' });
    const { stock_locations: _none, ...body } = listing({ attributes: [{ id: 'GTIN', value_name: '7793001110000' }], official_store_id: store });
    const item = await service.publish.create(brand, { ...body, available_quantity: 2 });
    expect(item.attributes).toEqual([{ id: 'GTIN', value_name: '7793001110000' }]);
    expect(locate(db, demo.brand.id, { search: '7793001110000' })).toMatchObject({ userProductId: item.user_product_id, matchedBy: 'gtin' });
  });

  it('refuses attributes that are not the flow’s shape, with the field named', async () => {
    await expect(service.items.createMultiwarehouse(seller, listing({ attributes: [{ value_name: '7790001234565' }] }))).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('attributes[0].id'),
    });
    await expect(service.items.createMultiwarehouse(seller, listing({ seller_custom_field: 12 }))).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('seller_custom_field'),
    });
  });
});

describe('the codes follow the item', () => {
  it('a changed attribute or inventory id replaces the old codes; a deleted item takes its codes along', () => {
    const termo = demo.items.termo;
    db.prepare('UPDATE items SET attributes = ?, inventory_id = ? WHERE id = ?').run(
      JSON.stringify({ attributes: [{ id: 'GTIN', value_name: '7790001230000' }] }),
      'TERM0099',
      termo,
    );
    expect(find('7790001234565').userProductId).toBeNull();
    expect(find('TERM0001').userProductId).toBeNull();
    expect(find('7790001230000')).toMatchObject({ userProductId: demo.userProducts.termo, matchedBy: 'gtin' });
    expect(find('TERM0099')).toMatchObject({ userProductId: demo.userProducts.termo, matchedBy: 'inventory' });
    db.prepare('DELETE FROM items WHERE id = ?').run(termo);
    expect(db.prepare('SELECT count(*) AS n FROM item_codes WHERE item_id = ?').get(termo)).toEqual({ n: 0 });
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../main/db/open.js';
import { FixtureError, loadFixtures, parseFixtures } from '../../../main/fixtures/load.js';
import type { FixtureFile } from '../../../main/fixtures/schema.js';
import { type Service, createService } from '../../../main/service/index.js';
import { isServiceError } from '../../../main/service/errors.js';
import { addBrandSeller, brandEntry, demo, demoFixtures } from '../../support/fixtures.js';
import { AURORA_ENTRY } from '../../support/brand-views.js';

const LIST_FIELDS = [
  'site_id',
  'official_store_id',
  'name',
  'type',
  'relevance_position',
  'status',
  'fantasy_name',
  'date_created',
  'return_policy',
  'landing_permalink',
  'pictures',
  'tags',
  'categories_ids',
  'main_categories',
  'permalink',
  'normalized_name',
  'last_updated',
];
const DETAIL_FIELDS = [
  'tags',
  'official_store_id',
  'categories_ids',
  'fantasy_name',
  'users',
  'site_id',
  'status',
  'name',
  'date_created',
  'pictures',
  'boost',
  'relevance_position',
];

function thrown(fn: () => unknown): { status: number; error: string; message: string; cause: unknown[] } {
  try {
    fn();
  } catch (e) {
    if (isServiceError(e)) return e.toBody();
    throw e;
  }
  throw new Error('expected a ServiceError');
}

describe('brands service', () => {
  let db: Db;
  let service: Service;
  const as = { userId: demo.buyer.id, applicationId: demo.app };

  function open(f: FixtureFile): void {
    db = openDatabase(':memory:');
    loadFixtures(db, parseFixtures(f));
    service = createService(db);
  }
  beforeEach(() => open(demoFixtures()));
  afterEach(() => db.close());

  it('lists every brand of a user in the list form, in official_store_id order', () => {
    const list = service.brands.list(as, String(demo.brand.id));
    expect(Object.keys(list)).toEqual(['status', 'cust_id', 'site_id', 'user_type', 'brands', 'tags']);
    expect(list).toMatchObject({ status: 'LINKED', cust_id: demo.brand.id, site_id: 'MLA', user_type: 'brand' });
    // tags of the user's links, merged in brand order
    expect(list.tags).toEqual(['large_seller', 'messages_as_seller', 'brand']);
    expect(list.brands.map((b) => b.official_store_id)).toEqual([4021, 4022]);
    for (const b of list.brands) expect(Object.keys(b)).toEqual(LIST_FIELDS);
    expect(list.brands[0]).toEqual(AURORA_ENTRY);
    // computed from "Aurora Kids  Ñandú"
    expect(list.brands[1]!.normalized_name).toBe('Aurora Kids Nandu');
  });

  it('returns one brand in the detail form with its users and boost', () => {
    const d = service.brands.get(as, String(demo.brand.id), '4022');
    expect(Object.keys(d)).toEqual(DETAIL_FIELDS);
    expect(d).toEqual({
      tags: [],
      official_store_id: 4022,
      categories_ids: ['MLA1384'],
      fantasy_name: 'Aurora Kids',
      users: [{ cust_id: demo.brand.id, tags: ['brand'], site_id: 'MLA', user_type: 'brand' }],
      site_id: 'MLA',
      status: 'active',
      name: 'Aurora Kids  Ñandú',
      date_created: '2020-08-01T09:30:00Z',
      pictures: [
        { id: 911, name: 'small_logo', secure_url: 'https://example.com/img/kids-small.png', url: 'http://example.com/img/kids-small.png', size: '40x40' },
      ],
      boost: { is_active: false, last_update: '2026-01-10T10:00:00Z' },
      relevance_position: 11,
    });
  });

  it('answers the rows of SPEC 7.4 for the brand calls', () => {
    expect(thrown(() => service.brands.list(as, '17804932a'))).toMatchObject({ status: 400, error: 'invalid_parameter' });
    expect(thrown(() => service.brands.get(as, String(demo.brand.id), '40x1'))).toEqual({
      status: 400,
      error: 'invalid_parameter',
      message: 'The officialStoreId must contain only digits',
      cause: [],
    });
    expect(thrown(() => service.brands.list(as, '999'))).toEqual({
      status: 404,
      error: 'U00002',
      message: "U00002 - The user '999' was not found",
      cause: [],
    });
    expect(thrown(() => service.brands.get(as, String(demo.brand.id), '4099'))).toMatchObject({ status: 404, error: 'B00001' });
    // a user with no brand
    expect(thrown(() => service.brands.list(as, String(demo.buyer.id)))).toMatchObject({ status: 404, error: 'B00001' });
    // a brand that exists, asked through a user it is not linked to
    expect(thrown(() => service.brands.get(as, String(demo.seller.id), '4021'))).toMatchObject({ status: 404, error: 'B00001' });
    // digits, but longer than any id: not found rather than a 500
    expect(thrown(() => service.brands.get(as, String(demo.brand.id), '9'.repeat(40)))).toMatchObject({ status: 404, error: 'B00001' });
    expect(thrown(() => service.brands.list(as, '9'.repeat(40)))).toMatchObject({ status: 404, error: 'U00002' });
  });

  it('converts timestamps with an offset to UTC and keeps a given normalized_name', () => {
    db.close();
    const f = demoFixtures();
    f.brands!.push(
      brandEntry(5001, [demo.seller.id], {
        name: 'Zapatería  Müller',
        normalized_name: 'zapateria muller',
        date_created: '2021-03-04T02:06:07-03:00',
      }),
    );
    open(f);
    const [b] = service.brands.list(as, String(demo.seller.id)).brands;
    expect(b).toMatchObject({ official_store_id: 5001, normalized_name: 'zapateria muller', date_created: '2021-03-04T05:06:07.000Z' });
  });

  it('rejects fixtures whose brand links repeat a user or whose item names a missing store', () => {
    const dup = demoFixtures();
    dup.brands![0]!.users.push({ ...dup.brands![0]!.users[0]! });
    expect(() => parseFixtures(dup)).toThrow(FixtureError);
    expect(() => parseFixtures(dup)).toThrow(/brands\[0\]\.users\[1\]: duplicate id 1780493261/);
    const missing = demoFixtures();
    missing.items![5]!.official_store_id = 4999;
    expect(() => parseFixtures(missing)).toThrow(/items\[5\]\.official_store_id: official store 4999 does not exist/);
  });

  describe('listing check (SPEC 7.4)', () => {
    it('requires official_store_id from a brand with several stores, listing the allowed ids', () => {
      const seller = { id: demo.brand.id, site_id: 'MLA', user_type: 'brand' };
      expect(thrown(() => service.brands.listingCheck(seller, undefined))).toMatchObject({
        status: 400,
        error: 'validation_error',
        cause: [{ code: 'item.official_store_id.invalid', message: expect.stringContaining('[4021, 4022]') }],
      });
      expect(() => service.brands.listingCheck(seller, 4022)).not.toThrow();
      expect(thrown(() => service.brands.listingCheck(seller, 4023))).toMatchObject({
        status: 403,
        error: 'body.invalid_official_store_id',
        cause: [],
      });
      // the same stores seen from another site are not the seller's
      expect(thrown(() => service.brands.listingCheck({ ...seller, site_id: 'MLB' }, 4021))).toMatchObject({ status: 403 });
    });

    it('lets a single-store brand and non-brand users list without official_store_id', () => {
      db.close();
      const f = demoFixtures();
      const single = addBrandSeller(f, { officialStores: 1 });
      const linkedSeller = addBrandSeller(f, { officialStores: 2, brandUser: false });
      open(f);
      expect(() => service.brands.listingCheck({ id: single.id, site_id: 'MLA', user_type: 'brand' }, undefined)).not.toThrow();
      expect(() => service.brands.listingCheck({ id: linkedSeller.id, site_id: 'MLA', user_type: null }, undefined)).not.toThrow();
      expect(() => service.brands.listingCheck({ id: linkedSeller.id, site_id: 'MLA', user_type: null }, linkedSeller.officialStoreIds[1])).not.toThrow();
      expect(thrown(() => service.brands.listingCheck({ id: demo.seller.id, site_id: 'MLA', user_type: null }, 4021))).toMatchObject({ status: 403 });
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, errorBody, startTestServer } from '../../support/server.js';
import { AURORA_ENTRY } from '../../support/brand-views.js';
import { addBrandSeller, brandEntry, demo, demoFixtures } from '../../support/fixtures.js';

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

describe('GET /users/{user_id}/brands and /users/{user_id}/brands/{official_store_id}', () => {
  let server: TestServer;
  let three: ReturnType<typeof addBrandSeller>;
  const brandPath = `/users/${demo.brand.id}/brands`;

  beforeAll(async () => {
    const f = demoFixtures();
    three = addBrandSeller(f, { officialStores: 3 });
    // a store shared by two users, with a return policy and an offset timestamp
    f.brands!.push(
      brandEntry(6001, [demo.seller.id, demo.other.id], {
        name: 'Ölmühle  Straße ',
        return_policy: { days: 30, type: 'refund' },
        last_updated: '2026-02-01T09:00:00-03:00',
      }),
    );
    // a store of the brand user on another site does not show on its MLA list
    f.brands!.push(brandEntry(6002, [], { site_id: 'MLB', users: [{ cust_id: demo.brand.id, tags: ['brand'], site_id: 'MLB', user_type: 'brand' }] }));
    server = await startTestServer(f);
  });
  afterAll(() => server.close());

  describe('token handling', () => {
    it('requires a bearer token on both calls', async () => {
      for (const path of [brandPath, `${brandPath}/4021`]) {
        const res = await server.as(null).get(path);
        expect(res.status).toBe(401);
        expect(errorBody(res)).toMatchObject({ error: 'unauthorized', message: 'Access token is required' });
        expect(res.headers.get('www-authenticate')).toContain('Bearer');
      }
    });

    it('rejects an unknown token', async () => {
      const res = await server.as('APP_USR-nope').get(brandPath);
      expect(res.status).toBe(401);
      expect(errorBody(res).error).toBe('invalid_token');
    });

    it('checks the token before the path: no token and a bad id is 401', async () => {
      const res = await server.as(null).get(`${brandPath}/abc`);
      expect(res.status).toBe(401);
    });

    it('lets any authenticated user read a brand (public store pages)', async () => {
      for (const token of [demo.brand.token, demo.buyer.token, demo.seller.token]) {
        const res = await server.as(token).get(`${brandPath}/4021`);
        expect(res.status).toBe(200);
        expect(res.body.official_store_id).toBe(4021);
      }
    });
  });

  describe('list (4.7)', () => {
    it('returns the brand list of a user with several brands', async () => {
      const res = await server.as(demo.buyer.token).get(brandPath);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      const body = res.body;
      expect(Object.keys(body)).toEqual(['status', 'cust_id', 'site_id', 'user_type', 'brands', 'tags']);
      expect(body).toMatchObject({ status: 'LINKED', cust_id: demo.brand.id, site_id: 'MLA', user_type: 'brand' });
      expect(body.tags).toEqual(['large_seller', 'messages_as_seller', 'brand']);
      expect(body.brands.map((b: { official_store_id: number }) => b.official_store_id)).toEqual([4021, 4022]);
      for (const b of body.brands) expect(Object.keys(b)).toEqual(LIST_FIELDS);
      const [aurora, kids] = body.brands;
      // Over HTTP exactly what the service answers, field for field.
      expect(aurora).toEqual(AURORA_ENTRY);
      expect(kids).toMatchObject({ name: 'Aurora Kids  Ñandú', normalized_name: 'Aurora Kids Nandu', tags: [], relevance_position: 11 });
    });

    it('lists three brands of a builder user, and a shared store for each of its users', async () => {
      const res = await server.as(demo.buyer.token).get(`/users/${three.id}/brands`);
      expect(res.status).toBe(200);
      expect(res.body.brands.map((b: { official_store_id: number }) => b.official_store_id)).toEqual(three.officialStoreIds);
      for (const user of [demo.seller.id, demo.other.id]) {
        const shared = await server.as(demo.buyer.token).get(`/users/${user}/brands`);
        expect(shared.status).toBe(200);
        expect(shared.body.cust_id).toBe(user);
        expect(shared.body.brands).toHaveLength(1);
        expect(shared.body.brands[0]).toMatchObject({
          official_store_id: 6001,
          normalized_name: 'Olmuhle Strasse',
          return_policy: { days: 30, type: 'refund' },
          last_updated: '2026-02-01T12:00:00.000Z',
        });
      }
    });

    it('answers 404 B00001 for a user with no brand on the site', async () => {
      const res = await server.as(demo.brand.token).get(`/users/${demo.buyer.id}/brands`);
      expect(res.status).toBe(404);
      expect(errorBody(res)).toEqual({
        error: 'B00001',
        message: `B00001 - No brands were found for the user '${demo.buyer.id}' on site 'MLA'`,
        status: 404,
        cause: [],
      });
    });

    it('answers 404 U00002 for an unknown user', async () => {
      const res = await server.as(demo.buyer.token).get('/users/123456/brands');
      expect(res.status).toBe(404);
      expect(errorBody(res)).toEqual({ error: 'U00002', message: "U00002 - The user '123456' was not found", status: 404, cause: [] });
    });

    it('answers 400 invalid_parameter for a user id with non-digits', async () => {
      for (const bad of ['17804932a1', '-1780493261', '1780493261.0', 'abc', '%20']) {
        const res = await server.as(demo.buyer.token).get(`/users/${bad}/brands`);
        expect(res.status, bad).toBe(400);
        expect(errorBody(res)).toEqual({ error: 'invalid_parameter', message: 'The userId must contain only digits', status: 400, cause: [] });
      }
    });
  });

  describe('detail (4.8)', () => {
    it("returns the detail form of each of the user's brands", async () => {
      const res = await server.as(demo.buyer.token).get(`${brandPath}/4021`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(DETAIL_FIELDS);
      expect(res.body).toEqual({
        tags: ['TOP_BRAND'],
        official_store_id: 4021,
        categories_ids: ['MLA109027', 'MLA1276'],
        fantasy_name: 'Aurora',
        users: [{ cust_id: demo.brand.id, tags: ['large_seller', 'messages_as_seller', 'brand'], site_id: 'MLA', user_type: 'brand' }],
        site_id: 'MLA',
        status: 'active',
        name: 'Aurora Deportes',
        date_created: '2018-05-14T15:03:22Z',
        pictures: [
          { id: 901, name: 'logo', secure_url: 'https://example.com/img/aurora-logo.png', url: 'http://example.com/img/aurora-logo.png', size: '90x90' },
          { id: 902, name: 'background', secure_url: null, url: 'http://example.com/img/aurora-bg.jpg', size: '1200x300' },
        ],
        boost: { is_active: true, last_update: '2026-09-30T10:00:00Z' },
        relevance_position: 3,
      });
      const kids = await server.as(demo.buyer.token).get(`${brandPath}/4022`);
      expect(kids.status).toBe(200);
      expect(kids.body).toMatchObject({ official_store_id: 4022, boost: { is_active: false }, users: [{ cust_id: demo.brand.id, tags: ['brand'] }] });
    });

    it('lists every linked user of a shared store', async () => {
      const res = await server.as(demo.buyer.token).get(`/users/${demo.other.id}/brands/6001`);
      expect(res.status).toBe(200);
      expect(res.body.users.map((u: { cust_id: number }) => u.cust_id)).toEqual([demo.seller.id, demo.other.id]);
    });

    it('answers 400 invalid_parameter for an official_store_id with non-digits', async () => {
      for (const bad of ['40a1', '4021x', '-4021', '4021.0', 'x', '4021%20']) {
        const res = await server.as(demo.buyer.token).get(`${brandPath}/${bad}`);
        expect(res.status, bad).toBe(400);
        expect(errorBody(res)).toEqual({
          error: 'invalid_parameter',
          message: 'The officialStoreId must contain only digits',
          status: 400,
          cause: [],
        });
      }
    });

    it('checks the path before the user: bad id with an unknown user is 400', async () => {
      const res = await server.as(demo.buyer.token).get('/users/123456/brands/abc');
      expect(res.status).toBe(400);
      expect(errorBody(res).error).toBe('invalid_parameter');
      const badUser = await server.as(demo.buyer.token).get('/users/12a/brands/4021');
      expect(badUser.status).toBe(400);
      expect(errorBody(badUser).message).toBe('The userId must contain only digits');
    });

    it('answers 404 U00002 for an unknown user', async () => {
      const res = await server.as(demo.buyer.token).get('/users/123456/brands/4021');
      expect(res.status).toBe(404);
      expect(errorBody(res)).toEqual({ error: 'U00002', message: "U00002 - The user '123456' was not found", status: 404, cause: [] });
    });

    it("answers 404 B00001 for a store that does not exist, is another user's, or is on another site", async () => {
      const cases: [string, string][] = [
        [`${brandPath}/4099`, `B00001 - The brand '4099' was not found for the user '${demo.brand.id}' on site 'MLA'`],
        [`/users/${demo.seller.id}/brands/4021`, `B00001 - The brand '4021' was not found for the user '${demo.seller.id}' on site 'MLA'`],
        [`${brandPath}/6002`, `B00001 - The brand '6002' was not found for the user '${demo.brand.id}' on site 'MLA'`],
        [`${brandPath}/${'9'.repeat(30)}`, `B00001 - The brand '${'9'.repeat(30)}' was not found for the user '${demo.brand.id}' on site 'MLA'`],
      ];
      for (const [path, message] of cases) {
        const res = await server.as(demo.buyer.token).get(path);
        expect(res.status, path).toBe(404);
        expect(errorBody(res)).toEqual({ error: 'B00001', message, status: 404, cause: [] });
      }
    });
  });

  it('changes nothing: reads leave the brand tables as they were', async () => {
    const count = () =>
      server.db.prepare('SELECT (SELECT count(*) FROM brands) AS b, (SELECT count(*) FROM brand_users) AS u, (SELECT count(*) FROM brand_pictures) AS p').get();
    const before = count();
    await server.as(demo.buyer.token).get(brandPath);
    await server.as(demo.buyer.token).get(`${brandPath}/x`);
    await server.as(demo.buyer.token).raw('POST', brandPath, { body: { name: 'x' } });
    expect(count()).toEqual(before);
    expect(before).toEqual({ b: 7, u: 8, p: 3 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, warehouseFixtures } from '../../support/fixtures.js';
import { type TestServer, errorBody, startTestServer } from '../../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('GET /users/{id} (SPEC 4.1)', () => {
  it('returns the partial user record with the warehouse_management tag', async () => {
    const res = await server.as(demo.seller.token).get(`/users/${demo.seller.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: demo.seller.id,
      nickname: 'DEPOSITO_NORTE',
      registration_date: '2019-06-03T14:22:05.000-04:00',
      first_name: 'Lucia',
      last_name: 'Fernández',
      gender: '',
      country_id: 'AR',
      site_id: 'MLA',
      tags: ['normal', 'user_product_seller', 'warehouse_management'],
    });
  });

  it("/users/me answers the token's own user; without a token it is 401", async () => {
    const me = await server.as(demo.buyer.token).get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual((await server.as(demo.seller.token).get(`/users/${demo.buyer.id}`)).body);
    expect(me.body.id).toBe(demo.buyer.id);
    expect(errorBody(await server.as(null).get('/users/me'))).toMatchObject({ status: 401 });
  });

  it('lets any authenticated user read another user', async () => {
    const res = await server.as(demo.buyer.token).get(`/users/${demo.seller.id}`);
    expect(res.status).toBe(200);
    expect(res.body.nickname).toBe('DEPOSITO_NORTE');
  });

  it('answers 404 for an unknown user and 400 for an id with letters', async () => {
    const missing = await server.as(demo.seller.token).get('/users/12345');
    expect(errorBody(missing)).toMatchObject({ status: 404, error: 'not_found', message: "The user '12345' was not found" });
    const letters = await server.as(demo.seller.token).get('/users/12ab');
    expect(errorBody(letters)).toMatchObject({ status: 400, error: 'bad_request' });
  });
});

describe('authentication on the stock endpoints (SPEC 5)', () => {
  it('answers 401 unauthorized without a token, with a Bearer challenge', async () => {
    const res = await server.as(null).get(`/users/${demo.seller.id}`);
    expect(errorBody(res)).toEqual({ status: 401, error: 'unauthorized', message: 'Access token is required', cause: [] });
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('answers 401 invalid_token for an unknown token', async () => {
    const res = await server.as('APP_USR-nope').get(`/user-products/${demo.userProducts.termo}/stock`);
    expect(errorBody(res)).toMatchObject({ status: 401, error: 'invalid_token', message: 'Invalid access token' });
    expect(res.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('treats a non-Bearer Authorization header as no token', async () => {
    const res = await server.as(null).get(`/users/${demo.seller.id}`, { authorization: `Basic ${demo.seller.token}` });
    expect(errorBody(res)).toMatchObject({ status: 401, error: 'unauthorized' });
  });
});

describe('GET /users/{id}/stores/search (SPEC 4.2)', () => {
  const search = (query: string, token: string = demo.seller.token, user: number = demo.seller.id) =>
    server.as(token).get(`/users/${user}/stores/search${query}`);

  it('filters by tag: only stock locations', async () => {
    const res = await search('?tags=stock_location');
    expect(res.status).toBe(200);
    expect(res.body.paging).toEqual({ limit: 50, offset: 0, total: 2 });
    expect(res.body.results.map((s: { id: string }) => s.id)).toEqual([demo.stores.palermo, demo.stores.avellaneda]);
    expect(res.body.results[0]).toEqual({
      id: '64712',
      user_id: '1780493260',
      description: 'Depósito Palermo',
      status: 'active',
      tags: ['stock_location'],
      network_node_id: 'ARBA01P',
      location: {
        address_id: 1330031710,
        address_line: 'Gorriti 4800',
        street_name: 'Gorriti',
        street_number: 4800,
        latitude: -34.5889,
        longitude: -58.4294,
        city: 'Palermo',
        state: 'Capital Federal',
        country: 'Argentina',
        zip_code: '1414',
      },
    });
  });

  it('without tags lists every store of the seller', async () => {
    const res = await search('');
    expect(res.body.paging.total).toBe(3);
    expect(res.body.results.map((s: { id: string }) => s.id)).toContain(demo.stores.showroom);
  });

  it('honours limit and offset', async () => {
    const res = await search('?limit=1&offset=1');
    expect(res.body.paging).toEqual({ limit: 1, offset: 1, total: 3 });
    expect(res.body.results.map((s: { id: string }) => s.id)).toEqual([demo.stores.avellaneda]);
    const past = await search('?offset=10');
    expect(past.body.results).toEqual([]);
  });

  it('rejects bad paging with 400', async () => {
    for (const q of ['?limit=0', '?limit=51', '?limit=abc', '?offset=-1', '?offset=x']) {
      const res = await search(q);
      expect(errorBody(res).status, q).toBe(400);
    }
  });

  it("refuses another seller's stores with 403 and never returns them", async () => {
    const res = await search('?tags=stock_location', demo.seller.token, demo.other.id);
    expect(errorBody(res)).toMatchObject({ status: 403, error: 'forbidden' });
    expect(JSON.stringify(res.body)).not.toContain(demo.stores.otherSellers);
  });

  it('pages a large store list', async () => {
    const big = await startTestServer(warehouseFixtures({ products: 1, stores: 120 }));
    try {
      const seller = big.db.prepare('SELECT access_token FROM tokens').get() as { access_token: string };
      const user = big.db.prepare('SELECT id FROM users').get() as { id: number };
      const pages = [];
      for (let offset = 0; offset < 120; offset += 50) {
        const res = await big.as(seller.access_token).get(`/users/${user.id}/stores/search?tags=stock_location&offset=${offset}`);
        pages.push(...res.body.results.map((s: { id: string }) => s.id));
        expect(res.body.paging.total).toBe(120);
      }
      expect(new Set(pages).size).toBe(120);
    } finally {
      await big.close();
    }
  });
});

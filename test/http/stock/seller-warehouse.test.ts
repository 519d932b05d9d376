import { describe, expect, it } from 'vitest';
import { demo } from '../../support/fixtures.js';
import { errorBody } from '../../support/server.js';
import { serverWithSeller } from '../../support/seller.js';

const api = serverWithSeller();
const { seller } = api;

const stockPath = (id: string) => `/user-products/${id}/stock`;
const putPath = (id: string) => `/user-products/${id}/stock/type/seller_warehouse`;

async function readStock(id: string = demo.userProducts.termo) {
  const res = await seller().get(stockPath(id));
  return { version: res.headers.get('x-version'), body: res.body };
}

describe('GET /user-products/{id}/stock (SPEC 4.4)', () => {
  it('returns every location and the version in x-version', async () => {
    const res = await seller().get(stockPath(demo.userProducts.termo));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-version')).toBe('1');
    expect(res.body).toEqual({
      id: demo.userProducts.termo,
      user_id: demo.seller.id,
      locations: [
        { type: 'seller_warehouse', quantity: 12, store_id: '64712', network_node_id: 'ARBA01P' },
        { type: 'seller_warehouse', quantity: 30, store_id: '64713', network_node_id: 'ARBA02A' },
        { type: 'platform_facility', quantity: 8 },
      ],
    });
  });

  it('starts at the fixture version', async () => {
    expect((await readStock(demo.userProducts.mate)).version).toBe('4');
  });

  it('selling_address and platform_facility carry only type and quantity', async () => {
    const { body } = await readStock(demo.userProducts.mate);
    expect(body.locations).toEqual([
      { type: 'selling_address', quantity: 5 },
      { type: 'platform_facility', quantity: 20 },
    ]);
  });

  it("answers 403 for another seller's user product without its data", async () => {
    const res = await seller().get(stockPath(demo.userProducts.otherSellers));
    expect(errorBody(res)).toMatchObject({ status: 403, error: 'forbidden' });
    expect(res.body.locations).toBeUndefined();
  });

  it('answers 404 for an unknown user product and 400 for a malformed id', async () => {
    expect(errorBody(await seller().get(stockPath('MLAU999999999'))).status).toBe(404);
    expect(errorBody(await seller().get(stockPath('MLAU%20%3B--'))).status).toBe(400);
  });
});

describe('PUT .../stock/type/seller_warehouse (SPEC 4.5, 7.2)', () => {
  const put = (body: unknown, version: string | null = '1', id: string = demo.userProducts.termo) =>
    seller().put(putPath(id), body, version === null ? {} : { 'x-version': version });

  it('sets the sent quantities, answers the seller_warehouse locations and the next version', async () => {
    const res = await put({ locations: [{ store_id: '64712', network_node_id: 'ARBA01P', quantity: 7 }] });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-version')).toBe('2');
    expect(res.body).toEqual({
      id: demo.userProducts.termo,
      user_id: demo.seller.id,
      locations: [
        { type: 'seller_warehouse', quantity: 7, store_id: '64712', network_node_id: 'ARBA01P' },
        { type: 'seller_warehouse', quantity: 30, store_id: '64713', network_node_id: 'ARBA02A' },
      ],
      product_release_date: null,
    });
    const after = await readStock();
    expect(after.version).toBe('2');
    expect(after.body.locations[0].quantity).toBe(7);
    expect(after.body.locations[2]).toEqual({ type: 'platform_facility', quantity: 8 });
  });

  it('a new read returns the updated version and a stale version gets 409 Version mismatch', async () => {
    expect((await put({ locations: [{ store_id: '64712', quantity: 1 }] }, '1')).status).toBe(200);
    const stale = await put({ locations: [{ store_id: '64712', quantity: 2 }] }, '1');
    expect(errorBody(stale)).toEqual({ status: 409, error: 'conflict', message: 'Version mismatch', cause: [] });
    const { version, body } = await readStock();
    expect(version).toBe('2');
    expect(body.locations[0].quantity).toBe(1);
    expect((await put({ locations: [{ store_id: '64712', quantity: 2 }] }, version)).status).toBe(200);
  });

  it('a version from the future is also a mismatch', async () => {
    expect(errorBody(await put({ locations: [{ store_id: '64712', quantity: 2 }] }, '99')).status).toBe(409);
  });

  it('a store whose stock is 0 gets the sent quantity assigned (rule 4.5.1)', async () => {
    const res = await put({ locations: [{ store_id: '64713', quantity: 0 }] }, '1');
    expect(res.body.locations[1].quantity).toBe(0);
    const again = await put({ locations: [{ store_id: '64713', quantity: 15 }] }, '2');
    expect(again.body.locations[1].quantity).toBe(15);
  });

  it('400 Missing X-Version header, and a malformed version is 400 too', async () => {
    const missing = await put({ locations: [{ store_id: '64712', quantity: 1 }] }, null);
    expect(errorBody(missing)).toEqual({ status: 400, error: 'bad_request', message: 'Missing X-Version header', cause: [] });
    for (const v of ['abc', '-1', '1.5', '99999999999999999999']) {
      const res = await put({ locations: [{ store_id: '64712', quantity: 1 }] }, v);
      expect(errorBody(res).status, v).toBe(400);
    }
  });

  it('400 Store does not belong to seller: <store_id>', async () => {
    const res = await put({ locations: [{ store_id: demo.stores.otherSellers, quantity: 1 }] });
    expect(errorBody(res)).toMatchObject({ status: 400, message: `Store does not belong to seller: ${demo.stores.otherSellers}` });
  });

  it('400 Store not found: <store_id>', async () => {
    const res = await put({ locations: [{ store_id: '999999', quantity: 1 }] });
    expect(errorBody(res)).toMatchObject({ status: 400, message: 'Store not found: 999999' });
  });

  it('400 Store is not configured to be a stock location', async () => {
    const res = await put({ locations: [{ store_id: demo.stores.showroom, quantity: 1 }] });
    expect(errorBody(res)).toMatchObject({ status: 400, message: 'Store is not configured to be a stock location' });
  });

  it('400 Store cannot be null or empty: no locations, empty list, null or blank store_id', async () => {
    for (const body of [
      {},
      { locations: [] },
      { locations: null },
      { locations: [{ store_id: null, quantity: 1 }] },
      { locations: [{ store_id: '', quantity: 1 }] },
      { locations: [{ quantity: 1 }] },
    ]) {
      const res = await put(body);
      expect(errorBody(res), JSON.stringify(body)).toMatchObject({ status: 400, message: 'Store cannot be null or empty' });
    }
  });

  it('does not validate network_node_id (SPEC 4.5) and keeps the store node', async () => {
    const res = await put({ locations: [{ store_id: '64712', network_node_id: 'WHATEVER', quantity: 3 }] });
    expect(res.status).toBe(200);
    expect(res.body.locations[0].network_node_id).toBe('ARBA01P');
  });

  it('one bad store in a batch changes nothing at all', async () => {
    const res = await put({
      locations: [
        { store_id: '64712', quantity: 99 },
        { store_id: '999999', quantity: 1 },
      ],
    });
    expect(res.status).toBe(400);
    const { version, body } = await readStock();
    expect(version).toBe('1');
    expect(body.locations[0].quantity).toBe(12);
  });

  it("answers 403 on another seller's user product", async () => {
    const res = await put({ locations: [{ store_id: demo.stores.otherSellers, quantity: 1 }] }, '1', demo.userProducts.otherSellers);
    expect(errorBody(res)).toMatchObject({ status: 403, error: 'forbidden' });
  });

  it('enforces the location pairing of SPEC 8: no seller_warehouse on a selling_address product', async () => {
    const res = await put({ locations: [{ store_id: '64712', quantity: 1 }] }, '4', demo.userProducts.mate);
    expect(errorBody(res)).toMatchObject({ status: 400 });
    expect(res.body.message).toContain('selling_address and seller_warehouse');
    expect((await readStock(demo.userProducts.mate)).body.locations).toHaveLength(2);
  });

  it('may add seller_warehouse stock to a platform_facility-only product', async () => {
    const res = await put({ locations: [{ store_id: '64712', quantity: 4 }] }, '1', demo.userProducts.yerba);
    expect(res.status).toBe(200);
    const { body } = await readStock(demo.userProducts.yerba);
    expect(body.locations.map((l: { type: string }) => l.type)).toEqual(['platform_facility', 'seller_warehouse']);
  });

  it('a store new to the product comes after the ones it holds, and an update keeps its place', async () => {
    const first = await put({ locations: [{ store_id: demo.stores.palermo, quantity: 4 }] }, '1', demo.userProducts.yerba);
    const second = await put(
      {
        locations: [
          { store_id: demo.stores.avellaneda, quantity: 6 },
          { store_id: demo.stores.palermo, quantity: 5 },
        ],
      },
      '2',
      demo.userProducts.yerba,
    );
    const sw = (store: string, quantity: number, node: string) => ({ type: 'seller_warehouse', quantity, store_id: store, network_node_id: node });
    expect(first.body.locations).toEqual([sw(demo.stores.palermo, 4, 'ARBA01P')]);
    expect(second.body).toEqual({
      id: demo.userProducts.yerba,
      user_id: demo.seller.id,
      locations: [sw(demo.stores.palermo, 5, 'ARBA01P'), sw(demo.stores.avellaneda, 6, 'ARBA02A')],
      product_release_date: null,
    });
    const { body, version } = await readStock(demo.userProducts.yerba);
    expect(version).toBe('3');
    expect(body.locations).toEqual([
      { type: 'platform_facility', quantity: expect.any(Number) },
      sw(demo.stores.palermo, 5, 'ARBA01P'),
      sw(demo.stores.avellaneda, 6, 'ARBA02A'),
    ]);
  });

  it('checks the token before anything else, then the idempotency key, then the request', async () => {
    const everythingWrong = { 'x-version': 'abc', 'x-idempotency-key': 'with space' };
    for (const type of ['seller_warehouse', 'selling_address']) {
      const path = `/user-products/MLAU%20%3B--/stock/type/${type}`;
      const anonymous = await api.server.as(null).put(path, { nope: true }, everythingWrong);
      expect(errorBody(anonymous), type).toMatchObject({ status: 401, error: 'unauthorized' });
      const unknown = await api.server.as('NOT-A-TOKEN').put(path, { nope: true }, everythingWrong);
      expect(errorBody(unknown), type).toMatchObject({ status: 401, error: 'invalid_token' });
      const badKey = await seller().put(path, { nope: true }, everythingWrong);
      expect(errorBody(badKey).message, type).toMatch(/^Invalid X-Idempotency-Key header/);
    }
    // Another seller's product: 403 before the version header and the body are looked at.
    const foreign = await seller().put(putPath(demo.userProducts.otherSellers), { nope: true }, { 'x-version': 'abc' });
    expect(errorBody(foreign)).toMatchObject({ status: 403, error: 'forbidden' });
    expect((await readStock()).version).toBe('1');
  });

  it('platform_facility is never writable, and unknown types are refused', async () => {
    const pf = await seller().put(`/user-products/${demo.userProducts.termo}/stock/type/platform_facility`, { quantity: 1 }, { 'x-version': '1' });
    expect(errorBody(pf)).toMatchObject({ status: 400 });
    expect(pf.body.message).toContain('platform_facility');
    const other = await seller().put(`/user-products/${demo.userProducts.termo}/stock/type/shelf`, { quantity: 1 }, { 'x-version': '1' });
    expect(errorBody(other).status).toBe(400);
    expect((await readStock()).version).toBe('1');
  });
});

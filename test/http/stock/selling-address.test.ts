import { describe, expect, it } from 'vitest';
import { demo } from '../../support/fixtures.js';
import { errorBody } from '../../support/server.js';
import { serverWithSeller } from '../../support/seller.js';

const api = serverWithSeller();
const { seller } = api;

const put = (id: string, body: unknown, version: string | null) =>
  seller().put(`/user-products/${id}/stock/type/selling_address`, body, version === null ? {} : { 'x-version': version });
const read = async (id: string) => {
  const res = await seller().get(`/user-products/${id}/stock`);
  return { version: res.headers.get('x-version'), locations: res.body.locations };
};

describe('PUT .../stock/type/selling_address (SPEC 4.6, 7.3)', () => {
  it('answers 204 with no body and sets the selling-address stock at once', async () => {
    const res = await put(demo.userProducts.mate, { quantity: 9 }, '4');
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    const after = await read(demo.userProducts.mate);
    expect(after.version).toBe('5');
    expect(after.locations).toEqual([
      { type: 'selling_address', quantity: 9 },
      { type: 'platform_facility', quantity: 20 },
    ]);
  });

  it('reaches every item of the user product through a durable job', async () => {
    await put(demo.userProducts.mate, { quantity: 11 }, '4');
    const pending = api.server.db.prepare("SELECT kind, state FROM jobs WHERE kind = 'stock.propagate_selling_address'").all();
    expect(pending.length).toBeGreaterThan(0);
    await api.server.service.jobs.drain();
    const item = await seller().get(`/items/${demo.items.mate}`);
    expect(item.body.available_quantity).toBe(11);
  });

  it('400 when the items are fulfillment only', async () => {
    const res = await put(demo.userProducts.yerba, { quantity: 1 }, '1');
    expect(errorBody(res)).toEqual({
      status: 400,
      error: 'bad_request',
      message: 'You cannot modify selling address stock if associated items are fulfillment only or no items are associated.',
      cause: [],
    });
  });

  it('400 when no items are associated', async () => {
    api.server.db.prepare('DELETE FROM items WHERE user_product_id = ?').run(demo.userProducts.mate);
    const res = await put(demo.userProducts.mate, { quantity: 1 }, '4');
    expect(errorBody(res).message).toBe('You cannot modify selling address stock if associated items are fulfillment only or no items are associated.');
  });

  it('400 in items without inventory id', async () => {
    const res = await put(demo.userProducts.bombilla, { quantity: 1 }, '2');
    expect(errorBody(res)).toMatchObject({ status: 400, message: 'You cannot modify selling address stock in items without inventory id.' });
  });

  it('400 before the first full inbound', async () => {
    const res = await put(demo.userProducts.canasta, { quantity: 1 }, '1');
    expect(errorBody(res)).toMatchObject({
      status: 400,
      message: 'You cannot modify selling address stock because you have to do a full inbound first before modifying.',
    });
  });

  it('400 Missing X-Version header, 409 on a stale version', async () => {
    expect(errorBody(await put(demo.userProducts.mate, { quantity: 1 }, null))).toMatchObject({ status: 400, message: 'Missing X-Version header' });
    expect(errorBody(await put(demo.userProducts.mate, { quantity: 1 }, '3'))).toMatchObject({ status: 409, message: 'Version mismatch' });
    expect((await read(demo.userProducts.mate)).locations[0].quantity).toBe(5);
  });

  it('refuses selling_address on a seller_warehouse product (SPEC 8 pairing)', async () => {
    const res = await put(demo.userProducts.termo, { quantity: 1 }, '1');
    expect(errorBody(res).status).toBe(400);
    expect(res.body.message).toContain('selling_address and seller_warehouse');
  });

  it('rejects bad bodies without changing anything', async () => {
    for (const body of [{}, { quantity: -1 }, { quantity: 1.5 }, { quantity: '3' }, { quantity: 10_000_001 }, { quantity: 1, extra: true }, [1]]) {
      const res = await put(demo.userProducts.mate, body, '4');
      expect(errorBody(res).status, JSON.stringify(body)).toBe(400);
    }
    expect((await read(demo.userProducts.mate)).version).toBe('4');
  });

  it('a brand seller with a cross-docking item edits plain selling-address stock', async () => {
    const brand = api.server.as(demo.brand.token);
    const res = await brand.put('/user-products/MLAU300000001/stock/type/selling_address', { quantity: 20 }, { 'x-version': '1' });
    expect(res.status).toBe(204);
  });
});

describe('legacy PUT /items/{id} with available_quantity (SPEC 4.6)', () => {
  it('sets the same selling-address stock and bumps the version', async () => {
    const res = await seller().put(`/items/${demo.items.mate}`, { available_quantity: 13 });
    expect(res.status).toBe(200);
    const after = await read(demo.userProducts.mate);
    expect(after.version).toBe('5');
    expect(after.locations[0]).toEqual({ type: 'selling_address', quantity: 13 });
    await api.server.service.jobs.drain();
    expect((await seller().get(`/items/${demo.items.mate}`)).body.available_quantity).toBe(13);
    // A PUT with the version read before the legacy call is now stale.
    expect((await put(demo.userProducts.mate, { quantity: 1 }, '4')).status).toBe(409);
  });

  it('applies the rules of 7.3', async () => {
    const res = await seller().put(`/items/${demo.items.bombilla}`, { available_quantity: 1 });
    expect(errorBody(res).message).toBe('You cannot modify selling address stock in items without inventory id.');
  });

  it('rejects available_quantity on a multi-warehouse item', async () => {
    const res = await seller().put(`/items/${demo.items.termo}`, { available_quantity: 1 });
    expect(errorBody(res)).toMatchObject({ status: 400, message: 'The fields [available_quantity] are invalid for requested call' });
  });

  it("refuses another seller's item and unknown fields", async () => {
    expect(errorBody(await api.server.as(demo.other.token).put(`/items/${demo.items.mate}`, { available_quantity: 1 })).status).toBe(403);
    expect(errorBody(await seller().put(`/items/${demo.items.mate}`, { title: 'x' })).message).toBe('The fields [title] are invalid for requested call');
  });
});

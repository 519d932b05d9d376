import { describe, expect, it } from 'vitest';
import { demo } from '../../support/fixtures.js';
import { type Client, errorBody } from '../../support/server.js';
import { serverWithSeller } from '../../support/seller.js';

const api = serverWithSeller();
const { seller } = api;

const validItem = () => ({
  title: 'Termo acero 1.5L',
  category_id: 'MLA1902',
  price: 52999,
  currency_id: 'ARS',
  listing_type_id: 'gold_special',
  channels: ['marketplace'],
  stock_locations: [
    { store_id: demo.stores.palermo, network_node_id: 'ARBA01P', quantity: 10 },
    { store_id: demo.stores.avellaneda, network_node_id: 'ARBA02A', quantity: 4 },
  ],
});
const create = (body: unknown, client: Client = seller()) => client.post('/items/multiwarehouse', body);
const counts = () => api.server.db.prepare('SELECT (SELECT count(*) FROM items) AS items, (SELECT count(*) FROM user_products) AS ups').get();

describe('POST /items/multiwarehouse (SPEC 4.3, 7.1)', () => {
  it('creates the item and its user product, answering 201 with the fields of 2.4', async () => {
    const res = await create(validItem());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      site_id: 'MLA',
      title: 'Termo acero 1.5L',
      seller_id: demo.seller.id,
      category_id: 'MLA1902',
      price: 52999,
      base_price: 52999,
      channels: ['marketplace'],
      stock_locations: [
        { store_id: '64712', quantity: 10, network_node_id: 'ARBA01P' },
        { store_id: '64713', quantity: 4, network_node_id: 'ARBA02A' },
      ],
    });
    expect(res.body.id).toMatch(/^MLA\d+$/);
    expect(res.body.user_product_id).toMatch(/^MLAU\d+$/);
  });

  it('after creation the stock is read through the user product (rule 4.3.3)', async () => {
    const { body: item } = await create(validItem());
    const stock = await seller().get(`/user-products/${item.user_product_id}/stock`);
    expect(stock.headers.get('x-version')).toBe('1');
    expect(stock.body.locations).toEqual([
      { type: 'seller_warehouse', quantity: 10, store_id: '64712', network_node_id: 'ARBA01P' },
      { type: 'seller_warehouse', quantity: 4, store_id: '64713', network_node_id: 'ARBA02A' },
    ]);
    const read = await seller().get(`/items/${item.id}`);
    expect(read.body.stock_locations).toBeUndefined();
    expect(read.body.user_product_id).toBe(item.user_product_id);
  });

  it('gives each item a new id and user product id', async () => {
    const a = await create(validItem());
    const b = await create(validItem());
    expect(a.body.id).not.toBe(b.body.id);
    expect(a.body.user_product_id).not.toBe(b.body.user_product_id);
  });

  it('keeps further attributes of the ordinary publishing flow', async () => {
    const res = await create({ ...validItem(), condition: 'new', pictures: [{ source: 'https://example.com/a.jpg' }] });
    expect(res.status).toBe(201);
    const row = api.server.db.prepare('SELECT attributes FROM items WHERE id = ?').get(res.body.id) as { attributes: string };
    expect(JSON.parse(row.attributes)).toMatchObject({ condition: 'new' });
  });

  it('answers an item with its pictures (web addresses only), the first as the thumbnail', async () => {
    const res = await create({
      ...validItem(),
      pictures: [{ source: 'file:///etc/passwd' }, { source: 'https://example.com/a.jpg' }, { source: 'http://example.com/b.jpg' }],
    });
    expect(res.status).toBe(201);
    const read = await seller().get(`/items/${res.body.id}`);
    expect(read.body.pictures).toEqual([
      { id: `${res.body.id}-2`, url: 'https://example.com/a.jpg', secure_url: 'https://example.com/a.jpg' },
      { id: `${res.body.id}-3`, url: 'http://example.com/b.jpg', secure_url: null },
    ]);
    expect(read.body.thumbnail).toBe('https://example.com/a.jpg');
    const bare = await create(validItem());
    expect((await seller().get(`/items/${bare.body.id}`)).body).toMatchObject({ pictures: [], thumbnail: null });
  });

  it('400 The fields [stock_locations] are required for requested call', async () => {
    const { stock_locations: _omit, ...rest } = validItem();
    for (const body of [rest, { ...rest, stock_locations: [] }, { ...rest, stock_locations: null }]) {
      expect(errorBody(await create(body))).toEqual({
        status: 400,
        error: 'bad_request',
        message: 'The fields [stock_locations] are required for requested call',
        cause: [],
      });
    }
  });

  it('400 The fields [available_quantity] are invalid for requested call (rule 4.3.1)', async () => {
    const res = await create({ ...validItem(), available_quantity: 5 });
    expect(errorBody(res).message).toBe('The fields [available_quantity] are invalid for requested call');
  });

  it('400 Store does not belong to seller: <store_id>', async () => {
    const body = { ...validItem(), stock_locations: [{ store_id: demo.stores.otherSellers, network_node_id: 'ARSF01R', quantity: 1 }] };
    expect(errorBody(await create(body)).message).toBe(`Store does not belong to seller: ${demo.stores.otherSellers}`);
  });

  it('400 Store not found: <store_id>', async () => {
    const body = { ...validItem(), stock_locations: [{ store_id: '4242', network_node_id: 'X', quantity: 1 }] };
    expect(errorBody(await create(body)).message).toBe('Store not found: 4242');
  });

  it('refuses a store that is not a stock location and a network node that is not the store one', async () => {
    const notStock = { ...validItem(), stock_locations: [{ store_id: demo.stores.showroom, network_node_id: 'ARBA03S', quantity: 1 }] };
    expect(errorBody(await create(notStock)).message).toBe('Store is not configured to be a stock location');
    const wrongNode = { ...validItem(), stock_locations: [{ store_id: demo.stores.palermo, network_node_id: 'ARBA02A', quantity: 1 }] };
    expect(errorBody(await create(wrongNode)).message).toContain('network_node_id');
  });

  it('names missing required fields and unknown fields', async () => {
    const { title: _t, price: _p, ...rest } = validItem();
    expect(errorBody(await create(rest)).message).toBe('The fields [title, price] are required for requested call');
    expect(errorBody(await create({ ...validItem(), colour: 'red' })).message).toBe('The fields [colour] are invalid for requested call');
  });

  it('rejects wrong types and out-of-range quantities', async () => {
    const bad = [
      { ...validItem(), price: 'cheap' },
      { ...validItem(), price: -1 },
      { ...validItem(), stock_locations: [{ store_id: '64712', quantity: -3 }] },
      { ...validItem(), stock_locations: [{ store_id: '64712', quantity: 2.5 }] },
      { ...validItem(), stock_locations: [{ store_id: '64712', quantity: 1e12 }] },
      {
        ...validItem(),
        stock_locations: [
          { store_id: '64712', quantity: 1 },
          { store_id: '64712', quantity: 2 },
        ],
      },
    ];
    for (const body of bad) expect(errorBody(await create(body)).status, JSON.stringify(body)).toBe(400);
  });

  it('a seller without warehouse_management gets 403 (the multi-origin flow is not enabled)', async () => {
    const res = await create(validItem(), api.server.as(demo.buyer.token));
    expect(errorBody(res)).toMatchObject({ status: 403, error: 'forbidden' });
    expect(res.body.message).toContain('warehouse_management');
  });

  it('a failed creation leaves nothing behind', async () => {
    const before = counts();
    await create({
      ...validItem(),
      stock_locations: [
        { store_id: '64712', quantity: 1 },
        { store_id: '4242', quantity: 1 },
      ],
    });
    expect(counts()).toEqual(before);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, type TestServer, errorBody, startTestServer } from '../../support/server.js';
import { addBrandSeller, demo, demoFixtures } from '../../support/fixtures.js';

/** An ordinary listing body (POST /items). */
const itemBody = (extra: Record<string, unknown> = {}) => ({
  title: 'Zapatillas Aurora Trail',
  category_id: 'MLA109027',
  price: 99999,
  currency_id: 'ARS',
  listing_type_id: 'gold_pro',
  channels: ['marketplace'],
  available_quantity: 7,
  ...extra,
});

/** A multi-warehouse listing body (POST /items/multiwarehouse) for one store. */
const warehouseBody = (store: { id: string; network_node_id: string }, extra: Record<string, unknown> = {}) => ({
  title: 'Termo Aurora 1L',
  category_id: 'MLA1902',
  price: 45999,
  currency_id: 'ARS',
  listing_type_id: 'gold_special',
  channels: ['marketplace'],
  stock_locations: [{ store_id: store.id, network_node_id: store.network_node_id, quantity: 4 }],
  ...extra,
});

const VALIDATION_MESSAGE = (id: number) => `The field official_store_id is required: user ${id} is a brand with more than one official store on site MLA`;
const NOT_ALLOWED_MESSAGE = (id: number, os: number) => `User ${id} is not allowed to list items in official store ${os} on site MLA`;

function expectOfficialStoreRequired(res: ApiResponse, userId: number, allowed: number[]): void {
  expect(res.status).toBe(400);
  expect(errorBody(res)).toEqual({
    error: 'validation_error',
    message: VALIDATION_MESSAGE(userId),
    status: 400,
    cause: [
      {
        code: 'item.official_store_id.invalid',
        message: `official_store_id is required for this seller; allowed official store ids: [${allowed.join(', ')}]`,
      },
    ],
  });
}

function expectNotAllowed(res: ApiResponse, userId: number, os: number): void {
  expect(res.status).toBe(403);
  expect(errorBody(res)).toEqual({ error: 'body.invalid_official_store_id', message: NOT_ALLOWED_MESSAGE(userId, os), status: 403, cause: [] });
}

describe('POST /items: who may list', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("a buyer's account (no seller tag) is refused with 403 before its body is read, and nothing is created", async () => {
    const count = () => (server.db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
    const before = count();
    for (const body of [itemBody(), { nonsense: true }]) {
      const res = await server.as(demo.buyer.token).post('/items', body);
      expect(errorBody(res)).toMatchObject({
        status: 403,
        error: 'forbidden',
        message: `User ${demo.buyer.id} cannot list items: the account is not a seller's`,
      });
    }
    expect(count()).toBe(before);
  });
});

describe('official-store rules of SPEC 7.4 on item listing', () => {
  let server: TestServer;
  let multiWarehouse: ReturnType<typeof addBrandSeller>;
  let singleWarehouse: ReturnType<typeof addBrandSeller>;
  let single: ReturnType<typeof addBrandSeller>;
  let linkedNonBrand: ReturnType<typeof addBrandSeller>;
  let plainSeller: ReturnType<typeof addBrandSeller>;

  const counts = () =>
    server.db
      .prepare(
        `SELECT (SELECT count(*) FROM items) AS items, (SELECT count(*) FROM user_products) AS user_products,
                (SELECT count(*) FROM stock_locations) AS locations, (SELECT coalesce(sum(value), 0) FROM counters) AS counters`,
      )
      .get();
  /** Runs `fn` and asserts that the database holds the same rows afterwards. */
  async function unchanged(fn: () => Promise<void>): Promise<void> {
    const before = counts();
    await fn();
    expect(counts()).toEqual(before);
  }

  beforeAll(async () => {
    const f = demoFixtures();
    multiWarehouse = addBrandSeller(f, { officialStores: 2, warehouse: true });
    singleWarehouse = addBrandSeller(f, { officialStores: 1, warehouse: true });
    single = addBrandSeller(f, { officialStores: 1 });
    linkedNonBrand = addBrandSeller(f, { officialStores: 2, brandUser: false });
    plainSeller = addBrandSeller(f, { officialStores: 0, brandUser: false });
    server = await startTestServer(f);
  });
  afterAll(() => server.close());

  describe('POST /items (ordinary flow)', () => {
    it('creates an item with a selling_address user product holding available_quantity', async () => {
      const res = await server.as(demo.brand.token).post('/items', itemBody({ official_store_id: 4022, condition: 'new' }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        site_id: 'MLA',
        title: 'Zapatillas Aurora Trail',
        seller_id: demo.brand.id,
        category_id: 'MLA109027',
        price: 99999,
        base_price: 99999,
        currency_id: 'ARS',
        listing_type_id: 'gold_pro',
        channels: ['marketplace'],
        official_store_id: 4022,
        available_quantity: 7,
      });
      expect(res.body.id).toMatch(/^MLA\d+$/);
      expect(res.body.user_product_id).toMatch(/^MLAU\d+$/);
      const stock = await server.as(demo.brand.token).get(`/user-products/${res.body.user_product_id}/stock`);
      expect(stock.status).toBe(200);
      expect(stock.body).toEqual({ id: res.body.user_product_id, user_id: demo.brand.id, locations: [{ type: 'selling_address', quantity: 7 }] });
      expect(stock.headers.get('x-version')).toBe('1');
      const item = await server.as(demo.buyer.token).get(`/items/${res.body.id}`);
      expect(item.body).toMatchObject({ id: res.body.id, official_store_id: 4022, available_quantity: 7 });
      const row = server.db.prepare('SELECT logistic_type, local_delivery FROM items WHERE id = ?').get(res.body.id);
      expect(row).toEqual({ logistic_type: 'cross_docking', local_delivery: 0 });
    });

    it('keeps the selling_address stock editable through 4.6 (cross docking, no fulfillment)', async () => {
      const res = await server.as(single.token).post('/items', itemBody({ available_quantity: 0 }));
      expect(res.status).toBe(201);
      const put = await server
        .as(single.token)
        .put(`/user-products/${res.body.user_product_id}/stock/type/selling_address`, { quantity: 12 }, { 'x-version': '1' });
      expect(put.status).toBe(204);
    });

    it('400 validation_error for a brand with several stores that omits official_store_id', async () => {
      await unchanged(async () => {
        expectOfficialStoreRequired(await server.as(demo.brand.token).post('/items', itemBody()), demo.brand.id, [4021, 4022]);
        // null is not "omitted": it is a wrong type
        const nul = await server.as(demo.brand.token).post('/items', itemBody({ official_store_id: null }));
        expect(nul.status).toBe(400);
        expect(errorBody(nul).message).toMatch(/^Invalid body: official_store_id: /);
      });
    });

    it('403 body.invalid_official_store_id for a store the seller is not linked to', async () => {
      await unchanged(async () => {
        expectNotAllowed(await server.as(demo.brand.token).post('/items', itemBody({ official_store_id: 9999 })), demo.brand.id, 9999);
        // another brand's store
        expectNotAllowed(
          await server.as(demo.brand.token).post('/items', itemBody({ official_store_id: single.officialStoreIds[0] })),
          demo.brand.id,
          single.officialStoreIds[0]!,
        );
        // a seller that is not a brand
        expectNotAllowed(await server.as(plainSeller.token).post('/items', itemBody({ official_store_id: 4021 })), plainSeller.id, 4021);
      });
    });

    it('lets a single-store brand omit official_store_id: listed without an official store', async () => {
      const res = await server.as(single.token).post('/items', itemBody());
      expect(res.status).toBe(201);
      expect(res.body).not.toHaveProperty('official_store_id');
      const own = await server.as(single.token).post('/items', itemBody({ official_store_id: single.officialStoreIds[0] }));
      expect(own.status).toBe(201);
      expect(own.body.official_store_id).toBe(single.officialStoreIds[0]);
    });

    it('lets a non-brand user linked to stores omit it or use a linked store', async () => {
      const none = await server.as(linkedNonBrand.token).post('/items', itemBody());
      expect(none.status).toBe(201);
      const linked = await server.as(linkedNonBrand.token).post('/items', itemBody({ official_store_id: linkedNonBrand.officialStoreIds[1] }));
      expect(linked.status).toBe(201);
      expect(linked.body.official_store_id).toBe(linkedNonBrand.officialStoreIds[1]);
      const plain = await server.as(plainSeller.token).post('/items', itemBody());
      expect(plain.status).toBe(201);
      expect(plain.body.seller_id).toBe(plainSeller.id);
    });

    it('rejects available_quantity from a warehouse_management seller (7.1), and points it at /items/multiwarehouse', async () => {
      await unchanged(async () => {
        const res = await server.as(demo.seller.token).post('/items', itemBody());
        expect(res.status).toBe(400);
        expect(errorBody(res)).toEqual({
          error: 'bad_request',
          message: 'The fields [available_quantity] are invalid for requested call',
          status: 400,
          cause: [],
        });
        const multi = await server.as(multiWarehouse.token).post('/items', itemBody({ official_store_id: multiWarehouse.officialStoreIds[0] }));
        expect(errorBody(multi).message).toBe('The fields [available_quantity] are invalid for requested call');
        const without = await server.as(demo.seller.token).post('/items', itemBody({ available_quantity: undefined }));
        expect(without.status).toBe(400);
        expect(errorBody(without).message).toBe('Sellers with warehouse_management list items through POST /items/multiwarehouse with stock_locations');
      });
    });

    it('rejects bad bodies with 4xx in the spec shape and changes nothing', async () => {
      const cases: [unknown, number, string | RegExp][] = [
        [itemBody({ colour: 'red' }), 400, 'The fields [colour] are invalid for requested call'],
        [itemBody({ stock_locations: [] }), 400, 'The fields [stock_locations] are invalid for requested call'],
        [itemBody({ available_quantity: undefined }), 400, 'The fields [available_quantity] are required for requested call'],
        [itemBody({ title: undefined, price: null }), 400, 'The fields [title, price] are required for requested call'],
        [itemBody({ available_quantity: '5' }), 400, /^Invalid body: available_quantity: /],
        [itemBody({ available_quantity: 1.5 }), 400, /^Invalid body: available_quantity: /],
        [itemBody({ available_quantity: -1 }), 400, /^Invalid body: available_quantity: /],
        [itemBody({ available_quantity: 1_000_001 }), 400, /^Invalid body: available_quantity: quantity cannot exceed 1000000/],
        [itemBody({ official_store_id: '4021' }), 400, /^Invalid body: official_store_id: /],
        [itemBody({ official_store_id: 40.5 }), 400, /^Invalid body: official_store_id: /],
        [itemBody({ price: 'cheap' }), 400, /^Invalid body: price: /],
        [itemBody({ channels: ['somewhere'] }), 400, /^Invalid body: channels/],
        [itemBody({ site_id: 'MLB' }), 400, 'Invalid site_id: the seller operates on site MLA'],
        [[itemBody()], 400, 'A JSON body is required'],
        ['just text', 400, 'A JSON body is required'],
      ];
      await unchanged(async () => {
        for (const [body, status, message] of cases) {
          const res = await server.as(demo.brand.token).post('/items', body);
          expect(res.status, JSON.stringify(body)).toBe(status);
          const err = errorBody(res);
          if (typeof message === 'string') expect(err.message).toBe(message);
          else expect(err.message).toMatch(message);
        }
        const broken = await server.as(demo.brand.token).raw('POST', '/items', { raw: '{"title": ', headers: { 'content-type': 'application/json' } });
        expect(broken.status).toBe(400);
        expect(errorBody(broken).message).toBe('The body is not valid JSON');
        const noToken = await server.as(null).post('/items', itemBody({ official_store_id: 4021 }));
        expect(noToken.status).toBe(401);
        const badToken = await server.as('nope').post('/items', itemBody({ official_store_id: 4021 }));
        expect(badToken.status).toBe(401);
      });
    });

    it('creates concurrent listings with distinct ids, a failing one in the same batch rolling back alone', async () => {
      const before = counts();
      const results = await Promise.all([
        ...Array.from({ length: 5 }, (_, i) => server.as(single.token).post('/items', itemBody({ available_quantity: i }))),
        server.as(demo.brand.token).post('/items', itemBody()),
      ]);
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 400]);
      const created = results.slice(0, 5).map((r) => r.body);
      expect(new Set(created.map((b) => b.id)).size).toBe(5);
      expect(new Set(created.map((b) => b.user_product_id)).size).toBe(5);
      expect(created.map((b) => b.available_quantity)).toEqual([0, 1, 2, 3, 4]);
      const after = counts() as { items: number; user_products: number };
      expect(after.items).toBe((before as { items: number }).items + 5);
      expect(after.user_products).toBe((before as { user_products: number }).user_products + 5);
    });

    it('checks fields before the official-store rules: a missing field wins over a missing official_store_id', async () => {
      const res = await server.as(demo.brand.token).post('/items', itemBody({ title: undefined }));
      expect(errorBody(res).message).toBe('The fields [title] are required for requested call');
    });
  });

  describe('POST /items/multiwarehouse', () => {
    it('400 validation_error for a multi-brand warehouse seller that omits official_store_id', async () => {
      await unchanged(async () => {
        const res = await server.as(multiWarehouse.token).post('/items/multiwarehouse', warehouseBody(multiWarehouse.store!));
        expectOfficialStoreRequired(res, multiWarehouse.id, multiWarehouse.officialStoreIds);
      });
    });

    it("creates the item in one of the seller's official stores", async () => {
      const os = multiWarehouse.officialStoreIds[1]!;
      const res = await server.as(multiWarehouse.token).post('/items/multiwarehouse', warehouseBody(multiWarehouse.store!, { official_store_id: os }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        seller_id: multiWarehouse.id,
        official_store_id: os,
        stock_locations: [{ store_id: multiWarehouse.store!.id, quantity: 4, network_node_id: multiWarehouse.store!.network_node_id }],
      });
    });

    it('403 body.invalid_official_store_id for a store the seller is not linked to', async () => {
      await unchanged(async () => {
        expectNotAllowed(
          await server.as(multiWarehouse.token).post('/items/multiwarehouse', warehouseBody(multiWarehouse.store!, { official_store_id: 4021 })),
          multiWarehouse.id,
          4021,
        );
        // a warehouse seller that is not a brand
        const palermo = { id: demo.stores.palermo, network_node_id: 'ARBA01P' };
        expectNotAllowed(
          await server.as(demo.seller.token).post('/items/multiwarehouse', warehouseBody(palermo, { official_store_id: 4022 })),
          demo.seller.id,
          4022,
        );
      });
    });

    it('lets a single-store warehouse brand and a plain warehouse seller omit official_store_id', async () => {
      const res = await server.as(singleWarehouse.token).post('/items/multiwarehouse', warehouseBody(singleWarehouse.store!));
      expect(res.status).toBe(201);
      expect(res.body).not.toHaveProperty('official_store_id');
      const palermo = { id: demo.stores.palermo, network_node_id: 'ARBA01P' };
      const plain = await server.as(demo.seller.token).post('/items/multiwarehouse', warehouseBody(palermo));
      expect(plain.status).toBe(201);
    });

    it('keeps the 7.1 order: store errors come before the official-store rules', async () => {
      await unchanged(async () => {
        const res = await server.as(multiWarehouse.token).post('/items/multiwarehouse', warehouseBody({ id: '99999999', network_node_id: 'X' }));
        expect(res.status).toBe(400);
        expect(errorBody(res).message).toBe('Store not found: 99999999');
        const typed = await server.as(multiWarehouse.token).post('/items/multiwarehouse', warehouseBody(multiWarehouse.store!, { official_store_id: 'abc' }));
        expect(typed.status).toBe(400);
        expect(errorBody(typed).message).toMatch(/^Invalid body: official_store_id: /);
      });
    });
  });
});

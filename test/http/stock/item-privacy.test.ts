import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/fixtures.js';
import { type TestServer, startTestServer } from '../../support/server.js';

/**
 * GET /items/{id} (issue 25): a listing is public, but the seller's own codes are not. Another
 * seller and a buyer see the listing without seller_custom_field, inventory_id and the GTIN and
 * SELLER_SKU attributes; the owner sees them all.
 */
describe('GET /items/{id} shows private fields only to the owner', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('the owner sees its codes', async () => {
    const res = await server.as(demo.seller.token).get(`/items/${demo.items.termo}`);
    expect(res.status).toBe(200);
    const body = res.body as Record<string, unknown>;
    expect(body.seller_custom_field).toBe('NORTE-TERMO-01');
    expect(body.inventory_id).toBe('TERM0001');
    expect(JSON.stringify(body.attributes)).toContain('SELLER_SKU');
  });

  it.each([
    ['another seller', demo.other.token],
    ['a buyer', demo.buyer.token],
  ])('%s sees the listing without them', async (_who, token) => {
    const res = await server.as(token).get(`/items/${demo.items.termo}`);
    expect(res.status).toBe(200);
    const body = res.body as Record<string, unknown>;
    expect(body.title).toBeTruthy();
    expect(body).not.toHaveProperty('seller_custom_field');
    expect(body).not.toHaveProperty('inventory_id');
    const text = JSON.stringify(body);
    for (const secret of ['NORTE-TERMO-01', 'TERM0001', 'TERM-1L', '7790001234565', 'SELLER_SKU', 'GTIN']) expect(text).not.toContain(secret);
  });
});

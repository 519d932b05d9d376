import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadPath, rawMultipart, uploadPath } from '../../support/attachments.js';
import { demo, demoFixtures } from '../../support/fixtures.js';
import { demoOrders } from '../../support/messages.js';
import { manualClock } from '../../support/oauth.js';
import { type TestServer, startTestServer } from '../../support/server.js';
import { goSdk, phpLegacy, phpSdk, send } from './sdk-requests.js';

const UP = demo.userProducts.termo;
const stockPath = `/user-products/${UP}/stock`;
const warehousePath = `${stockPath}/type/seller_warehouse`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const bearer = (path: string, token: string = demo.seller.token) => send(server.url, { method: 'GET', path, headers: { authorization: `Bearer ${token}` } });

describe('the token as the access_token query parameter', () => {
  it('answers what the Bearer header answers, byte for byte, x-version included', async () => {
    const viaHeader = await bearer(stockPath);
    for (const req of [
      goSdk.get(stockPath, demo.seller.token),
      phpSdk.rest('GET', stockPath.slice(1), demo.seller.token),
      phpLegacy.get(stockPath, { access_token: demo.seller.token }),
    ]) {
      const res = await send(server.url, req);
      expect(res.status).toBe(200);
      expect(res.text).toBe(viaHeader.text);
      expect(res.headers['x-version']).toBe(viaHeader.headers['x-version']);
    }
  });

  it('is taken out of the query: strict filters still refuse an unknown parameter, and only that one', async () => {
    const ok = await send(server.url, goSdk.get(`/orders/search?seller=${demo.seller.id}&order.status=paid`, demo.seller.token));
    expect(ok.status).toBe(200);
    expect(ok.json.results.length).toBeGreaterThan(0);
    const unknown = await send(server.url, goSdk.get(`/orders/search?seller=${demo.seller.id}&colour=red`, demo.seller.token));
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('colour');
    expect(unknown.text).not.toContain('access_token');
  });

  it('an unknown token is 401 invalid_token with WWW-Authenticate, as in the header', async () => {
    const res = await send(server.url, goSdk.get('/users/me', 'APP_USR-not-a-token'));
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: 'invalid_token', status: 401, cause: [] });
    expect(res.headers['www-authenticate']).toContain('invalid_token');
  });

  it('with the same token in the header it is fine; a different one, or the parameter twice or empty, is 400', async () => {
    const same = await send(server.url, { ...goSdk.get('/users/me', demo.seller.token), headers: { authorization: `Bearer ${demo.seller.token}` } });
    expect(same.status).toBe(200);
    const other = await send(server.url, { ...goSdk.get('/users/me', demo.buyer.token), headers: { authorization: `Bearer ${demo.seller.token}` } });
    expect(other.status).toBe(400);
    expect(other.json).toMatchObject({ error: 'bad_request', status: 400, cause: [] });
    const twice = await send(server.url, { method: 'GET', path: `/users/me?access_token=${demo.seller.token}&access_token=${demo.seller.token}`, headers: {} });
    expect(twice.status).toBe(400);
    const empty = await send(server.url, { method: 'GET', path: '/users/me?access_token=', headers: {} });
    expect(empty.status).toBe(400);
    expect(empty.json.status).toBe(400);
  });

  it("a send with the token in the query is the token holder; without any token it is still SPEC 5's 400", async () => {
    const path = `/messages/packs/${demoOrders.packed.pack}/sellers/${demo.seller.id}?tag=post_sale&application_id=${demo.app}`;
    const body = { from: { user_id: String(demo.seller.id) }, to: { user_id: String(demo.buyer.id) }, text: 'Enviado hoy por la mañana.' };
    const sent = await send(
      server.url,
      phpLegacy.post(path.split('?')[0]!, body, { tag: 'post_sale', application_id: String(demo.app), access_token: demo.seller.token }),
    );
    expect(sent.status).toBe(201);
    expect(sent.json.from.user_id).toBe(demo.seller.id);
    expect(sent.json.text).toBe('Enviado hoy por la mañana.');
    const anonymous = await send(server.url, { ...phpLegacy.post(path.split('?')[0]!, body, { tag: 'post_sale', application_id: String(demo.app) }) });
    expect(anonymous.status).toBe(400);
    expect(anonymous.json).toMatchObject({ message: 'Access token is required', status: 400 });
  });

  it('the rate limit counts it as the same application as the header', async () => {
    const limited = await startTestServer(demoFixtures(), { rateLimit: { limits: { stock: { requests: 2, per: 'min' } }, clock: manualClock() } });
    try {
      expect((await send(limited.url, goSdk.get(stockPath, demo.seller.token))).status).toBe(200);
      expect((await send(limited.url, { method: 'GET', path: stockPath, headers: { authorization: `Bearer ${demo.seller.token}` } })).status).toBe(200);
      const third = await send(limited.url, phpSdk.rest('GET', stockPath.slice(1), demo.seller.token));
      expect(third.status).toBe(429);
      expect(third.json).toMatchObject({ error: 'local_rate_limited', status: 429 });
    } finally {
      await limited.close();
    }
  });
});

describe('attachments with the token in the query (SPEC 4.12, 4.13)', () => {
  it("a multipart upload with access_token, then the Go SDK's GET downloads the same bytes", async () => {
    const bytes = 'remito 0001-00004521\n';
    const form = rawMultipart([{ disposition: 'form-data; name="file"; filename="remito.txt"', type: 'text/plain', body: bytes }]);
    const up = await send(server.url, {
      method: 'POST',
      path: `${uploadPath('MLA')}&access_token=${demo.seller.token}`,
      headers: { 'content-type': form.contentType },
      body: form.body,
    });
    expect(up.status).toBe(200);
    expect(up.json.id).toMatch(/^[0-9a-f]{32}\.txt$/);
    const down = await send(server.url, goSdk.get(downloadPath(up.json.id), demo.seller.token));
    expect(down.status).toBe(200);
    expect(down.text).toBe(bytes);
  });
});

describe("the Go SDK's PUT: a JSON body without Content-Type", () => {
  it('sets the stock under x-version, then a stale version is 409 and changes nothing', async () => {
    const version = (await bearer(stockPath)).headers['x-version'] as string;
    const body = JSON.stringify({ locations: [{ store_id: demo.stores.palermo, network_node_id: 'ARBA01P', quantity: 21 }] });
    const put = await send(server.url, goSdk.put(warehousePath, body, demo.seller.token, { 'x-version': version }));
    expect(put.status).toBe(200);
    expect(put.json.locations).toContainEqual(expect.objectContaining({ store_id: demo.stores.palermo, quantity: 21 }));
    expect(put.headers['x-version']).toBe(String(BigInt(version) + 1n));
    const stale = await send(server.url, goSdk.put(warehousePath, body.replace('21', '99'), demo.seller.token, { 'x-version': version }));
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ message: 'Version mismatch', status: 409 });
    const after = await bearer(stockPath);
    expect(after.json.locations).toContainEqual(expect.objectContaining({ store_id: demo.stores.palermo, quantity: 21 }));
  });

  it('a body that is not JSON is still a 400 in the spec shape, and a declared wrong type still 415', async () => {
    const garbage = await send(server.url, goSdk.put(warehousePath, 'locations=1', demo.seller.token, { 'x-version': '1' }));
    expect(garbage.status).toBe(400);
    expect(garbage.json.status).toBe(400);
    const text = await send(server.url, goSdk.put(warehousePath, '{}', demo.seller.token, { 'x-version': '1', 'content-type': 'application/xml' }));
    expect(text.status).toBe(415);
    expect(text.json).toMatchObject({ error: 'unsupported_media_type', status: 415 });
  });
});

describe('methods a path does not take, OPTIONS and HEAD', () => {
  it('DELETE of an item is 405 with Allow in the spec shape, and the item is still there', async () => {
    for (const req of [goSdk.delete(`/items/${demo.items.termo}`, demo.seller.token), phpSdk.rest('DELETE', `items/${demo.items.termo}`, demo.seller.token)]) {
      const res = await send(server.url, req);
      expect(res.status).toBe(405);
      expect(res.json).toMatchObject({ error: 'method_not_allowed', status: 405, cause: [] });
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS, PUT');
    }
    expect((await bearer(`/items/${demo.items.termo}`)).status).toBe(200);
  });

  it('OPTIONS names the methods of a path (204, Allow), and is 404 where there is no such path', async () => {
    const put = await send(server.url, phpLegacy.options(warehousePath));
    expect(put.status).toBe(204);
    expect(put.headers.allow).toBe('OPTIONS, PUT');
    expect(put.text).toBe('');
    const post = await send(server.url, phpLegacy.options(`/messages/packs/${demoOrders.packed.pack}/sellers/${demo.seller.id}`));
    expect(post.headers.allow).toBe('GET, HEAD, OPTIONS, POST');
    const none = await send(server.url, phpLegacy.options('/sites/MLA/categories'));
    expect(none.status).toBe(404);
    expect(none.json).toMatchObject({ error: 'not_found', status: 404, cause: [] });
  });

  it('HEAD of the stock answers x-version without a body; paths outside the spec are 404 in its shape, never HTML', async () => {
    const head = await send(server.url, { method: 'HEAD', path: stockPath, headers: { authorization: `Bearer ${demo.seller.token}` } });
    expect(head.status).toBe(200);
    expect(head.headers['x-version']).toBe((await bearer(stockPath)).headers['x-version']);
    expect(head.text).toBe('');
    for (const path of ['/sites', `/users/${demo.seller.id}/addresses`, '/categories/MLA1912', `/items/${demo.items.termo}/health`]) {
      const res = await send(server.url, goSdk.get(path, demo.seller.token));
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json).toMatchObject({ error: 'not_found', status: 404, cause: [] });
    }
  });

  it('a trailing slash reaches the same route', async () => {
    const res = await send(server.url, goSdk.get(`/users/${demo.seller.id}/stores/search/?tags=stock_location`, demo.seller.token));
    expect(res.status).toBe(200);
    expect(res.json.results.length).toBeGreaterThan(0);
  });
});

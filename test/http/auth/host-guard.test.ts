import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPkce } from '../../../main/sync/auth/pkce.js';
import { demo } from '../../support/fixtures.js';
import { BROWSER_ACCEPT, authorizationUrl } from '../../support/oauth.js';
import { type TestServer, startTestServer } from '../../support/server.js';

/**
 * DNS rebinding (issue 25): a page on rebind.example whose name is made to resolve to 127.0.0.1
 * reaches the API as same-origin; its requests carry `Host: rebind.example`. The sign-in page and
 * the token endpoint answer only a Host that is an address or localhost (or a configured name),
 * as the bridge does; other names get 421 in the spec's shape.
 */
function raw(port: number, method: string, path: string, host: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host, accept: BROWSER_ACCEPT };
    if (body !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the API answers sign-in and tokens only under its own Host', () => {
  let server: TestServer;
  let named: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    named = await startTestServer(undefined, { allowedHosts: ['market.lan'] });
  });
  afterAll(async () => {
    await server.close();
    await named.close();
  });

  const page = () =>
    new URL(authorizationUrl('http://x', { clientId: demo.app, redirectUri: 'http://127.0.0.1:50100/callback', challenge: createPkce().challenge }));
  const path = () => page().pathname + page().search;

  it('refuses another name with 421 on GET and POST /authorization and POST /oauth/token', async () => {
    for (const [method, p, body] of [
      ['GET', path(), undefined],
      ['POST', '/authorization', 'csrf=a&request=b&decision=approve&username=x&password=y'],
      ['POST', '/oauth/token', 'grant_type=client_credentials'],
    ] as const) {
      for (const host of [`rebind.example:${server.port}`, 'rebind.example', `127.0.0.1.rebind.example:${server.port}`, `localhost.rebind.example`]) {
        const res = await raw(server.port, method, p, host, body);
        expect(res.status, `${method} ${p} ${host}`).toBe(421);
        expect(JSON.parse(res.body)).toEqual({ error: 'wrong_host', message: expect.stringContaining('address') as unknown, status: 421, cause: [] });
      }
    }
  });

  it('answers its addresses and localhost, and a configured name', async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `[::1]:${server.port}`, `192.168.0.10:${server.port}`, 'LOCALHOST']) {
      expect((await raw(server.port, 'GET', path(), host)).status, host).toBe(200);
    }
    expect((await raw(named.port, 'GET', path(), `market.lan:${named.port}`)).status).toBe(200);
    expect((await raw(named.port, 'GET', path(), `other.lan:${named.port}`)).status).toBe(421);
  });

  it('leaves the rest of the API alone (it needs a bearer token a rebinding page does not have)', async () => {
    const res = await raw(server.port, 'GET', `/users/${demo.seller.id}`, 'rebind.example');
    expect(res.status).toBe(401);
  });
});

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { openCore, value } from './helpers.js';

/**
 * A pasted token is bound to the marketplace address it was pasted for (issue 25): changing only
 * the address in the settings sent the token to the new address. A real loopback server plays the
 * new address and records every request's headers: it must never see the token.
 */
describe('a pasted token never reaches another address', () => {
  let remote: TestServer;
  const seen: IncomingHttpHeaders[] = [];
  const other = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_token","message":"no","status":401,"cause":[]}');
  });
  let otherUrl = '';
  beforeAll(async () => {
    remote = await startTestServer();
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => other.close(() => r()));
    await remote.close();
  });

  it('changing only the address opens it signed out; the old token is not sent there', async () => {
    const c = await openCore();
    try {
      const api = c.core.api;
      value(
        await api.settings.update({ baseUrl: remote.url, applicationId: demo.app, userId: demo.seller.id, accessToken: demo.seller.token, mode: 'online' }),
      );
      expect(value(await api.session.status())).toMatchObject({ signedIn: true, via: 'token' });

      // Only the address changes: the replica there opens signed out, asking for a token or a sign-in.
      expect(value(await api.settings.update({ baseUrl: otherUrl }))).toMatchObject({ baseUrl: otherUrl, hasAccessToken: false });
      expect(value(await api.session.status())).toMatchObject({ signedIn: false });
      await api.sync.pullNow();
      expect(seen.map((h) => h.authorization).filter((a) => a?.includes(demo.seller.token))).toEqual([]);
      // Back on its own address, the token works again.
      expect(value(await api.settings.update({ baseUrl: remote.url }))).toMatchObject({ hasAccessToken: true });
      expect(value(await api.session.status())).toMatchObject({ signedIn: true, via: 'token' });
    } finally {
      await c.close();
    }
  });
});

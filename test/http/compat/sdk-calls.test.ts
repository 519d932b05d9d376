import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/fixtures.js';
import { type TestServer, startTestServer } from '../../support/server.js';
import { type CallContext, sdkCalls } from './catalog.js';
import { send } from './sdk-requests.js';

let server: TestServer;
let ctx: CallContext;
beforeAll(async () => {
  server = await startTestServer();
  ctx = {
    token: demo.seller.token,
    brandToken: demo.brand.token,
    async version(up) {
      const res = await server.as(demo.seller.token).get(`/user-products/${up}/stock`);
      return res.headers.get('x-version') ?? '';
    },
  };
});
afterAll(() => server.close());

describe('every call of the public SDKs, as they send it (docs/compatibility.md)', () => {
  for (const call of sdkCalls()) {
    it(`${call.id}: ${call.name} → ${call.status}`, async () => {
      const res = await send(server.url, await call.request(ctx));
      if (process.env.COMPAT_PROBE) console.log(`PROBE ${call.id} ${res.status} ${res.text.slice(0, 160)}`);
      expect(res.status).toBe(call.status);
    });
  }
});

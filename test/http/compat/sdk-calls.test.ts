import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, demoFixtures } from '../../support/fixtures.js';
import { type TestServer, startTestServer } from '../../support/server.js';
import { type CallContext, PLAIN_SELLER, sdkCalls } from './catalog.js';
import { send } from './sdk-requests.js';

let server: TestServer;
let ctx: CallContext;
beforeAll(async () => {
  // The demo's sellers are multi-warehouse or brands; the SDKs' ordinary listing needs a plain seller.
  const fixtures = demoFixtures();
  fixtures.users = [
    ...(fixtures.users ?? []),
    {
      id: PLAIN_SELLER.id,
      nickname: 'VENDEDOR_SIMPLE',
      registration_date: '2021-03-01T10:00:00.000-03:00',
      first_name: 'Ana',
      last_name: 'Gómez',
      gender: '',
      country_id: 'AR',
      site_id: 'MLA',
      tags: ['normal', 'user_product_seller'],
    },
  ];
  fixtures.tokens = [...(fixtures.tokens ?? []), { access_token: PLAIN_SELLER.token, user_id: PLAIN_SELLER.id, application_id: demo.app }];
  server = await startTestServer(fixtures);
  ctx = {
    token: demo.seller.token,
    brandToken: demo.brand.token,
    plainToken: PLAIN_SELLER.token,
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

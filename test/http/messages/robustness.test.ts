import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/fixtures.js';
import { demoOrders, extraOrders, messagingFixtures, packPath, sendPath } from '../../support/messages.js';
import { type TestServer, errorBody, startTestServer } from '../../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(messagingFixtures());
});
afterAll(() => server.close());

const count = () => (server.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
const snapshot = () => JSON.stringify(server.db.prepare('SELECT * FROM messages ORDER BY id').all());

describe('bad input to the messages endpoints never 500s and a refused send stores nothing', () => {
  it('property: any JSON body to the send is 201 or 4xx in the spec shape; a 4xx stores nothing', async () => {
    const userId = fc.oneof(
      fc.constantFrom(String(demo.seller.id), String(demo.buyer.id), String(demo.other.id), '0', '', '-1', 'abc'),
      fc.constantFrom(demo.seller.id, demo.buyer.id, 0, -1, 1.5),
      fc.constant(null),
      fc.anything(),
    );
    const party = fc.record(
      {
        user_id: userId,
        email: fc.oneof(fc.constant('x.y@mail.mercadolibre.com'), fc.emailAddress(), fc.anything()),
        resource: fc.oneof(fc.constant('orders'), fc.string(), fc.anything()),
        resource_id: fc.oneof(fc.constant(demoOrders.packed.id), fc.anything()),
        site_id: fc.oneof(fc.constantFrom('MLA', 'MLB', 'mla'), fc.anything()),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc.record(
        {
          from: fc.oneof(party, fc.anything()),
          to: fc.oneof(party, fc.anything()),
          text: fc.oneof(fc.string({ maxLength: 400 }), fc.string({ unit: 'binary', maxLength: 50 }), fc.anything()),
          attachments: fc.oneof(fc.array(fc.string(), { maxLength: 30 }), fc.anything()),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    );
    const pack = fc.constantFrom(demoOrders.packed.pack, demoOrders.cancelled.pack, extraOrders.mediationMlb.pack, demoOrders.fulfillment.pack, 42);
    const token = fc.constantFrom(demo.seller.token, demo.buyer.token, demo.other.token);
    await fc.assert(
      fc.asyncProperty(body, pack, token, async (b, p, t) => {
        const before = count();
        const res = await server.as(t).raw('POST', sendPath(p), { raw: JSON.stringify(b) ?? 'null', headers: { 'content-type': 'application/json' } });
        if (res.status === 201) {
          expect(count()).toBe(before + 1);
          return;
        }
        const err = errorBody(res);
        expect(err.status).toBeGreaterThanOrEqual(400);
        expect(err.status).toBeLessThan(500);
        expect(count()).toBe(before);
      }),
      { numRuns: 200 },
    );
  });

  it('odd paths and queries on the reads are 4xx, never 500, and change nothing', async () => {
    const before = snapshot();
    const seller = server.as(demo.seller.token);
    const paths = [
      packPath('%00'),
      packPath('1'.repeat(30)),
      packPath(demoOrders.packed.pack, '%F0%9F%91%8D'),
      `${packPath(demoOrders.packed.pack)}?offset=${'9'.repeat(400)}`,
      `${packPath(demoOrders.packed.pack)}?mark_as_read=true&mark_as_read=false`,
      `/messages/${'a'.repeat(190)}`,
      '/orders/%2e%2e',
    ];
    for (const path of paths) {
      const res = await seller.get(path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      errorBody(res);
    }
    expect(snapshot()).toBe(before);
  });
});

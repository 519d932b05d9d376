import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/fixtures.js';
import { demoOrders, extraOrders, messagingFixtures } from '../../support/messages.js';
import { type TestServer, errorBody, startTestServer } from '../../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(messagingFixtures());
});
afterAll(() => server.close());

describe('GET /orders/{id}', () => {
  it('answers the seller and the buyer with pack_id and the parties', async () => {
    for (const token of [demo.seller.token, demo.buyer.token]) {
      const res = await server.as(token).get(`/orders/${demoOrders.packed.id}`);
      expect(res.status).toBe(200);
      // The marketplace's order fields are test/http/orders.test.ts's; these are the messaging ones.
      expect(res.body).toMatchObject({
        id: demoOrders.packed.id,
        pack_id: demoOrders.packed.pack,
        status: 'paid',
        status_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        site_id: 'MLA',
        seller: { id: demo.seller.id },
        buyer: { id: demo.buyer.id, nickname: 'COMPRADOR_TEST' },
        logistic_type: 'cross_docking',
        delivered: false,
        mediation_in_process: false,
      });
    }
  });

  it('an order without a pack has pack_id null; the flags of the fixture are kept', async () => {
    const res = await server.as(demo.buyer.token).get(`/orders/${demoOrders.fulfillment.id}`);
    expect(res.body).toMatchObject({ pack_id: null, logistic_type: 'fulfillment', delivered: false, status: 'paid' });
    const mediation = await server.as(demo.buyer.token).get(`/orders/${extraOrders.mediationMlb.id}`);
    expect(mediation.body).toMatchObject({ site_id: 'MLB', mediation_in_process: true });
    const cancelled = await server.as(demo.seller.token).get(`/orders/${demoOrders.cancelled.id}`);
    expect(cancelled.body.status).toBe('cancelled');
  });

  it('every order of a pack carries the pack id', async () => {
    for (const id of [extraOrders.twoOrders.id, extraOrders.twoOrders.second]) {
      const res = await server.as(demo.seller.token).get(`/orders/${id}`);
      expect(res.body.pack_id).toBe(extraOrders.twoOrders.pack);
    }
  });

  it('403 "User access token invalid for resource" for a user outside the order', async () => {
    const res = await server.as(demo.other.token).get(`/orders/${demoOrders.packed.id}`);
    expect(res.status).toBe(403);
    expect(errorBody(res).message).toBe(`User access token invalid for resource ${demoOrders.packed.id}`);
  });

  it('404 for an unknown order, 400 for a malformed id, 401 without a token', async () => {
    const unknown = await server.as(demo.seller.token).get('/orders/123');
    expect(unknown.status).toBe(404);
    expect(errorBody(unknown).message).toBe('Order 123 not found');
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999', '0123']) {
      const res = await server.as(demo.seller.token).get(`/orders/${bad}`);
      expect(res.status, bad).toBe(400);
      expect(errorBody(res).message).toMatch(/^Invalid order id/);
    }
    const anonymous = await server.as(null).get(`/orders/${demoOrders.packed.id}`);
    expect(anonymous.status).toBe(401);
    errorBody(anonymous);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversationOrders } from '../../main/desktop/conversation-orders.js';
import { inboxReader } from '../../main/desktop/inbox.js';
import { messagesRepo } from '../../main/db/repos/messages.js';
import { ordersRepo } from '../../main/db/repos/orders.js';
import { marketplaceOrders } from '../../main/service/orders/order-view.js';
import type { SyncEngine } from '../../main/sync/engine.js';
import { demo } from '../support/fixtures.js';
import { demoOrders } from '../support/messages.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { type Replica, newEngine, newReplica } from '../support/sync-harness.js';

/**
 * Issue 15 §1 online: the pull mirrors each order's lines, amount, date and shipment from a real
 * remote (GET /orders/search), so the replica answers the same order as the marketplace and the
 * inbox shows the buyer's name and the product.
 */
let server: TestServer;
let replica: Replica;
let engine: SyncEngine;

beforeEach(async () => {
  server = await startTestServer();
  replica = newReplica();
  engine = newEngine(replica, { url: server.url, token: demo.seller.token, sellerId: demo.seller.id });
  engine.start();
});
afterEach(async () => {
  await engine.stop();
  await server.close();
  replica.remove();
});

describe('orders in the replica', () => {
  it('arrive with the pull: the mirror answers every order exactly as the remote does', async () => {
    expect(ordersRepo(replica.db).itemsOf([demoOrders.packed.id])).toEqual([]);
    const report = await engine.pullNow();
    expect(report.orders).toBe(5);
    const remote = await server.as(demo.seller.token).get(`/orders/search?seller=${demo.seller.id}`);
    const ids = (remote.body as { results: { id: number }[] }).results.map((o) => o.id);
    expect(marketplaceOrders(ordersRepo(replica.db), ids)).toEqual((remote.body as { results: unknown[] }).results);
  });

  it('the inbox reads the buyer’s name, the product and the order panel from the mirror', async () => {
    await engine.pullNow();
    const inbox = inboxReader(replica.db, 'MLB', messagesRepo(replica.db));
    const { conversations } = inbox.conversations(demo.seller.id, { filter: 'all', limit: 50, offset: 0 });
    const packed = conversations.find((c) => c.packId === demoOrders.packed.pack)!;
    expect(packed.buyer).toEqual({ id: demo.buyer.id, nickname: 'COMPRADOR_TEST', firstName: 'Martín', lastName: 'Gómez' });
    expect(packed.product).toBe('Termo acero inoxidable 1L');
    expect(packed.orders).toEqual([
      {
        id: demoOrders.packed.id,
        status: 'paid',
        dateCreated: '2026-11-18T12:40:00.000Z',
        totalAmount: 45999,
        currencyId: 'ARS',
        items: [{ itemId: demo.items.termo, title: 'Termo acero inoxidable 1L', quantity: 1, unitPrice: 45999, currencyId: 'ARS', picture: null }],
        shipping: { id: 43000000001, logisticType: 'cross_docking', delivered: false },
      },
    ]);
    expect(conversationOrders(replica.db)(demoOrders.cancelled.pack).orders?.[0]).toMatchObject({ status: 'cancelled', shipping: { id: null } });
  });

  it('a picture the marketplace gives the item reaches the panel: GET /items/{id} carries it and the pull mirrors it', async () => {
    // The item as it was listed: the publishing flow's `pictures: [{ source }]`.
    server.db
      .prepare('UPDATE items SET attributes = ? WHERE id = ?')
      .run(JSON.stringify({ pictures: [{ source: 'https://img.example.com/termo.jpg' }] }), demo.items.termo);
    const remote = await server.as(demo.seller.token).get(`/items/${demo.items.termo}`);
    expect(remote.body).toMatchObject({
      pictures: [{ url: 'https://img.example.com/termo.jpg', secure_url: 'https://img.example.com/termo.jpg' }],
      thumbnail: 'https://img.example.com/termo.jpg',
    });
    await engine.pullNow();
    expect(conversationOrders(replica.db)(demoOrders.packed.pack).orders?.[0]?.items[0]?.picture).toBe('https://img.example.com/termo.jpg');
  });
});

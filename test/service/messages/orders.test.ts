import { describe, expect, it } from 'vitest';
import type { OrderRow } from '../../../main/db/repos/messages.js';
import { type Pack, blockError, conversationStatus, roleIn, sendBlock } from '../../../main/service/messages/orders.js';

const order = (o: Partial<OrderRow> = {}): OrderRow => ({
  id: 1,
  pack_id: null,
  seller_id: 10,
  buyer_id: 20,
  site_id: 'MLA',
  status: 'paid',
  logistic_type: 'cross_docking',
  delivered: 1,
  mediation_in_process: 0,
  status_date: '2026-11-01T00:00:00.000Z',
  ...o,
});
const pack = (...orders: OrderRow[]): Pack => ({ key: 1, orders, sellerId: 10, buyerId: 20, siteId: orders[0]!.site_id, orderId: orders[0]!.id });

describe('sendBlock', () => {
  it('cancelled beats mediation beats fulfillment', () => {
    const all = order({ site_id: 'MLB', status: 'cancelled', mediation_in_process: 1, logistic_type: 'fulfillment', delivered: 0 });
    expect(sendBlock(pack(all), 'seller', 'MLB')).toBe('blocked_by_cancelled_order');
    expect(sendBlock(pack({ ...all, status: 'paid' }), 'seller', 'MLB')).toBe('blocked_by_mediation');
    expect(sendBlock(pack({ ...all, status: 'paid' }), 'seller', 'MLA')).toBe('blocked_by_fulfillment');
    expect(sendBlock(pack({ ...all, status: 'paid' }), 'buyer', 'MLA')).toBeNull();
  });

  it('a pack is blocked as cancelled only when every order is cancelled', () => {
    expect(sendBlock(pack(order({ status: 'cancelled' }), order({ id: 2 })), 'buyer', 'MLB')).toBeNull();
    expect(sendBlock(pack(order({ status: 'cancelled' }), order({ id: 2, status: 'cancelled' })), 'buyer', 'MLB')).toBe('blocked_by_cancelled_order');
  });

  it('fulfillment blocks only while not delivered', () => {
    expect(sendBlock(pack(order({ logistic_type: 'fulfillment', delivered: 1 })), 'seller', 'MLB')).toBeNull();
  });

  it('each reason has its error row', () => {
    expect(blockError('blocked_by_cancelled_order').toBody()).toEqual({
      error: 'conversation_blocked',
      message: 'blocked_conversation_send_message_forbidden',
      status: 403,
      cause: ['blocked_by_cancelled_order'],
    });
    expect(blockError('blocked_by_mediation').status).toBe(403);
    expect(blockError('blocked_by_fulfillment').message).toBe(
      'You can not send the message because the purchase is (platform fulfillment) and has not been yet delivered',
    );
  });
});

describe('conversationStatus', () => {
  it('active, or blocked with the reader’s reason; the latest status date of the orders', () => {
    const p = pack(
      order({ status_date: '2026-11-01T00:00:00.000Z', logistic_type: 'fulfillment', delivered: 0 }),
      order({ id: 2, status_date: '2026-11-05T00:00:00.000Z' }),
    );
    expect(conversationStatus(p, 'buyer', 'MLB')).toEqual({
      path: '/packs/1/sellers/10',
      status: 'active',
      substatus: null,
      status_date: '2026-11-05T00:00:00.000Z',
      status_update_allowed: false,
      claim_id: null,
      shipping_id: null,
    });
    expect(conversationStatus(p, 'seller', 'MLB')).toMatchObject({ status: 'blocked', substatus: 'blocked_by_fulfillment' });
  });

  it('roleIn', () => {
    expect(roleIn({ sellerId: 10, buyerId: 20 }, 10)).toBe('seller');
    expect(roleIn({ sellerId: 10, buyerId: 20 }, 20)).toBe('buyer');
    expect(roleIn({ sellerId: 10, buyerId: 20 }, 30)).toBeNull();
  });
});

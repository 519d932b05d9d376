import type { FixtureFile } from '../../main/fixtures/schema.js';
import type { Client } from './server.js';
import { demo, demoFixtures } from './fixtures.js';

type OrderFixture = NonNullable<FixtureFile['orders']>[number];
type MessageFixture = NonNullable<FixtureFile['messages']>[number];

/** The demo orders and messages (main/fixtures/demo.json), named for what they exercise. */
export const demoOrders = {
  /** In pack 2000003000001, paid, cross docking; 3 messages (buyer clean, seller clean, buyer rejected). */
  packed: { id: 2000009000001, pack: 2000003000001 },
  /** No pack (addressed by its order id), delivered self service; one non_moderated buyer message of 2024. */
  delivered: { id: 2000009000002, pack: 2000009000002 },
  /** Cancelled: sending is blocked (conversation_blocked). */
  cancelled: { id: 2000009000003, pack: 2000009000003 },
  /** Platform fulfillment, not delivered: the seller cannot send, the buyer can. */
  fulfillment: { id: 2000009000004, pack: 2000009000004 },
  /** Mediation in process on MLA: not blocked with the default mediation site (MLB). */
  mediationMla: { id: 2000009000005, pack: 2000009000005 },
} as const;

export const demoMessages = {
  buyerQuestion: '0a1b2c3d4e5f40718293a4b5c6d7e8f9',
  sellerAnswer: '1a1b2c3d4e5f40718293a4b5c6d7e8f9',
  buyerRejected: '2a1b2c3d4e5f40718293a4b5c6d7e8f9',
  buyerNonModerated: '3a1b2c3d4e5f40718293a4b5c6d7e8f9',
} as const;

/** Extra conversations added by messagingFixtures(). */
export const extraOrders = {
  /** MLB, paid, mediation in process: blocked with the default mediation site. */
  mediationMlb: { id: 3000009000001, pack: 3000009000001 },
  /** A pack of two orders (3000009000002 and 3000009000003). */
  twoOrders: { id: 3000009000002, second: 3000009000003, pack: 3000003000001 },
  /** MLB, paid, delivered, no mediation: a plain MLB conversation. */
  plainMlb: { id: 3000009000004, pack: 3000009000004 },
  /** Seller "other" with the demo buyer: the demo seller is a stranger here. */
  otherSeller: { id: 3000009000005, pack: 3000009000005 },
  /** Every order of the pack is cancelled except one: still active. */
  partlyCancelled: { id: 3000009000006, second: 3000009000007, pack: 3000003000002 },
  /** A fresh conversation without messages (paid, cross docking, MLA). */
  empty: { id: 3000009000008, pack: 3000009000008 },
  /** MLB, cancelled, in mediation, fulfillment not delivered: every block at once (cancelled wins). */
  everyBlock: { id: 3000009000009, pack: 3000009000009 },
  /** MLB, in mediation, fulfillment not delivered: mediation wins over fulfillment. */
  mediationFulfillment: { id: 3000009000010, pack: 3000009000010 },
} as const;

export function orderFixture(o: Partial<OrderFixture> & { id: number }): OrderFixture {
  return {
    pack_id: null,
    seller_id: demo.seller.id,
    buyer_id: demo.buyer.id,
    site_id: 'MLA',
    status: 'paid',
    logistic_type: 'cross_docking',
    delivered: true,
    mediation_in_process: false,
    ...o,
  };
}

export function messageFixture(m: Partial<MessageFixture> & { id: string; order_id: number }): MessageFixture {
  return {
    from_user_id: demo.buyer.id,
    to_user_id: demo.seller.id,
    text: 'Hola',
    date_created: '2026-11-18T10:00:00Z',
    moderation: { status: 'clean', source: 'online', date: '2026-11-18T10:00:01Z' },
    ...m,
  };
}

/** The demo marketplace plus the conversations of `extraOrders`, and anything passed in. */
export function messagingFixtures(extra: { orders?: OrderFixture[]; messages?: MessageFixture[] } = {}): FixtureFile {
  const f = demoFixtures();
  f.orders = [
    ...(f.orders ?? []),
    orderFixture({ id: extraOrders.mediationMlb.id, site_id: 'MLB', mediation_in_process: true }),
    orderFixture({ id: extraOrders.twoOrders.id, pack_id: extraOrders.twoOrders.pack }),
    orderFixture({ id: extraOrders.twoOrders.second, pack_id: extraOrders.twoOrders.pack }),
    orderFixture({ id: extraOrders.plainMlb.id, site_id: 'MLB' }),
    orderFixture({ id: extraOrders.otherSeller.id, seller_id: demo.other.id }),
    orderFixture({ id: extraOrders.partlyCancelled.id, pack_id: extraOrders.partlyCancelled.pack, status: 'cancelled' }),
    orderFixture({ id: extraOrders.partlyCancelled.second, pack_id: extraOrders.partlyCancelled.pack }),
    orderFixture({ id: extraOrders.empty.id, delivered: false }),
    orderFixture({
      id: extraOrders.everyBlock.id,
      site_id: 'MLB',
      status: 'cancelled',
      mediation_in_process: true,
      logistic_type: 'fulfillment',
      delivered: false,
    }),
    orderFixture({ id: extraOrders.mediationFulfillment.id, site_id: 'MLB', mediation_in_process: true, logistic_type: 'fulfillment', delivered: false }),
    ...(extra.orders ?? []),
  ];
  f.messages = [...(f.messages ?? []), ...(extra.messages ?? [])];
  return f;
}

/** A 32-hex message id from a small number (for fixtures). */
export const messageId = (n: number) => n.toString(16).padStart(32, '0');

/** A controllable clock for `startTestServer(fixtures, { clock })`. */
export function manualClock(start: string | number = '2026-11-20T12:00:00.000Z') {
  let t = typeof start === 'string' ? Date.parse(start) : start;
  return {
    now: () => t,
    set: (at: string | number) => void (t = typeof at === 'string' ? Date.parse(at) : at),
    advance: (ms: number) => void (t += ms),
    iso: () => new Date(t).toISOString(),
  };
}

export const packPath = (pack: number | string, seller: number | string = demo.seller.id) => `/messages/packs/${pack}/sellers/${seller}`;

/** The send path with `tag=post_sale` and the demo application id (omit it with `app: null`). */
export function sendPath(pack: number | string, opts: { seller?: number | string; app?: number | string | null } = {}): string {
  const app = opts.app === undefined ? demo.app : opts.app;
  return `${packPath(pack, opts.seller ?? demo.seller.id)}?tag=post_sale${app === null ? '' : `&application_id=${app}`}`;
}

/** A send body from `from` to `to` (user ids as strings, as the spec types them). */
export const sendBody = (from: number, to: number, text: string, more: Record<string, unknown> = {}) => ({
  from: { user_id: String(from) },
  to: { user_id: String(to) },
  text,
  ...more,
});

/** Seller → buyer in `pack`. */
export const sellerSends = (seller: Client, pack: number, text: string, more: Record<string, unknown> = {}) =>
  seller.post(sendPath(pack), sendBody(demo.seller.id, demo.buyer.id, text, more));

/** Buyer → seller in `pack`. */
export const buyerSends = (buyer: Client, pack: number, text: string, more: Record<string, unknown> = {}) =>
  buyer.post(sendPath(pack), sendBody(demo.buyer.id, demo.seller.id, text, more));

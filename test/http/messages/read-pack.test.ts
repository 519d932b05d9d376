import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUYER_MAX_MESSAGE_LENGTH, SELLER_MAX_MESSAGE_LENGTH } from '../../../common/messages/text-rules.js';
import { demo } from '../../support/fixtures.js';
import { demoMessages, demoOrders, extraOrders, manualClock, messageFixture, messageId, messagingFixtures, packPath } from '../../support/messages.js';
import { type TestServer, errorBody, startTestServer } from '../../support/server.js';

/** A pending buyer message (moderation in process) in the demo pack. */
const pendingId = messageId(0xa1);
const fixtures = () =>
  messagingFixtures({
    messages: [
      messageFixture({
        id: pendingId,
        order_id: demoOrders.packed.id,
        text: 'Te mando la foto del problema',
        date_created: '2026-11-18T15:00:00Z',
        moderation: { status: 'pending' },
      }),
    ],
  });
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer(fixtures());
});
afterEach(() => server.close());

const seller = () => server.as(demo.seller.token);
const buyer = () => server.as(demo.buyer.token);
const ids = (body: { messages: { id: string }[] }) => body.messages.map((m) => m.id);
const row = (id: string) =>
  server.db.prepare('SELECT date_read, date_notified, moderation_status FROM messages WHERE id = ?').get(id) as {
    date_read: string | null;
    date_notified: string | null;
    moderation_status: string;
  };
const snapshot = () => JSON.stringify(server.db.prepare('SELECT * FROM messages ORDER BY id').all());

describe('GET /messages/packs/{pack_id}/sellers/{user_id} (SPEC 4.9)', () => {
  it('answers the Message list: paging, conversation_status, messages newest first, the two limits', async () => {
    const res = await seller().get(packPath(demoOrders.packed.pack));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['paging', 'conversation_status', 'messages', 'seller_max_message_length', 'buyer_max_message_length']);
    expect(res.body.paging).toEqual({ limit: 10, offset: 0, total: 2 });
    expect(res.body.seller_max_message_length).toBe(SELLER_MAX_MESSAGE_LENGTH);
    expect(res.body.buyer_max_message_length).toBe(BUYER_MAX_MESSAGE_LENGTH);
    expect(SELLER_MAX_MESSAGE_LENGTH).toBe(350);
    expect(BUYER_MAX_MESSAGE_LENGTH).toBe(3500);
    expect(ids(res.body)).toEqual([demoMessages.sellerAnswer, demoMessages.buyerQuestion]);
    expect(res.body.conversation_status).toEqual({
      path: `/packs/${demoOrders.packed.pack}/sellers/${demo.seller.id}`,
      status: 'active',
      substatus: null,
      status_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      status_update_allowed: false,
      claim_id: null,
      shipping_id: null,
    });
  });

  it('each message has the current shape (SPEC 2.8) with its resources and the first-message flag', async () => {
    const res = await buyer().get(`${packPath(demoOrders.packed.pack)}?mark_as_read=false`);
    const question = res.body.messages.find((m: { id: string }) => m.id === demoMessages.buyerQuestion);
    expect(question).toEqual({
      id: demoMessages.buyerQuestion,
      site_id: 'MLA',
      client_id: demo.app,
      from: { user_id: demo.buyer.id },
      to: { user_id: demo.seller.id },
      status: 'available',
      subject: null,
      text: 'Hola, ¿me confirmás si el termo viene con funda?',
      message_date: {
        received: '2026-11-18T13:05:00.000Z',
        available: '2026-11-18T13:05:01.000Z',
        notified: null,
        created: '2026-11-18T13:05:00.000Z',
        read: null,
      },
      message_moderation: { status: 'clean', reason: null, source: 'online', moderation_date: '2026-11-18T13:05:01.000Z' },
      message_attachments: null,
      message_resources: [
        { id: String(demoOrders.packed.pack), name: 'packs' },
        { id: String(demo.seller.id), name: 'sellers' },
      ],
      conversation_first_message: true,
    });
    expect(res.body.messages.filter((m: { conversation_first_message: boolean }) => m.conversation_first_message)).toHaveLength(1);
  });

  it('the counterparty does not see rejected or pending messages, nor count them; the sender sees its own with their moderation', async () => {
    const bySeller = await seller().get(packPath(demoOrders.packed.pack));
    expect(ids(bySeller.body)).not.toContain(demoMessages.buyerRejected);
    expect(ids(bySeller.body)).not.toContain(pendingId);
    expect(bySeller.body.paging.total).toBe(2);

    const byBuyer = await buyer().get(packPath(demoOrders.packed.pack));
    expect(byBuyer.body.paging.total).toBe(4);
    expect(ids(byBuyer.body)).toEqual([pendingId, demoMessages.buyerRejected, demoMessages.sellerAnswer, demoMessages.buyerQuestion]);
    const [pending, rejected] = byBuyer.body.messages;
    expect(pending.message_moderation).toEqual({ status: 'pending', reason: null, source: 'online', moderation_date: null });
    expect(pending.message_date.available).toBeNull();
    expect(rejected.message_moderation).toEqual({
      status: 'rejected',
      reason: 'PERSONAL_DATA',
      source: 'online',
      moderation_date: '2026-11-18T14:00:02.000Z',
    });
    expect(rejected.message_date.available).toBeNull();
  });

  it('a pack without pack_id is addressed by its order id; non_moderated messages are visible', async () => {
    const res = await seller().get(packPath(demoOrders.delivered.pack));
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([demoMessages.buyerNonModerated]);
    expect(res.body.messages[0].message_moderation).toEqual({ status: 'non_moderated', reason: null, source: null, moderation_date: null });
    expect(res.body.messages[0].message_date.available).toBe('2024-01-05T10:00:00.000Z');
    expect(res.body.messages[0].message_resources[0]).toEqual({ id: String(demoOrders.delivered.id), name: 'packs' });
  });

  it('an order id of an order that belongs to a pack is not a pack path (404)', async () => {
    const res = await seller().get(packPath(demoOrders.packed.id));
    expect(res.status).toBe(404);
    expect(errorBody(res).message).toBe(`Pack ${demoOrders.packed.id} not found`);
  });

  it('a conversation without messages is an empty page', async () => {
    const res = await buyer().get(packPath(extraOrders.empty.pack));
    expect(res.body.paging).toEqual({ limit: 10, offset: 0, total: 0 });
    expect(res.body.messages).toEqual([]);
  });
});

describe('paging (limit 1..100, default 10; offset 0.., default 0)', () => {
  it('limit and offset select a window of the newest-first list; total stays the visible count', async () => {
    const all = await buyer().get(`${packPath(demoOrders.packed.pack)}?mark_as_read=false`);
    const order = ids(all.body);
    for (const [limit, offset] of [
      [1, 0],
      [1, 1],
      [2, 1],
      [3, 3],
      [100, 0],
      [5, 4],
      [1, 999999999],
    ] as const) {
      const res = await buyer().get(`${packPath(demoOrders.packed.pack)}?limit=${limit}&offset=${offset}&mark_as_read=false`);
      expect(res.status).toBe(200);
      expect(res.body.paging).toEqual({ limit, offset, total: 4 });
      expect(ids(res.body)).toEqual(order.slice(offset, offset + limit));
    }
  });

  it('the 400 rows of SPEC 7.5 for limit and offset', async () => {
    const cases: [string, string][] = [
      ['limit=0', 'The limit param must be greater than 0'],
      ['limit=-3', 'The limit param must be greater than 0'],
      ['limit=abc', 'Invalid limit param'],
      ['limit=', 'Invalid limit param'],
      ['limit=1.5', 'Invalid limit param'],
      ['limit=1e2', 'Invalid limit param'],
      ['limit=101', 'Invalid limit param'],
      ['limit=1&limit=2', 'Invalid limit param'],
      ['offset=-1', 'Invalid offset param'],
      ['offset=x', 'Invalid offset param'],
      ['offset=', 'Invalid offset param'],
      ['offset=1.0', 'Invalid offset param'],
      ['offset=99999999999', 'Invalid offset param'],
      ['mark_as_read=yes', "Invalid mark_as_read param: use 'true' or 'false'"],
      ['tag=pre_sale', "The queryparam 'tag' has an invalid value: only 'post_sale' is supported"],
    ];
    const before = snapshot();
    for (const [query, message] of cases) {
      const res = await seller().get(`${packPath(demoOrders.packed.pack)}?${query}`);
      expect(res.status, query).toBe(400);
      expect(errorBody(res).message, query).toBe(message);
    }
    expect(snapshot()).toBe(before);
  });

  it('limit over 100 says why in the cause', async () => {
    const res = await seller().get(`${packPath(demoOrders.packed.pack)}?limit=101`);
    expect(errorBody(res).cause).toEqual([{ code: 'invalid_limit', message: 'limit cannot exceed 100' }]);
  });

  it('tag=post_sale is accepted', async () => {
    const res = await seller().get(`${packPath(demoOrders.packed.pack)}?tag=post_sale`);
    expect(res.status).toBe(200);
  });
});

describe('access (SPEC 7.5)', () => {
  it('403 "User access token invalid for resource <pack>" for a user outside the order', async () => {
    const res = await server.as(demo.other.token).get(packPath(demoOrders.packed.pack));
    expect(res.status).toBe(403);
    expect(errorBody(res).message).toBe(`User access token invalid for resource ${demoOrders.packed.pack}`);
    const own = await server.as(demo.seller.token).get(packPath(extraOrders.otherSeller.pack, demo.other.id));
    expect(own.status).toBe(403);
    expect(errorBody(own).message).toBe(`User access token invalid for resource ${extraOrders.otherSeller.pack}`);
  });

  it('{user_id} must be the seller of the pack, for the buyer too (404 otherwise)', async () => {
    const byBuyer = await buyer().get(packPath(demoOrders.packed.pack, demo.buyer.id));
    expect(byBuyer.status).toBe(404);
    expect(errorBody(byBuyer).message).toBe(`Pack ${demoOrders.packed.pack} has no seller ${demo.buyer.id}`);
    const ok = await buyer().get(packPath(demoOrders.packed.pack, demo.seller.id));
    expect(ok.status).toBe(200);
  });

  it('a stranger gets 403 before learning whether {user_id} is right', async () => {
    const res = await server.as(demo.other.token).get(packPath(demoOrders.packed.pack, demo.other.id));
    expect(res.status).toBe(403);
  });

  it('401 without a token or with an unknown one; 400 for malformed ids; 404 for an unknown pack', async () => {
    expect((await server.as(null).get(packPath(demoOrders.packed.pack))).status).toBe(401);
    expect((await server.as('nope').get(packPath(demoOrders.packed.pack))).status).toBe(401);
    const badPack = await seller().get(packPath('abc'));
    expect(badPack.status).toBe(400);
    expect(errorBody(badPack).message).toBe("Invalid pack id: 'abc'");
    const badUser = await seller().get(packPath(demoOrders.packed.pack, 'x1'));
    expect(badUser.status).toBe(400);
    const unknown = await seller().get(packPath(42));
    expect(unknown.status).toBe(404);
    expect(errorBody(unknown).message).toBe('Pack 42 not found');
  });

  it('query errors come before access errors (documented order)', async () => {
    const res = await server.as(demo.other.token).get(`${packPath(demoOrders.packed.pack)}?limit=0`);
    expect(res.status).toBe(400);
    expect(errorBody(res).message).toBe('The limit param must be greater than 0');
  });
});

describe('read marking', () => {
  it('reading the pack marks the counterparty’s visible messages read (date_read, and date_notified when null)', async () => {
    expect(row(demoMessages.buyerQuestion)).toMatchObject({ date_read: null, date_notified: null });
    const res = await seller().get(packPath(demoOrders.packed.pack));
    const question = res.body.messages.find((m: { id: string }) => m.id === demoMessages.buyerQuestion);
    expect(question.message_date.read).toMatch(/Z$/);
    expect(question.message_date.notified).toBe(question.message_date.read);
    expect(row(demoMessages.buyerQuestion).date_read).toBe(question.message_date.read);
    // The seller's own message is not marked by the seller reading; hidden ones are never marked.
    expect(row(demoMessages.sellerAnswer).date_read).toBeNull();
    expect(row(demoMessages.buyerRejected).date_read).toBeNull();
    expect(row(pendingId).date_read).toBeNull();
  });

  it('the sender sees when the counterparty read its message', async () => {
    await buyer().get(packPath(demoOrders.packed.pack));
    const res = await seller().get(`${packPath(demoOrders.packed.pack)}?mark_as_read=false`);
    const answer = res.body.messages.find((m: { id: string }) => m.id === demoMessages.sellerAnswer);
    expect(answer.message_date.read).toMatch(/Z$/);
  });

  it('a date_notified already set is kept when reading', async () => {
    server.db.prepare("UPDATE messages SET date_notified = '2026-11-18T13:06:00.000Z' WHERE id = ?").run(demoMessages.buyerQuestion);
    await seller().get(packPath(demoOrders.packed.pack));
    expect(row(demoMessages.buyerQuestion).date_notified).toBe('2026-11-18T13:06:00.000Z');
    expect(row(demoMessages.buyerQuestion).date_read).not.toBeNull();
  });

  it('mark_as_read=false changes nothing', async () => {
    const before = snapshot();
    const res = await seller().get(`${packPath(demoOrders.packed.pack)}?mark_as_read=false`);
    expect(res.status).toBe(200);
    expect(res.body.messages.every((m: { message_date: { read: string | null } }) => m.message_date.read === null)).toBe(true);
    expect(snapshot()).toBe(before);
  });

  it('reading a message by id does not mark it read', async () => {
    const before = snapshot();
    expect((await seller().get(`/messages/${demoMessages.buyerQuestion}`)).status).toBe(200);
    expect(snapshot()).toBe(before);
  });

  it('a second read keeps the first date_read', async () => {
    // On a clock the test moves: the second read is an hour later, so a date_read written again would differ.
    await server.close();
    const clock = manualClock(Date.now());
    server = await startTestServer(fixtures(), { clock });
    await seller().get(packPath(demoOrders.packed.pack));
    const first = row(demoMessages.buyerQuestion).date_read;
    expect(first).toBe(clock.iso());
    clock.advance(3600_000);
    await seller().get(packPath(demoOrders.packed.pack));
    expect(row(demoMessages.buyerQuestion).date_read).toBe(first);
  });
});

describe('conversation_status (SPEC 2.9), as seen by the reader', () => {
  const statusOf = async (token: string, pack: number) => (await server.as(token).get(packPath(pack))).body.conversation_status;

  it('cancelled order: blocked_by_cancelled_order for both parties', async () => {
    for (const token of [demo.seller.token, demo.buyer.token]) {
      expect(await statusOf(token, demoOrders.cancelled.pack)).toMatchObject({ status: 'blocked', substatus: 'blocked_by_cancelled_order' });
    }
  });

  it('fulfillment not delivered: blocked for the seller only', async () => {
    expect(await statusOf(demo.seller.token, demoOrders.fulfillment.pack)).toMatchObject({ status: 'blocked', substatus: 'blocked_by_fulfillment' });
    expect(await statusOf(demo.buyer.token, demoOrders.fulfillment.pack)).toMatchObject({ status: 'active', substatus: null });
  });

  it('mediation: blocked on MLB (the default mediation site), active on MLA', async () => {
    expect(await statusOf(demo.buyer.token, extraOrders.mediationMlb.pack)).toMatchObject({ status: 'blocked', substatus: 'blocked_by_mediation' });
    expect(await statusOf(demo.buyer.token, demoOrders.mediationMla.pack)).toMatchObject({ status: 'active', substatus: null });
  });

  it('a pack with one cancelled and one paid order stays active', async () => {
    expect(await statusOf(demo.seller.token, extraOrders.partlyCancelled.pack)).toMatchObject({ status: 'active' });
  });
});

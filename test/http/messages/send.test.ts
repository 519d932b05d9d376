import { describe, expect, it } from 'vitest';
import type { FixtureFile } from '../../../main/fixtures/schema.js';
import { demo } from '../../support/fixtures.js';
import { buyerSends, demoOrders, extraOrders, messagingFixtures, packPath, sellerSends, sendBody, sendPath } from '../../support/messages.js';
import { type ApiResponse, errorBody, startTestServer } from '../../support/server.js';
import { serverWithSeller } from '../../support/seller.js';

const OTHER_APP = 777001;
const fixtures = (): FixtureFile => {
  const f = messagingFixtures();
  f.applications!.push({ id: OTHER_APP, name: 'Another integrator' });
  return f;
};

const api = serverWithSeller(() => startTestServer(fixtures()));
const { seller, buyer } = api;
const snapshot = () =>
  JSON.stringify(api.server.db.prepare('SELECT * FROM messages ORDER BY id').all()) + JSON.stringify(api.server.db.prepare('SELECT * FROM jobs').all());
const pack = demoOrders.packed.pack;
const toBuyer = (text: string, more: Record<string, unknown> = {}) => sendBody(demo.seller.id, demo.buyer.id, text, more);

/** Asserts an error answer: status, message, and that nothing was stored. */
function expectError(res: ApiResponse, status: number, message: string) {
  expect({ status: res.status, message: errorBody(res).message }).toEqual({ status, message });
}

describe('POST /messages/packs/{pack_id}/sellers/{user_id}: success', () => {
  it('201 with the stored message in the current shape (SPEC 2.8)', async () => {
    const res = await sellerSends(seller(), extraOrders.empty.pack, 'Hola Martín, ¿cómo estás? 👍');
    expect(res.status).toBe(201);
    const at = res.body.message_date.created;
    expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      site_id: 'MLA',
      client_id: demo.app,
      from: { user_id: demo.seller.id },
      to: { user_id: demo.buyer.id },
      status: 'available',
      subject: null,
      text: 'Hola Martín, ¿cómo estás? 👍',
      message_date: { received: at, available: at, notified: at, created: at, read: null },
      message_moderation: { status: 'clean', reason: null, source: 'online', moderation_date: at },
      message_attachments: null,
      message_resources: [
        { id: String(extraOrders.empty.pack), name: 'packs' },
        { id: String(demo.seller.id), name: 'sellers' },
      ],
      conversation_first_message: true,
    });
    const second = await sellerSends(seller(), extraOrders.empty.pack, 'Ya lo despachamos');
    expect(second.body.conversation_first_message).toBe(false);
  });

  it('the message is listed for both parties and readable by id in both shapes', async () => {
    const sent = await sellerSends(seller(), pack, 'Sale mañana');
    const list = await buyer().get(packPath(pack));
    expect(list.body.messages[0].id).toBe(sent.body.id);
    expect(list.body.paging.total).toBe(4);
    const legacy = await buyer().get(`/messages/${sent.body.id}`);
    expect(legacy.body).toMatchObject({
      message_id: sent.body.id,
      text: { plain: 'Sale mañana' },
      resource: 'orders',
      resource_id: String(demoOrders.packed.id),
    });
    const current = await seller().get(`/messages/${sent.body.id}`, { 'x-format-new': 'true' });
    expect(current.body.messages[0]).toEqual({ ...sent.body, message_date: { ...sent.body.message_date, read: legacy.body.date_read } });
  });

  it('the buyer writes through the same path, up to 3500 characters', async () => {
    const long = 'a'.repeat(3500);
    const res = await buyerSends(buyer(), pack, long);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ from: { user_id: demo.buyer.id }, to: { user_id: demo.seller.id }, text: long });
    const over = await buyerSends(buyer(), pack, `${long}b`);
    expectError(over, 400, 'The message content is too long, max characters allowed are 3500');
  });

  it('the seller writes up to 350 characters', async () => {
    expect((await sellerSends(seller(), pack, 'x'.repeat(350))).status).toBe(201);
    const over = await sellerSends(seller(), pack, 'x'.repeat(351));
    expectError(over, 400, 'The message content is too long, max characters allowed are 350');
    expect(errorBody(over).cause).toEqual([
      { code: 'too_long', message: 'The message content is too long, max characters allowed are 350', max: 350, length: 351 },
    ]);
  });

  it('user ids as JSON integers are accepted too', async () => {
    const res = await seller().post(sendPath(pack), { from: { user_id: demo.seller.id }, to: { user_id: demo.buyer.id }, text: 'ok' });
    expect(res.status).toBe(201);
  });

  it('the application id may come in the x-client-id header instead of the query', async () => {
    const res = await seller().post(sendPath(pack, { app: null }), toBuyer('hola'), { 'x-client-id': String(demo.app) });
    expect(res.status).toBe(201);
    expect(res.body.client_id).toBe(demo.app);
    const both = await seller().post(sendPath(pack), toBuyer('hola'), { 'x-client-id': String(demo.app) });
    expect(both.status).toBe(201);
  });

  it('tag may be omitted', async () => {
    const res = await seller().post(`${packPath(pack)}?application_id=${demo.app}`, toBuyer('hola'));
    expect(res.status).toBe(201);
  });

  it('to.user_id "0" with a secure e-mail addresses the counterparty', async () => {
    const res = await seller().post(sendPath(pack), {
      from: { user_id: String(demo.seller.id) },
      to: { user_id: '0', email: 'mgomez.8k2j3+2-ogeytsnjzgu4dk@mail.mercadolibre.com' },
      text: 'hola',
    });
    expect(res.status).toBe(201);
    expect(res.body.to.user_id).toBe(demo.buyer.id);
  });

  it('the older addressing (to.resource, to.resource_id, to.site_id) is accepted when it names this pack', async () => {
    for (const resource_id of [demoOrders.packed.id, demoOrders.packed.pack, String(demoOrders.packed.id), undefined]) {
      const res = await seller().post(
        sendPath(pack),
        toBuyer('hola', { to: { user_id: String(demo.buyer.id), resource: 'orders', resource_id, site_id: 'MLA' } }),
      );
      expect(res.status, String(resource_id)).toBe(201);
    }
  });

  it('a pack of two orders files messages under its first order', async () => {
    const res = await buyerSends(buyer(), extraOrders.twoOrders.pack, 'hola');
    expect(res.status).toBe(201);
    const legacy = await buyer().get(`/messages/${res.body.id}`);
    expect(legacy.body.resource_id).toBe(String(extraOrders.twoOrders.id));
  });

  it('a pack with one cancelled and one paid order is not blocked; neither is mediation on MLA by default', async () => {
    expect((await sellerSends(seller(), extraOrders.partlyCancelled.pack, 'hola')).status).toBe(201);
    expect((await sellerSends(seller(), demoOrders.mediationMla.pack, 'hola')).status).toBe(201);
    expect((await sellerSends(seller(), extraOrders.plainMlb.pack, 'olá')).status).toBe(201);
  });
});

describe('authentication and application (SPEC 5)', () => {
  it('400 "Access token is required" without a token, whatever the body', async () => {
    const anonymous = api.server.as(null);
    expectError(await anonymous.post(sendPath(pack), toBuyer('hola')), 400, 'Access token is required');
    const badJson = await anonymous.raw('POST', sendPath(pack), { raw: '{"from":', headers: { 'content-type': 'application/json' } });
    expectError(badJson, 400, 'Access token is required');
    expectError(await anonymous.post(sendPath(pack, { app: null })), 400, 'Access token is required');
    const basic = await api.server.as(null).post(sendPath(pack), toBuyer('hola'), { authorization: 'Basic dXNlcjpwYXNz' });
    expectError(basic, 400, 'Access token is required');
  });

  it('401 for an unknown token', async () => {
    const res = await api.server.as('APP_USR-unknown').post(sendPath(pack), toBuyer('hola'));
    expect(res.status).toBe(401);
    expect(errorBody(res).error).toBe('invalid_token');
  });

  it('400 "Application id is required" without application_id and x-client-id', async () => {
    expectError(await seller().post(sendPath(pack, { app: null }), toBuyer('hola')), 400, 'Application id is required');
    expectError(await seller().post(sendPath(pack, { app: '' }), toBuyer('hola')), 400, 'Application id is required');
  });

  it('400 when the query and the header name different applications', async () => {
    const res = await seller().post(sendPath(pack), toBuyer('hola'), { 'x-client-id': String(OTHER_APP) });
    expectError(res, 400, "The query param 'application_id' and the header 'x-client-id' name different applications");
  });

  it('401 invalid_client for an application that is not registered (or not an id)', async () => {
    for (const app of ['999', 'abc', '-1']) {
      const res = await seller().post(sendPath(pack, { app }), toBuyer('hola'));
      expect(res.status, app).toBe(401);
      expect(errorBody(res)).toMatchObject({ error: 'invalid_client', message: 'Invalid application id: the application is not registered' });
    }
  });

  it('403 for a registered application the token was not issued to', async () => {
    const res = await seller().post(sendPath(pack, { app: OTHER_APP }), toBuyer('hola'));
    expectError(res, 403, `The access token was not issued to application ${OTHER_APP}`);
  });
});

describe('body and addressing rows of SPEC 7.6', () => {
  const cases: [string, unknown, string][] = [
    ['no from', { to: { user_id: String(demo.buyer.id) }, text: 'x' }, "The field 'from' is required"],
    ['from not an object', { from: String(demo.seller.id), to: { user_id: String(demo.buyer.id) }, text: 'x' }, "The field 'from' is required"],
    ['from without user_id', { from: {}, to: { user_id: String(demo.buyer.id) }, text: 'x' }, "The field 'from' is required"],
    ['from.user_id null', { from: { user_id: null }, to: { user_id: String(demo.buyer.id) }, text: 'x' }, "The field 'from' is required"],
    ['from.user_id letters', { from: { user_id: 'seller' }, to: { user_id: String(demo.buyer.id) }, text: 'x' }, "Invalid 'from' user id"],
    ['from.user_id 0', { from: { user_id: '0' }, to: { user_id: String(demo.buyer.id) }, text: 'x' }, "Invalid 'from' user id"],
    ['no to', { from: { user_id: String(demo.seller.id) }, text: 'x' }, "The field 'to.user_id' is required"],
    ['to without user_id', { from: { user_id: String(demo.seller.id) }, to: { email: 'a@b.c' }, text: 'x' }, "The field 'to.user_id' is required"],
    [
      'to as an array',
      { from: { user_id: String(demo.seller.id) }, to: [{ user_id: String(demo.buyer.id) }], text: 'x' },
      "The field 'to.user_id' is required",
    ],
    ['to.user_id letters', toBuyer('x', { to: { user_id: 'buyer' } }), "Invalid 'to' user id"],
    ['to.user_id negative', toBuyer('x', { to: { user_id: -5 } }), "Invalid 'to' user id"],
    ['to.user_id fraction', toBuyer('x', { to: { user_id: 1.5 } }), "Invalid 'to' user id"],
    ['to.user_id boolean', toBuyer('x', { to: { user_id: true } }), "Invalid 'to' user id"],
    ['to.user_id huge', toBuyer('x', { to: { user_id: '99999999999999999' } }), "Invalid 'to' user id"],
    ['same user', sendBody(demo.seller.id, demo.seller.id, 'x'), 'Sender and received must not be equals'],
    ['same user, number and string', toBuyer('x', { to: { user_id: demo.seller.id } }), 'Sender and received must not be equals'],
    ['user 0 without e-mail', toBuyer('x', { to: { user_id: '0' } }), "The field 'to.email' must be a secure email"],
    ['user 0 with a plain e-mail', toBuyer('x', { to: { user_id: 0, email: 'martin.gomez@gmail.com' } }), "The field 'to.email' must be a secure email"],
    [
      'user 0 with a look-alike domain',
      toBuyer('x', { to: { user_id: '0', email: 'a@mail.mercadolibre.com.evil.io' } }),
      "The field 'to.email' must be a secure email",
    ],
    [
      'resource_id without resource',
      toBuyer('x', { to: { user_id: String(demo.buyer.id), resource_id: demoOrders.packed.id, site_id: 'MLA' } }),
      "The field 'to.resource' is required",
    ],
    ['site_id without resource', toBuyer('x', { to: { user_id: String(demo.buyer.id), site_id: 'MLA' } }), "The field 'to.resource' is required"],
    ['resource not orders', toBuyer('x', { to: { user_id: String(demo.buyer.id), resource: 'items', site_id: 'MLA' } }), "Invalid field 'to.resource'"],
    ['resource without site', toBuyer('x', { to: { user_id: String(demo.buyer.id), resource: 'orders' } }), "The field 'to.site_id' is required"],
    [
      'site lower case',
      toBuyer('x', { to: { user_id: String(demo.buyer.id), resource: 'orders', site_id: 'mla' } }),
      "The field 'to.site_id' has an invalid value",
    ],
    ['site a number', toBuyer('x', { to: { user_id: String(demo.buyer.id), resource: 'orders', site_id: 1 } }), "The field 'to.site_id' has an invalid value"],
    [
      'site of another country',
      toBuyer('x', { to: { user_id: String(demo.buyer.id), resource: 'orders', site_id: 'MLB' } }),
      "The field 'to.site_id' has an invalid value",
    ],
    [
      'resource_id malformed',
      toBuyer('x', { to: { user_id: String(demo.buyer.id), resource: 'orders', site_id: 'MLA', resource_id: 'abc' } }),
      "Invalid field 'to.resource_id'",
    ],
    [
      'resource_id of another order',
      toBuyer('x', { to: { user_id: String(demo.buyer.id), resource: 'orders', site_id: 'MLA', resource_id: demoOrders.delivered.id } }),
      "Invalid field 'to.resource_id'",
    ],
    ['no text', { from: { user_id: String(demo.seller.id) }, to: { user_id: String(demo.buyer.id) } }, "The field 'text' is required"],
    ['null text', toBuyer('x', { text: null }), "The field 'text' is required"],
    ['empty text', toBuyer(''), "The field 'text' is required"],
    ['blank text', toBuyer(' \n\t '), "The field 'text' is required"],
    ['number text', toBuyer('x', { text: 42 }), "The field 'text' must be a string"],
    ['typographic quote', toBuyer('Te lo mando hoy’'), 'The text has character/s that is/are not supported.'],
    ['unlisted emoji', toBuyer('Listo 🍺'), 'The text has character/s that is/are not supported.'],
  ];
  for (const [name, body, message] of cases) {
    it(`400 ${message} (${name})`, async () => {
      const before = snapshot();
      const res = await seller().post(sendPath(pack), body);
      expectError(res, 400, message);
      expect(snapshot()).toBe(before);
    });
  }

  it('400 "A JSON body is required" for a missing, null, array, scalar or text body', async () => {
    const before = snapshot();
    expectError(await seller().post(sendPath(pack)), 400, 'A JSON body is required');
    for (const raw of ['null', '[]', '"text"', '42']) {
      const res = await seller().raw('POST', sendPath(pack), { raw, headers: { 'content-type': 'application/json' } });
      expectError(res, 400, 'A JSON body is required');
    }
    const text = await seller().raw('POST', sendPath(pack), { raw: 'hola', headers: { 'content-type': 'text/plain' } });
    expectError(text, 400, 'A JSON body is required');
    const empty = await seller().raw('POST', sendPath(pack), { raw: '', headers: { 'content-type': 'application/json' } });
    expectError(empty, 400, 'A JSON body is required');
    expect(snapshot()).toBe(before);
  });

  it('the unsupported-characters error lists the refused characters in cause', async () => {
    const res = await seller().post(sendPath(pack), toBuyer('ok – listo'));
    expect(errorBody(res).cause).toEqual([
      {
        code: 'unsupported_characters',
        message: 'The text has character/s that is/are not supported.',
        characters: [{ index: 3, char: '–', codePoint: 'U+2013' }],
      },
    ]);
  });

  it('400 for a bad tag, pack id or user id in the path', async () => {
    expectError(
      await seller().post(`${packPath(pack)}?tag=other&application_id=${demo.app}`, toBuyer('x')),
      400,
      "The queryparam 'tag' has an invalid value: only 'post_sale' is supported",
    );
    expectError(await seller().post(sendPath('p1'), toBuyer('x')), 400, "Invalid pack id: 'p1'");
    const badUser = await seller().post(sendPath(pack, { seller: 'me' }), toBuyer('x'));
    expect(badUser.status).toBe(400);
  });
});

describe('access rows of SPEC 7.6', () => {
  it('403 "Access denied for user <from> to order <id>" when from is not the token’s user', async () => {
    const res = await seller().post(sendPath(pack), sendBody(demo.buyer.id, demo.seller.id, 'hola'));
    expectError(res, 403, `Access denied for user ${demo.buyer.id} to order ${pack}`);
  });

  it('403 "Access denied ..." for a user outside the order, naming to.resource_id when given', async () => {
    const other = api.server.as(demo.other.token);
    expectError(
      await other.post(sendPath(pack), sendBody(demo.other.id, demo.buyer.id, 'hola')),
      403,
      `Access denied for user ${demo.other.id} to order ${pack}`,
    );
    const named = await other.post(
      sendPath(pack),
      sendBody(demo.other.id, demo.buyer.id, 'hola', {
        to: { user_id: String(demo.buyer.id), resource: 'orders', resource_id: demoOrders.packed.id, site_id: 'MLA' },
      }),
    );
    expectError(named, 403, `Access denied for user ${demo.other.id} to order ${demoOrders.packed.id}`);
  });

  it('403 "Receiver does not belong to order <id>" for a recipient outside the order', async () => {
    const res = await seller().post(sendPath(pack), sendBody(demo.seller.id, demo.other.id, 'hola'));
    expectError(res, 403, `Receiver does not belong to order ${pack}`);
    const unknownUser = await seller().post(sendPath(pack), sendBody(demo.seller.id, 123456, 'hola'));
    expectError(unknownUser, 403, `Receiver does not belong to order ${pack}`);
  });

  it('404 for an unknown pack and for a {user_id} that is not the pack’s seller', async () => {
    expectError(await seller().post(sendPath(42), toBuyer('hola')), 404, 'Pack 42 not found');
    const wrongSeller = await buyer().post(sendPath(pack, { seller: demo.buyer.id }), sendBody(demo.buyer.id, demo.seller.id, 'hola'));
    expectError(wrongSeller, 404, `Pack ${pack} has no seller ${demo.buyer.id}`);
  });
});

describe('conversation state rows of SPEC 7.6', () => {
  it('cancelled order: 403 conversation_blocked with cause blocked_by_cancelled_order, for both parties', async () => {
    for (const res of [await sellerSends(seller(), demoOrders.cancelled.pack, 'hola'), await buyerSends(buyer(), demoOrders.cancelled.pack, 'hola')]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: 'conversation_blocked',
        message: 'blocked_conversation_send_message_forbidden',
        status: 403,
        cause: ['blocked_by_cancelled_order'],
      });
    }
  });

  it('mediation in process on MLB (the default mediation site): 403 for both parties', async () => {
    for (const res of [await sellerSends(seller(), extraOrders.mediationMlb.pack, 'olá'), await buyerSends(buyer(), extraOrders.mediationMlb.pack, 'olá')]) {
      expectError(res, 403, 'You can not send the message because a mediation is in process');
      expect(errorBody(res).cause).toEqual(['blocked_by_mediation']);
    }
  });

  it('platform fulfillment not delivered: 403 for the seller; the buyer may still write', async () => {
    const res = await sellerSends(seller(), demoOrders.fulfillment.pack, 'hola');
    expectError(res, 403, 'You can not send the message because the purchase is (platform fulfillment) and has not been yet delivered');
    expect((await buyerSends(buyer(), demoOrders.fulfillment.pack, '¿Cuándo llega?')).status).toBe(201);
  });
});

describe('the mediation site is configurable (ServiceOptions.mediationSite)', () => {
  it('with mediationSite MLA the MLA order in mediation is blocked and the MLB one is not', async () => {
    const mla = await startTestServer(fixtures(), { mediationSite: 'MLA' });
    try {
      const s = mla.as(demo.seller.token);
      expectError(await sellerSends(s, demoOrders.mediationMla.pack, 'hola'), 403, 'You can not send the message because a mediation is in process');
      expect((await sellerSends(s, extraOrders.mediationMlb.pack, 'olá')).status).toBe(201);
      const status = await s.get(packPath(demoOrders.mediationMla.pack));
      expect(status.body.conversation_status.substatus).toBe('blocked_by_mediation');
    } finally {
      await mla.close();
    }
  });
});

describe('attachments field (SPEC 7.6, 8)', () => {
  it('more than 25 → 400; unknown ids → 422 invalid_attachment; not an array → 400; nothing stored', async () => {
    const before = snapshot();
    const many = Array.from({ length: 26 }, (_, i) => `file-${i}`);
    expectError(await sellerSends(seller(), pack, 'hola', { attachments: many }), 400, 'The message exceeds the allowed number of attachments: 25');
    const unknown = await sellerSends(seller(), pack, 'hola', { attachments: ['0123456789abcdef0123456789abcdef.pdf'] });
    expect(unknown.status).toBe(422);
    expect(errorBody(unknown)).toMatchObject({ error: 'invalid_attachment', message: 'Attachment key is invalid or not found' });
    expect((await sellerSends(seller(), pack, 'hola', { attachments: 'abc' })).status).toBe(400);
    expect(snapshot()).toBe(before);
  });

  it('null or an empty list is no attachments', async () => {
    for (const attachments of [null, []]) {
      const res = await sellerSends(seller(), pack, 'hola', { attachments });
      expect(res.status).toBe(201);
      expect(res.body.message_attachments).toBeNull();
      expect(res.body.message_moderation.status).toBe('clean');
    }
  });
});

describe('order of checks (the first failing check answers)', () => {
  const cases: { name: string; send: () => Promise<ApiResponse>; status: number; message: string }[] = [
    {
      name: 'no token beats no application and a bad body',
      send: () => api.server.as(null).post(sendPath(pack, { app: null }), {}),
      status: 400,
      message: 'Access token is required',
    },
    {
      name: 'no application beats a bad body',
      send: () => seller().post(sendPath(pack, { app: null }), {}),
      status: 400,
      message: 'Application id is required',
    },
    {
      name: 'an unknown application beats a bad path',
      send: () => seller().post(sendPath('x', { app: 999 }), {}),
      status: 401,
      message: 'Invalid application id: the application is not registered',
    },
    {
      name: 'a bad pack id beats a bad body',
      send: () => seller().post(sendPath('x'), {}),
      status: 400,
      message: "Invalid pack id: 'x'",
    },
    {
      name: 'from beats to',
      send: () => seller().post(sendPath(pack), { text: 'x' }),
      status: 400,
      message: "The field 'from' is required",
    },
    {
      name: 'from.user_id beats to.user_id (both invalid)',
      send: () => seller().post(sendPath(pack), { from: { user_id: '0' }, to: { user_id: '0' } }),
      status: 400,
      message: "Invalid 'from' user id",
    },
    {
      name: 'body shape beats an unknown pack',
      send: () => seller().post(sendPath(42), sendBody(demo.seller.id, demo.seller.id, 'x')),
      status: 400,
      message: 'Sender and received must not be equals',
    },
    {
      name: 'to.resource beats access',
      send: () =>
        api.server
          .as(demo.other.token)
          .post(sendPath(pack), sendBody(demo.other.id, demo.buyer.id, 'x', { to: { user_id: String(demo.buyer.id), site_id: 'MLA' } })),
      status: 400,
      message: "The field 'to.resource' is required",
    },
    {
      name: 'access beats a blocked conversation and a long text',
      send: () => seller().post(sendPath(demoOrders.cancelled.pack), sendBody(demo.buyer.id, demo.seller.id, 'x'.repeat(4000))),
      status: 403,
      message: `Access denied for user ${demo.buyer.id} to order ${demoOrders.cancelled.pack}`,
    },
    {
      name: 'the receiver beats a blocked conversation',
      send: () => seller().post(sendPath(demoOrders.cancelled.pack), sendBody(demo.seller.id, demo.other.id, 'x')),
      status: 403,
      message: `Receiver does not belong to order ${demoOrders.cancelled.pack}`,
    },
    {
      name: 'the site value beats a blocked conversation',
      send: () =>
        seller().post(sendPath(demoOrders.cancelled.pack), toBuyer('x', { to: { user_id: String(demo.buyer.id), resource: 'orders', site_id: 'MLB' } })),
      status: 400,
      message: "The field 'to.site_id' has an invalid value",
    },
    {
      name: 'a blocked conversation beats a too long text',
      send: () => sellerSends(seller(), demoOrders.cancelled.pack, 'x'.repeat(400)),
      status: 403,
      message: 'blocked_conversation_send_message_forbidden',
    },
    {
      name: 'cancelled beats mediation and fulfillment',
      send: () => sellerSends(seller(), extraOrders.everyBlock.pack, 'olá'),
      status: 403,
      message: 'blocked_conversation_send_message_forbidden',
    },
    {
      name: 'mediation beats fulfillment',
      send: () => sellerSends(seller(), extraOrders.mediationFulfillment.pack, 'olá'),
      status: 403,
      message: 'You can not send the message because a mediation is in process',
    },
    {
      name: 'a too long text beats bad attachments',
      send: () => sellerSends(seller(), pack, 'x'.repeat(351), { attachments: ['nope'] }),
      status: 400,
      message: 'The message content is too long, max characters allowed are 350',
    },
    {
      name: 'unsupported characters beat a too long text',
      send: () => sellerSends(seller(), pack, `${'x'.repeat(351)}’`),
      status: 400,
      message: 'The text has character/s that is/are not supported.',
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const before = snapshot();
      expectError(await c.send(), c.status, c.message);
      expect(snapshot()).toBe(before);
    });
  }
});

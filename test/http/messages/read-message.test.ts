import { describe, expect, it } from 'vitest';
import { demo } from '../../support/fixtures.js';
import { demoMessages, demoOrders, messageFixture, messageId, messagingFixtures } from '../../support/messages.js';
import { errorBody, startTestServer } from '../../support/server.js';
import { serverWithSeller } from '../../support/seller.js';

const withFiles = messageId(0xf1);
const pendingId = messageId(0xf2);
const invoice = {
  filename: '5f0c2a6e1d3b4f7a9c8e2d1b0a9f8e7d.pdf',
  original_filename: 'Factura A 0001.pdf',
  type: 'application/pdf',
  size: 48213,
  potential_security_threat: false,
  creation_date: '2026-11-18T16:00:00Z',
};
const tool = {
  filename: '6f0c2a6e1d3b4f7a9c8e2d1b0a9f8e7d.exe',
  original_filename: 'instalador.exe',
  type: 'application/x-msdownload',
  size: 1024,
  potential_security_threat: true,
  creation_date: '2026-11-18T16:00:00Z',
};

const api = serverWithSeller(
  () =>
    startTestServer(
      messagingFixtures({
        messages: [
          messageFixture({
            id: withFiles,
            order_id: demoOrders.packed.id,
            from_user_id: demo.seller.id,
            to_user_id: demo.buyer.id,
            text: 'Te adjunto la factura',
            date_created: '2026-11-18T16:00:00Z',
            moderation: { status: 'clean', source: 'online', date: '2026-11-18T16:00:05Z' },
            attachments: [invoice, tool],
          }),
          messageFixture({
            id: pendingId,
            order_id: demoOrders.packed.id,
            text: 'Mirá la foto',
            date_created: '2026-11-18T17:00:00Z',
            moderation: { status: 'pending' },
          }),
        ],
      }),
    ),
  'file',
);
const { seller, buyer } = api;
const snapshot = () => JSON.stringify(api.server.db.prepare('SELECT * FROM messages ORDER BY id').all());
const asAttachment = (a: typeof invoice) => ({ ...a, creation_date: '2026-11-18T16:00:00.000Z' });

describe('GET /messages/{message_id}: legacy shape (default)', () => {
  it('has every field of SPEC 4.10', async () => {
    const res = await seller().get(`/messages/${demoMessages.buyerQuestion}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message_id: demoMessages.buyerQuestion,
      date_received: '2026-11-18T13:05:00.000Z',
      date: '2026-11-18T13:05:00.000Z',
      date_available: '2026-11-18T13:05:01.000Z',
      date_notified: null,
      date_read: null,
      from: { user_id: demo.buyer.id },
      to: { user_id: demo.seller.id },
      subject: null,
      text: { plain: 'Hola, ¿me confirmás si el termo viene con funda?' },
      attachments: [],
      attachments_validations: { invalid_size: [], invalid_extension: [], forbidden: [], internal_error: [] },
      site_id: 'MLA',
      resource: 'orders',
      resource_id: String(demoOrders.packed.id),
      status: 'available',
      moderation: { status: 'clean', date_moderated: '2026-11-18T13:05:01.000Z', source: 'online' },
    });
  });

  it('lists attachments; a file flagged as a potential threat is listed under attachments_validations.forbidden', async () => {
    const res = await buyer().get(`/messages/${withFiles}`);
    expect(res.body.attachments).toEqual([asAttachment(invoice), asAttachment(tool)]);
    expect(res.body.attachments_validations).toEqual({ invalid_size: [], invalid_extension: [], forbidden: [tool.filename], internal_error: [] });
  });

  it('non_moderated messages have no moderation date nor source, and are available since created', async () => {
    const res = await seller().get(`/messages/${demoMessages.buyerNonModerated}`);
    expect(res.body).toMatchObject({
      date_available: '2024-01-05T10:00:00.000Z',
      resource_id: String(demoOrders.delivered.id),
      moderation: { status: 'non_moderated', date_moderated: null, source: null },
    });
  });

  it('x-format-new with any value other than true keeps the legacy shape', async () => {
    for (const v of ['false', '1', 'yes', '']) {
      const res = await seller().get(`/messages/${demoMessages.buyerQuestion}`, { 'x-format-new': v });
      expect(res.body.message_id, v).toBe(demoMessages.buyerQuestion);
    }
  });
});

describe('GET /messages/{message_id} with x-format-new: true', () => {
  it('answers the Message list shape with paging and conversation_status null', async () => {
    const res = await seller().get(`/messages/${demoMessages.sellerAnswer}`, { 'x-format-new': 'true' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      paging: null,
      conversation_status: null,
      messages: [
        {
          id: demoMessages.sellerAnswer,
          site_id: 'MLA',
          client_id: demo.app,
          from: { user_id: demo.seller.id },
          to: { user_id: demo.buyer.id },
          status: 'available',
          subject: null,
          text: '¡Hola Martín! Sí, incluye funda térmica. Te lo despachamos hoy.',
          message_date: {
            received: '2026-11-18T13:20:00.000Z',
            available: '2026-11-18T13:20:01.000Z',
            notified: null,
            created: '2026-11-18T13:20:00.000Z',
            read: null,
          },
          message_moderation: { status: 'clean', reason: null, source: 'online', moderation_date: '2026-11-18T13:20:01.000Z' },
          message_attachments: null,
          message_resources: [
            { id: String(demoOrders.packed.pack), name: 'packs' },
            { id: String(demo.seller.id), name: 'sellers' },
          ],
          conversation_first_message: false,
        },
      ],
      seller_max_message_length: 350,
      buyer_max_message_length: 3500,
    });
  });

  it('the header is case-insensitive and carries attachments in message_attachments', async () => {
    const res = await buyer().get(`/messages/${withFiles}`, { 'X-Format-New': 'TRUE' });
    expect(res.body.messages[0].message_attachments).toEqual([asAttachment(invoice), asAttachment(tool)]);
  });
});

describe('GET /messages/{message_id}: errors of SPEC 7.5', () => {
  it('400 "The specified message id does not exists" for a malformed id', async () => {
    for (const bad of ['abc', '0a1b2c3d4e5f40718293a4b5c6d7e8f', '0a1b2c3d4e5f40718293a4b5c6d7e8f99', 'za1b2c3d4e5f40718293a4b5c6d7e8f9', '%20']) {
      const res = await seller().get(`/messages/${bad}`);
      expect(res.status, bad).toBe(400);
      expect(errorBody(res).message).toBe('The specified message id does not exists');
    }
  });

  it('404 "could not be retrieved from storage" for a well-formed id that is not stored', async () => {
    const id = 'ffffffffffffffffffffffffffffffff';
    const res = await seller().get(`/messages/${id}`);
    expect(res.status).toBe(404);
    expect(errorBody(res).message).toBe(`The message with id: ${id} could not be retrieved from storage`);
  });

  it('upper-case hex is the same id', async () => {
    const res = await seller().get(`/messages/${demoMessages.buyerQuestion.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.message_id).toBe(demoMessages.buyerQuestion);
  });

  it('403 "Access denied for user <user_id> to message with id <message_id>" for a user outside the message', async () => {
    const res = await api.server.as(demo.other.token).get(`/messages/${demoMessages.buyerQuestion}`);
    expect(res.status).toBe(403);
    expect(errorBody(res).message).toBe(`Access denied for user ${demo.other.id} to message with id ${demoMessages.buyerQuestion}`);
  });

  it('401 without a token', async () => {
    expect((await api.server.as(null).get(`/messages/${demoMessages.buyerQuestion}`)).status).toBe(401);
  });

  it('the recipient gets 404 for a rejected or pending message; the sender reads it with its moderation', async () => {
    for (const id of [demoMessages.buyerRejected, pendingId]) {
      const hidden = await seller().get(`/messages/${id}`);
      expect(hidden.status).toBe(404);
      expect(errorBody(hidden).message).toBe(`The message with id: ${id} could not be retrieved from storage`);
      const hiddenNew = await seller().get(`/messages/${id}`, { 'x-format-new': 'true' });
      expect(hiddenNew.status).toBe(404);
    }
    const own = await buyer().get(`/messages/${demoMessages.buyerRejected}`);
    expect(own.body.moderation).toEqual({ status: 'rejected', date_moderated: '2026-11-18T14:00:02.000Z', source: 'online' });
    expect(own.body.date_available).toBeNull();
    const ownNew = await buyer().get(`/messages/${demoMessages.buyerRejected}`, { 'x-format-new': 'true' });
    expect(ownNew.body.messages[0].message_moderation.reason).toBe('PERSONAL_DATA');
    const pending = await buyer().get(`/messages/${pendingId}`);
    expect(pending.body.moderation).toEqual({ status: 'pending', date_moderated: null, source: 'online' });
  });

  it('reading a message changes nothing', async () => {
    const before = snapshot();
    await seller().get(`/messages/${demoMessages.buyerQuestion}`);
    await seller().get(`/messages/${demoMessages.buyerQuestion}`, { 'x-format-new': 'true' });
    expect(snapshot()).toBe(before);
  });
});

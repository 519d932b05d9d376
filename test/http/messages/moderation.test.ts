import { describe, expect, it } from 'vitest';
import { MODERATE_PENDING, MODERATION_START } from '../../../main/service/messages/messages.js';
import { AUTOMATIC_MESSAGE_THRESHOLD } from '../../../common/messages/moderation/index.js';
import { uploadId } from '../../support/attachments.js';
import { demo } from '../../support/fixtures.js';
import { buyerSends, demoOrders, extraOrders, manualClock, messagingFixtures, packPath, sellerSends } from '../../support/messages.js';
import { errorBody, startTestServer } from '../../support/server.js';
import { serverWithSeller } from '../../support/seller.js';

let clock: ReturnType<typeof manualClock>;
const api = serverWithSeller(() => {
  clock = manualClock('2026-11-20T12:00:00.000Z');
  return startTestServer(messagingFixtures(), { clock });
});
const { seller, buyer } = api;
const HOUR = 3600_000;
/** Packs the demo seller can write to. */
const openPacks = [
  demoOrders.packed.pack,
  demoOrders.delivered.pack,
  demoOrders.mediationMla.pack,
  extraOrders.twoOrders.pack,
  extraOrders.partlyCancelled.pack,
  extraOrders.empty.pack,
  extraOrders.plainMlb.pack,
];
const template = 'Gracias por tu compra, cualquier consulta estamos para ayudarte.';

describe('moderation at send, without attachments (decided at once)', () => {
  it('clean: moderated, available and notified now, source online', async () => {
    const res = await sellerSends(seller(), demoOrders.packed.pack, 'Sale hoy por la tarde');
    const at = clock.iso();
    expect(res.body.message_date).toEqual({ received: at, available: at, notified: at, created: at, read: null });
    expect(res.body.message_moderation).toEqual({ status: 'clean', reason: null, source: 'online', moderation_date: at });
  });

  it('rejected: stored with its reason, never available nor notified; 201 to the sender, invisible to the counterparty', async () => {
    const res = await buyerSends(buyer(), demoOrders.packed.pack, 'Escribime a martin.gomez@example.com y arreglamos');
    expect(res.status).toBe(201);
    expect(res.body.message_moderation).toEqual({ status: 'rejected', reason: 'PERSONAL_DATA', source: 'online', moderation_date: clock.iso() });
    expect(res.body.message_date).toMatchObject({ available: null, notified: null });
    const bySeller = await seller().get(packPath(demoOrders.packed.pack));
    expect(bySeller.body.messages.map((m: { id: string }) => m.id)).not.toContain(res.body.id);
    expect(bySeller.body.paging.total).toBe(2);
    expect((await seller().get(`/messages/${res.body.id}`)).status).toBe(404);
    const byBuyer = await buyer().get(packPath(demoOrders.packed.pack));
    expect(byBuyer.body.messages[0].id).toBe(res.body.id);
  });

  it(`AUTOMATIC_MESSAGE: the same text already sent to ${AUTOMATIC_MESSAGE_THRESHOLD} other packs within 24 hours`, async () => {
    for (const pack of openPacks.slice(0, AUTOMATIC_MESSAGE_THRESHOLD)) {
      clock.advance(60_000);
      const res = await sellerSends(seller(), pack, template);
      expect(res.body.message_moderation.status, String(pack)).toBe('clean');
    }
    clock.advance(60_000);
    // Case and spacing do not make a text different (normalizeForRepetition).
    const sixth = await sellerSends(seller(), openPacks[AUTOMATIC_MESSAGE_THRESHOLD]!, template.toUpperCase().replace(' ', '   '));
    expect(sixth.body.message_moderation).toMatchObject({ status: 'rejected', reason: 'AUTOMATIC_MESSAGE' });
    // 24 hours after the first ones they no longer count.
    clock.advance(24 * HOUR);
    const later = await sellerSends(seller(), openPacks[AUTOMATIC_MESSAGE_THRESHOLD + 1]!, template);
    expect(later.body.message_moderation.status).toBe('clean');
  });

  it('repeats inside the same pack never count as automatic', async () => {
    for (let i = 0; i <= AUTOMATIC_MESSAGE_THRESHOLD + 1; i++) {
      clock.advance(1000);
      const res = await sellerSends(seller(), demoOrders.packed.pack, template);
      expect(res.body.message_moderation.status).toBe('clean');
    }
  });

  it('another sender’s copies do not count', async () => {
    for (const pack of openPacks.slice(0, AUTOMATIC_MESSAGE_THRESHOLD)) await sellerSends(seller(), pack, template);
    const res = await buyerSends(buyer(), openPacks[AUTOMATIC_MESSAGE_THRESHOLD]!, template);
    expect(res.body.message_moderation.status).toBe('clean');
  });
});

describe(`non_moderated: messages created before ${MODERATION_START}`, () => {
  it('the clock decides: before the cut-off non_moderated and available at once, from it on moderated', async () => {
    clock.set(Date.parse(MODERATION_START) - 1);
    const old = await sellerSends(seller(), demoOrders.packed.pack, 'Escribime a martin.gomez@example.com');
    expect(old.body.message_moderation).toEqual({ status: 'non_moderated', reason: null, source: null, moderation_date: null });
    expect(old.body.message_date.available).toBe(clock.iso());
    // Visible to the counterparty (listed by creation date: after the 2026 fixture messages).
    const list = await buyer().get(packPath(demoOrders.packed.pack));
    expect(list.body.messages.at(-1).id).toBe(old.body.id);

    clock.set(MODERATION_START);
    const now = await sellerSends(seller(), demoOrders.packed.pack, 'Escribime a martin.gomez@example.com');
    expect(now.body.message_moderation.status).toBe('rejected');
  });
});

describe('messages with attachments stay pending until the durable job inspects them', () => {
  it('pending, invisible to the counterparty; the job makes it clean and available', async () => {
    await api.server.service.jobs.stop();
    const file = await uploadId(api.server, demo.seller.token, '%PDF-1.7\n%%EOF\n', 'factura.pdf', 'application/pdf');
    const sent = await sellerSends(seller(), demoOrders.packed.pack, 'Te adjunto la factura', { attachments: [file] });
    expect(sent.status).toBe(201);
    expect(sent.body.message_moderation).toEqual({ status: 'pending', reason: null, source: 'online', moderation_date: null });
    expect(sent.body.message_date).toMatchObject({ available: null, notified: null });
    expect(sent.body.message_attachments).toEqual([
      { filename: file, original_filename: 'factura.pdf', type: 'application/pdf', size: 15, potential_security_threat: false, creation_date: clock.iso() },
    ]);
    // The buyer sees its 3 fixture messages (its own rejected one included), not the pending one.
    expect((await buyer().get(packPath(demoOrders.packed.pack))).body.paging.total).toBe(3);
    expect((await buyer().get(`/messages/${sent.body.id}`)).status).toBe(404);
    expect((await seller().get(`/messages/${sent.body.id}`)).body.moderation.status).toBe('pending');

    clock.advance(5000);
    await api.server.service.jobs.drain();
    const legacy = await buyer().get(`/messages/${sent.body.id}`);
    expect(legacy.status).toBe(200);
    expect(legacy.body).toMatchObject({
      date_available: clock.iso(),
      date_notified: clock.iso(),
      moderation: { status: 'clean', date_moderated: clock.iso(), source: 'online' },
      attachments: [{ filename: file, original_filename: 'factura.pdf' }],
    });
    const list = await buyer().get(packPath(demoOrders.packed.pack));
    expect(list.body.paging.total).toBe(4);
    expect(list.body.messages[0].id).toBe(sent.body.id);
    expect(list.body.messages[0].message_attachments).toHaveLength(1);
  });

  it('the readable text of a text file is moderated too', async () => {
    await api.server.service.jobs.stop();
    const file = await uploadId(api.server, demo.buyer.token, 'Mi mail: martin.gomez@example.com\n', 'datos.txt', 'text/plain');
    const sent = await buyerSends(buyer(), demoOrders.packed.pack, 'Te paso los datos', { attachments: [file] });
    expect(sent.body.message_moderation.status).toBe('pending');
    await api.server.service.jobs.drain();
    const own = await buyer().get(`/messages/${sent.body.id}`, { 'x-format-new': 'true' });
    expect(own.body.messages[0].message_moderation).toMatchObject({ status: 'rejected', reason: 'PERSONAL_DATA', source: 'online' });
    expect(own.body.messages[0].message_date.available).toBeNull();
    expect((await seller().get(`/messages/${sent.body.id}`)).status).toBe(404);
  });

  it('the message text is moderated by the job with the repetition count (AUTOMATIC_MESSAGE)', async () => {
    for (const pack of openPacks.slice(0, AUTOMATIC_MESSAGE_THRESHOLD)) await sellerSends(seller(), pack, template);
    await api.server.service.jobs.stop();
    const file = await uploadId(api.server, demo.seller.token, 'hola', 'nota.txt', 'text/plain');
    const sent = await sellerSends(seller(), openPacks[AUTOMATIC_MESSAGE_THRESHOLD]!, template, { attachments: [file] });
    await api.server.service.jobs.drain();
    const own = await seller().get(`/messages/${sent.body.id}`, { 'x-format-new': 'true' });
    expect(own.body.messages[0].message_moderation).toMatchObject({ status: 'rejected', reason: 'AUTOMATIC_MESSAGE' });
  });

  it('a file flagged as a potential threat does not reject the message; the flag travels with the attachment', async () => {
    await api.server.service.jobs.stop();
    const file = await uploadId(api.server, demo.seller.token, 'MZ\x90\x00binary', 'instalador.exe', 'application/octet-stream');
    const sent = await sellerSends(seller(), demoOrders.packed.pack, 'Instalá el programa', { attachments: [file] });
    await api.server.service.jobs.drain();
    const legacy = await buyer().get(`/messages/${sent.body.id}`);
    expect(legacy.body.moderation.status).toBe('clean');
    expect(legacy.body.attachments[0].potential_security_threat).toBe(true);
    expect(legacy.body.attachments_validations.forbidden).toEqual([file]);
  });

  it('the job is idempotent: running it again changes nothing', async () => {
    await api.server.service.jobs.stop();
    const file = await uploadId(api.server, demo.seller.token, 'hola', 'nota.txt', 'text/plain');
    const sent = await sellerSends(seller(), demoOrders.packed.pack, 'Va la nota', { attachments: [file] });
    await api.server.service.jobs.drain();
    const row = () => api.server.db.prepare('SELECT * FROM messages WHERE id = ?').get(sent.body.id);
    const decided = row();
    clock.advance(60_000);
    api.server.service.jobs.enqueue(MODERATE_PENDING, { message_id: sent.body.id });
    api.server.service.jobs.enqueue(MODERATE_PENDING, { message_id: 'ffffffffffffffffffffffffffffffff' });
    await api.server.service.jobs.drain();
    expect(row()).toEqual(decided);
    const failed = api.server.db.prepare("SELECT count(*) AS n FROM jobs WHERE state <> 'done' AND kind = ?").get(MODERATE_PENDING) as { n: number };
    expect(failed.n).toBe(0);
  });

  it('the attachment ids are checked: someone else’s upload or one already attached → 422', async () => {
    const file = await uploadId(api.server, demo.seller.token, 'hola', 'nota.txt', 'text/plain');
    const foreign = await buyerSends(buyer(), demoOrders.packed.pack, 'hola', { attachments: [file] });
    expect(foreign.status).toBe(422);
    expect(errorBody(foreign).error).toBe('invalid_attachment');
    expect((await sellerSends(seller(), demoOrders.packed.pack, 'hola', { attachments: [file] })).status).toBe(201);
    const again = await sellerSends(seller(), demoOrders.packed.pack, 'otra vez', { attachments: [file] });
    expect(again.status).toBe(422);
  });

  it('a refused send with valid attachments leaves them unattached (usable again)', async () => {
    const file = await uploadId(api.server, demo.seller.token, 'hola', 'nota.txt', 'text/plain');
    const blocked = await sellerSends(seller(), demoOrders.cancelled.pack, 'hola', { attachments: [file] });
    expect(blocked.status).toBe(403);
    const ok = await sellerSends(seller(), demoOrders.packed.pack, 'hola', { attachments: [file] });
    expect(ok.status).toBe(201);
  });
});

import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, unlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../main/sync/engine.js';
import type { FaultProxy } from '../support/fault-proxy.js';
import { demo } from '../support/fixtures.js';
import { demoOrders, packPath } from '../support/messages.js';
import type { TestServer } from '../support/server.js';
import { type Replica, startSyncedReplica, stopSyncedReplica } from '../support/sync-harness.js';

let server: TestServer;
let proxy: FaultProxy;
let replica: Replica;
let engine: SyncEngine;
let files: string;

const pack = demoOrders.packed.pack;
const file = (name: string, content: string | Buffer) => {
  const p = join(files, name);
  writeFileSync(p, content);
  return p;
};
/** The pack as the seller sees it on the remote, oldest first. */
async function remoteMessages(p: number = pack) {
  const res = await server.as(demo.seller.token).get(`${packPath(p)}?mark_as_read=false&limit=100`);
  expect(res.status).toBe(200);
  return [
    ...(res.body.messages as {
      id: string;
      text: string;
      from: { user_id: number };
      message_attachments: { original_filename: string; size: number; filename: string }[] | null;
      message_moderation: { status: string; reason: string | null };
    }[]),
  ].reverse();
}

beforeAll(() => {
  files = mkdtempSync(join(tmpdir(), 'stockroom-outgoing-'));
});
afterAll(() => rmSync(files, { recursive: true, force: true }));
beforeEach(async () => {
  ({ server, proxy, replica, engine } = await startSyncedReplica());
});
afterEach(() => stopSyncedReplica({ server, proxy, replica, engine }));

describe('queueing a message: the marketplace rules run first', () => {
  it.each([
    ['a'.repeat(351), 'The message content is too long, max characters allowed are 350'],
    ['Gracias — saludos', 'The text has character/s that is/are not supported.'],
    ['   ', "The field 'text' is required"],
  ])('refuses %j with "%s"', async (text, message) => {
    await expect(engine.queueMessage({ packId: pack, text })).rejects.toThrow(message);
    expect(engine.status().pending).toBe(0);
  });

  it('accepts 350 characters and the permitted emoticons', async () => {
    await expect(engine.queueMessage({ packId: pack, text: 'a'.repeat(349) + '👍' })).resolves.toMatchObject({ warnings: [] });
  });

  it('refuses blocked conversations and unknown packs with the marketplace errors', async () => {
    await expect(engine.queueMessage({ packId: demoOrders.cancelled.pack, text: 'Hola' })).rejects.toMatchObject({
      status: 403,
      error: 'conversation_blocked',
    });
    await expect(engine.queueMessage({ packId: demoOrders.fulfillment.pack, text: 'Hola' })).rejects.toThrow(
      'You can not send the message because the purchase is (platform fulfillment) and has not been yet delivered',
    );
    await expect(engine.queueMessage({ packId: 999, text: 'Hola' })).rejects.toMatchObject({ status: 404 });
  });

  it('refuses attachments the marketplace would refuse', async () => {
    const ok = file('ok.txt', 'hola');
    await expect(engine.queueMessage({ packId: pack, text: 'x', files: Array(26).fill({ path: ok }) })).rejects.toThrow(
      'The message exceeds the allowed number of attachments: 25',
    );
    await expect(engine.queueMessage({ packId: pack, text: 'x', files: [{ path: file('empty.txt', '') }] })).rejects.toThrow('File attached is empty');
    await expect(engine.queueMessage({ packId: pack, text: 'x', files: [{ path: ok, name: 'a/b.txt' }] })).rejects.toThrow(
      'File name cannot include characters like /, \\',
    );
    const big = join(files, 'big.bin');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 25 * 1024 * 1024 + 1);
    closeSync(fd);
    await expect(engine.queueMessage({ packId: pack, text: 'x', files: [{ path: big }] })).rejects.toThrow('File attachment is bigger than 25 Mb.');
    await expect(engine.queueMessage({ packId: pack, text: 'x', files: [{ path: join(files, 'missing.pdf') }] })).rejects.toThrow(
      'Cannot read the file missing.pdf',
    );
    expect(engine.status().pending).toBe(0);
  });

  it('moderation is a pre-check: findings come back as warnings and the message is still queued', async () => {
    const r = await engine.queueMessage({ packId: pack, text: 'Escribime a juan.perez@gmail.com' });
    expect(r.warnings.map((w) => w.reason)).toContain('PERSONAL_DATA');
    await engine.drain();
    const last = (await remoteMessages()).at(-1)!;
    expect(last.message_moderation).toMatchObject({ status: 'rejected', reason: 'PERSONAL_DATA' });
  });
});

describe('sending', () => {
  it('files are copied when queued, uploaded first, then the message is sent with their ids', async () => {
    const pdf = file('factura.pdf', '%PDF-1.4 factura');
    const txt = file('nota.txt', 'Nota de entrega');
    const r = await engine.queueMessage({ packId: pack, text: 'Te adjunto la factura', files: [{ path: pdf }, { path: txt, name: 'remito.txt' }] });
    // The originals can go away: the app has its own copy.
    unlinkSync(pdf);
    unlinkSync(txt);
    await engine.drain();
    const entry = engine.outbox.repo.byId(r.entryId)!;
    expect(entry.state).toBe('done');
    const sent = (await remoteMessages()).at(-1)!;
    expect(sent.id).toBe(entry.result);
    expect(sent.text).toBe('Te adjunto la factura');
    expect(sent.message_attachments!.map((a) => a.original_filename)).toEqual(['factura.pdf', 'remito.txt']);
    const order = proxy.log.filter((l) => l.method === 'POST').map((l) => l.path.split('?')[0]);
    expect(order).toEqual(['/messages/attachments', '/messages/attachments', packPath(pack)]);
    expect(proxy.log.filter((l) => l.method === 'POST').map((l) => l.key)).toEqual([
      `${entry.idempotency_key}.a0`,
      `${entry.idempotency_key}.a1`,
      entry.idempotency_key,
    ]);
    // The sent message is in the mirror at once, with its attachment metadata.
    expect(replica.db.prepare('SELECT text FROM messages WHERE id = ?').get(sent.id)).toEqual({ text: 'Te adjunto la factura' });
    expect(replica.db.prepare('SELECT count(*) AS n FROM attachments WHERE message_id = ?').get(sent.id)).toEqual({ n: 2 });
  });

  it('with lost answers on uploads and on the send, the remote gets one message and one copy of each file', async () => {
    proxy.inject('reset', 1, (_m, p) => p.startsWith('/messages/attachments'));
    proxy.inject('drop', 1, (_m, p) => p.startsWith('/messages/attachments'));
    proxy.inject('reset', 2, (_m, p) => p.startsWith('/messages/packs'));
    const before = (await remoteMessages()).length;
    const uploadsBefore = (server.db.prepare('SELECT count(*) AS n FROM attachments').get() as { n: number }).n;
    await engine.queueMessage({ packId: pack, text: 'Va con foto', files: [{ path: file('foto.txt', 'una foto') }, { path: file('otra.txt', 'otra') }] });
    await engine.drain();
    const after = await remoteMessages();
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)!.message_attachments).toHaveLength(2);
    expect((server.db.prepare('SELECT count(*) AS n FROM attachments').get() as { n: number }).n).toBe(uploadsBefore + 2);
  });

  it('messages of one conversation go out in the order they were queued', async () => {
    engine.setMode('offline');
    for (let i = 1; i <= 5; i++) await engine.queueMessage({ packId: pack, text: `Mensaje ${i}` });
    await engine.queueMessage({ packId: demoOrders.delivered.pack, text: 'Otro pack' });
    engine.setMode('online');
    await engine.drain();
    const texts = (await remoteMessages()).map((m) => m.text).filter((t) => t.startsWith('Mensaje'));
    expect(texts).toEqual(['Mensaje 1', 'Mensaje 2', 'Mensaje 3', 'Mensaje 4', 'Mensaje 5']);
    expect((await remoteMessages(demoOrders.delivered.pack)).at(-1)!.text).toBe('Otro pack');
  });

  it('a refused send fails with the server message and holds back the rest of its conversation', async () => {
    // Queued while the conversation was open; the order is cancelled on the remote before it is sent.
    engine.setMode('offline');
    const first = await engine.queueMessage({ packId: demoOrders.delivered.pack, text: 'Uno' });
    const second = await engine.queueMessage({ packId: demoOrders.delivered.pack, text: 'Dos' });
    server.db.prepare("UPDATE orders SET status = 'cancelled' WHERE id = ?").run(demoOrders.delivered.id);
    engine.setMode('online');
    await engine.drain();
    expect(engine.outbox.repo.byId(first.entryId)).toMatchObject({
      state: 'failed',
      last_status: 403,
      last_error: 'blocked_conversation_send_message_forbidden',
    });
    expect(engine.outbox.repo.byId(second.entryId)!.state).toBe('pending');
    engine.discard(first.entryId);
    engine.discard(second.entryId);
    expect(engine.status()).toMatchObject({ failed: 0, pending: 0 });
  });
});

describe('incoming', () => {
  it('a pull reports new buyer messages and fetches attachment files on demand', async () => {
    const buyer = server.as(demo.buyer.token);
    const form = new FormData();
    form.append('file', new Blob(['comprobante de pago']), 'comprobante.txt');
    const up = await buyer.raw<{ id: string }>('POST', '/messages/attachments?tag=post_sale&site_id=MLA', { raw: form });
    expect(up.status).toBe(200);
    const sent = await buyer.post(`${packPath(pack)}?tag=post_sale&application_id=${demo.app}`, {
      from: { user_id: String(demo.buyer.id) },
      to: { user_id: String(demo.seller.id) },
      text: 'Ahí va el comprobante',
      attachments: [up.body.id],
    });
    expect(sent.status).toBe(201);
    // Messages with files are moderated by a job on the remote.
    await server.service.jobs.drain();
    const incoming: string[] = [];
    engine.on('message', (m) => incoming.push(m.text));
    await engine.pullNow();
    expect(incoming).toEqual(['Ahí va el comprobante']);
    const path = await engine.attachmentFile(up.body.id);
    expect(readFileSync(path, 'utf8')).toBe('comprobante de pago');
    // Second time: from the local store, no request.
    const requests = proxy.counts.total;
    expect(await engine.attachmentFile(up.body.id)).toBe(path);
    expect(proxy.counts.total).toBe(requests);
    await engine.pullNow();
    expect(incoming).toHaveLength(1);
  });
});

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DesktopCore } from '../../main/desktop/core.js';
import type { StockroomEvent } from '../../common/contract/contract.js';
import { demo } from '../support/fixtures.js';
import { demoRemote } from '../support/demo-remote.js';
import { buyerSends, demoOrders } from '../support/messages.js';
import { browserThatApproves } from '../support/oauth.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { FAST_RETRY } from '../support/sync-harness.js';
import { failure, openCore, until, value } from './helpers.js';

const palermo = { userProductId: demo.userProducts.termo, type: 'seller_warehouse' as const, storeId: demo.stores.palermo };
const engine = { pollIntervalMs: 0, pullOnStart: false, retry: FAST_RETRY };

async function remoteQuantity(remote: TestServer, storeId: string = demo.stores.palermo): Promise<number> {
  const res = await remote.as(demo.seller.token).get(`/user-products/${demo.userProducts.termo}/stock`);
  return (res.body as { locations: { store_id?: string; quantity: number }[] }).locations.find((l) => l.store_id === storeId)!.quantity;
}

describe('first start and restart', () => {
  it('starts local-only on the demo data, keeps edits and settings across a restart, and locks its data folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-core-'));
    try {
      const first = await DesktopCore.open({ dataDir: dir, log: () => undefined });
      expect(existsSync(join(dir, 'stockroom.db'))).toBe(true);
      value(await first.api.stock.adjust({ ...palermo, delta: 3 }));
      value(await first.api.settings.update({ language: 'en', baseUrl: 'https://api.example.com', applicationId: demo.app }));
      // One process per data folder.
      await expect(DesktopCore.open({ dataDir: dir, log: () => undefined })).rejects.toMatchObject({ code: 'already_running' });
      await first.close();

      const saved = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as Record<string, unknown>;
      expect(saved).toMatchObject({ mode: 'local-only', language: 'en', baseUrl: 'https://api.example.com', accessToken: null });
      const again = await DesktopCore.open({ dataDir: dir, log: () => undefined });
      expect(value(await again.api.stock.cell(palermo)).shown).toBe(15);
      expect(value(await again.api.settings.get())).toMatchObject({ language: 'en', mode: 'local-only' });
      // The demo data is loaded once: a restart does not load it again.
      expect(value(await again.api.stock.grid()).total).toBe(5);
      await again.close();
      expect(existsSync(join(dir, 'stockroom.lock'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses calls after close, as values', async () => {
    const c = await openCore();
    await c.close();
    expect(failure(await c.core.api.sync.status())).toMatchObject({ code: 'busy' });
  });

  it('maps an unexpected failure to internal_error without its details, and logs them in the main process', async () => {
    const logged: unknown[] = [];
    const c = await openCore({ log: (e) => logged.push(e) });
    try {
      // A staged file that vanished from disk is an unexpected failure of the filesystem.
      const staged = value(await c.core.api.messages.stageFile({ name: 'a.txt', bytes: new Uint8Array([1, 2, 3]) }));
      rmSync(join(c.dir, 'staging', staged.fileId));
      const r = failure(await c.core.api.messages.send({ packId: demoOrders.packed.pack, text: 'hola', fileIds: [staged.fileId] }));
      expect(r).toEqual({ code: 'internal_error', message: 'Something went wrong in the app; the details are in its log', status: 500 });
      expect(logged.length).toBe(1);
      expect(String(logged[0])).toMatch(/ENOENT/);
    } finally {
      await c.close();
    }
  });

  it('takes files from the main-process dialogs when the shell has them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-files-'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'remito.txt'), 'remito 0001');
    const savedTo = join(dir, 'saved.txt');
    const c = await openCore({ host: { shell: 'electron', dialogs: { openFiles: async () => [join(dir, 'remito.txt')], saveFile: async () => savedTo } } });
    try {
      const [picked] = value(await c.core.api.messages.pickFiles());
      expect(picked).toMatchObject({ name: 'remito.txt', size: 11 });
      const sent = value(await c.core.api.messages.send({ packId: demoOrders.packed.pack, text: 'Adjunto el remito.', fileIds: [picked!.fileId] }));
      if (sent.status !== 'sent') throw new Error('local-only sends at once');
      const id = sent.message.message_attachments![0]!.filename;
      expect(value(await c.core.api.messages.saveAttachment({ attachmentId: id }))).toEqual({ saved: true, path: savedTo });
      expect(readFileSync(savedTo, 'utf8')).toBe('remito 0001');
      // A picked file stays where it is: only copies are ever removed.
      expect(existsSync(join(dir, 'remito.txt'))).toBe(true);
    } finally {
      await c.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('online against a remote marketplace', () => {
  let remote: TestServer;
  beforeAll(async () => {
    remote = await startTestServer();
  });
  afterAll(() => remote.close());

  it('refuses to go online without credentials, and changes nothing', async () => {
    const c = await openCore();
    try {
      const e = failure(await c.core.api.settings.update({ mode: 'online', baseUrl: remote.url, applicationId: demo.app }));
      expect(e.code).toBe('not_signed_in');
      expect(value(await c.core.api.settings.get())).toMatchObject({ mode: 'local-only', baseUrl: null });
      expect(failure(await c.core.api.settings.update({ mode: 'online' })).code).toBe('not_configured');
    } finally {
      await c.close();
    }
  });

  it('with a pasted token: pulls a replica, pushes edits, raises and resolves a conflict, queues messages, and tells about new ones', async () => {
    const c = await openCore({ engine });
    const events: StockroomEvent[] = [];
    c.core.events.on('event', (e) => events.push(e));
    const api = c.core.api;
    try {
      const settings = value(
        await api.settings.update({ baseUrl: remote.url, applicationId: demo.app, userId: demo.seller.id, accessToken: demo.seller.token, mode: 'online' }),
      );
      expect(settings).toMatchObject({ mode: 'online', hasAccessToken: true });
      expect(JSON.stringify(settings)).not.toContain(demo.seller.token);
      // The token is not in the settings file either (plain cipher here: base64 of its bytes, never the text).
      expect(readFileSync(join(c.dir, 'settings.json'), 'utf8')).not.toContain(demo.seller.token);
      expect(value(await api.session.status())).toMatchObject({ signedIn: true, via: 'token', user: { id: demo.seller.id } });
      // A replica of its own, apart from the demo database.
      expect(existsSync(join(c.dir, 'remote'))).toBe(true);

      const report = value(await api.sync.pullNow());
      expect(report.stores).toBe(3);
      expect(value(await api.stock.grid()).total).toBe(5);
      expect(value(await api.stock.cell(palermo)).shown).toBe(12);

      // An adjustment is queued, then pushed.
      const queued = value(await api.stock.adjust({ ...palermo, delta: 5 }));
      expect(queued.entryId).not.toBeNull();
      await until(async () => (await remoteQuantity(remote)) === 17 || undefined, 'the adjustment on the remote');
      // Empty means nothing waiting and nothing on the wire: the remote can hold the change a moment
      // before its answer is recorded here, so pending alone is not enough.
      await until(async () => {
        const { pending, inFlight } = value(await api.sync.status());
        return (pending === 0 && inFlight === 0) || undefined;
      }, 'an empty outbox');

      // A count made offline while the marketplace changed the same cell becomes a conflict.
      value(await api.settings.update({ mode: 'offline' }));
      expect(value(await api.sync.status())).toMatchObject({ mode: 'offline', online: false });
      value(await api.stock.count({ ...palermo, quantity: 40 }));
      expect(value(await api.outbox.list()).entries).toMatchObject([{ kind: 'stock', state: 'pending', stock: { op: 'count', quantity: 40 } }]);
      await demoRemote(() => remote).otherWrite(demo.stores.palermo, 31);
      value(await api.settings.update({ mode: 'online' }));
      const conflict = await until(
        () => events.find((e): e is Extract<StockroomEvent, { type: 'sync.conflict' }> => e.type === 'sync.conflict'),
        'a conflict event',
      );
      const cell = value(await api.stock.cell(palermo));
      expect(cell).toMatchObject({ state: 'conflict', conflict: { entryId: conflict.entryId, local: 40, remote: { quantity: 31 } } });
      expect(value(await api.stock.grid({ filter: 'conflict' })).rows.map((r) => r.userProductId)).toEqual([demo.userProducts.termo]);
      value(await api.stock.resolveConflict({ entryId: conflict.entryId, resolution: { action: 'keep_mine' } }));
      await until(async () => (await remoteQuantity(remote)) === 40 || undefined, 'my count on the remote');

      // A message is queued and sent.
      const sent = value(await api.messages.send({ packId: demoOrders.packed.pack, text: 'Sale mañana por la mañana.' }));
      expect(sent.status).toBe('queued');
      await until(async () => {
        const res = await remote.as(demo.seller.token).get(`/messages/packs/${demoOrders.packed.pack}/sellers/${demo.seller.id}?mark_as_read=false`);
        return (res.body as { messages: { text: string }[] }).messages.some((m) => m.text === 'Sale mañana por la mañana.') || undefined;
      }, 'the message on the remote');

      // The buyer writes; the next pull reports it.
      expect((await buyerSends(remote.as(demo.buyer.token), demoOrders.packed.pack, '¿Me pasás el seguimiento?')).status).toBe(201);
      value(await api.sync.pullNow());
      const incoming = await until(
        () => events.find((e): e is Extract<StockroomEvent, { type: 'messages.new' }> => e.type === 'messages.new'),
        'a new message event',
      );
      // Only the new one: the history brought by the first pull is not announced.
      expect(incoming.messages).toMatchObject([{ text: '¿Me pasás el seguimiento?', packId: demoOrders.packed.pack, fromUserId: demo.buyer.id }]);
      expect(events.filter((e) => e.type === 'messages.new')).toHaveLength(1);
      expect(events.some((e) => e.type === 'sync.status')).toBe(true);

      // Signing out keeps the replica readable and stops syncing.
      const session = value(await api.session.signOut());
      expect(session).toMatchObject({ signedIn: false, mode: 'offline' });
      expect(value(await api.settings.get())).toMatchObject({ hasAccessToken: false, mode: 'offline' });
      expect(value(await api.stock.cell(palermo)).shown).toBe(40);
      expect(failure(await api.sync.pullNow()).code).toBe('not_signed_in');
    } finally {
      await c.close();
    }
  });

  it('signs in through the browser (OAuth code + PKCE) and syncs with the session', async () => {
    const opened: string[] = [];
    const c = await openCore({ engine, host: { shell: 'browser', openExternal: browserThatApproves('DEPOSITO_NORTE', opened) } });
    const api = c.core.api;
    try {
      expect(failure(await api.session.signIn()).code).toBe('not_configured');
      value(await api.settings.update({ baseUrl: remote.url, applicationId: demo.app }));
      const session = value(await api.session.signIn());
      expect(opened[0]).toMatch(new RegExp(`^${remote.url}/authorization\\?`));
      // Local-only until the person switches: the sign-in itself does not change the mode.
      expect(session).toMatchObject({ signingIn: false });
      expect(value(await api.settings.get())).toMatchObject({ userId: demo.seller.id, mode: 'local-only', hasAccessToken: false });
      value(await api.settings.update({ mode: 'online' }));
      expect(value(await api.session.status())).toMatchObject({ signedIn: true, via: 'oauth', user: { id: demo.seller.id } });
      expect(value(await api.sync.pullNow()).stores).toBe(3);
      expect(existsSync(join(c.dir, 'credentials.db'))).toBe(true);
    } finally {
      await c.close();
    }
  });

  it('a conflict kept from before a restart is as visible as a new one: status, event, grid filter', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-core-'));
    const own = await startTestServer();
    try {
      const first = await DesktopCore.open({ dataDir: dir, engine, log: () => undefined });
      value(
        await first.api.settings.update({ baseUrl: own.url, applicationId: demo.app, userId: demo.seller.id, accessToken: demo.seller.token, mode: 'online' }),
      );
      value(await first.api.sync.pullNow());
      value(await first.api.settings.update({ mode: 'offline' }));
      value(await first.api.stock.count({ ...palermo, quantity: 40 }));
      // Someone else changes the same cell on the marketplace meanwhile.
      await demoRemote(() => own).otherWrite(demo.stores.palermo, 31);
      value(await first.api.settings.update({ mode: 'online' }));
      await until(async () => value(await first.api.sync.status()).conflicts === 1 || undefined, 'the conflict');
      await first.close();

      const again = await DesktopCore.open({ dataDir: dir, engine, log: () => undefined });
      const events: StockroomEvent[] = [];
      again.events.on('event', (e) => events.push(e));
      try {
        expect(value(await again.api.sync.status())).toMatchObject({ conflicts: 1, pending: 0, blocked: 0 });
        const announced = await until(
          () => events.find((e): e is Extract<StockroomEvent, { type: 'sync.conflict' }> => e.type === 'sync.conflict'),
          'the kept conflict announced',
        );
        expect(announced.cell).toBe(`${demo.userProducts.termo}|seller_warehouse|${demo.stores.palermo}`);
        expect(value(await again.api.stock.grid({ filter: 'conflict' })).rows.map((r) => r.userProductId)).toEqual([demo.userProducts.termo]);
        expect(value(await again.api.stock.cell(palermo))).toMatchObject({
          state: 'conflict',
          conflict: { entryId: announced.entryId, local: 40, remote: { quantity: 31 } },
        });
      } finally {
        await again.close();
      }
    } finally {
      await own.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps queued edits across a shutdown and pushes them after the restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-core-'));
    try {
      const first = await DesktopCore.open({ dataDir: dir, engine, log: () => undefined });
      value(
        await first.api.settings.update({
          baseUrl: remote.url,
          applicationId: demo.app,
          userId: demo.seller.id,
          accessToken: demo.seller.token,
          mode: 'offline',
        }),
      );
      value(await first.api.sync.status());
      // The replica needs the products before an edit: pull once online, then work offline.
      value(await first.api.settings.update({ mode: 'online' }));
      value(await first.api.sync.pullNow());
      value(await first.api.settings.update({ mode: 'offline' }));
      const avellaneda = { ...palermo, storeId: demo.stores.avellaneda };
      const before = await remoteQuantity(remote, demo.stores.avellaneda);
      for (let i = 0; i < 20; i++) value(await first.api.stock.adjust({ ...avellaneda, delta: 1 }));
      expect(value(await first.api.sync.status()).pending).toBeGreaterThan(0);
      await first.close();

      const again = await DesktopCore.open({ dataDir: dir, engine, log: () => undefined });
      expect(value(await again.api.settings.get()).mode).toBe('offline');
      expect(value(await again.api.stock.cell(avellaneda)).shown).toBe(before + 20);
      value(await again.api.settings.update({ mode: 'online' }));
      await until(async () => (await remoteQuantity(remote, demo.stores.avellaneda)) === before + 20 || undefined, 'the queued edits on the remote');
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { describe, expect, it } from 'vitest';
import { type IpcEventLike, type IpcHandler, forwardEvents, registerIpc } from '../../main/ipc/register.js';
import { APP_INDEX_URL, appOrigins, isAllowedSenderUrl } from '../../main/security.js';
import { createApi } from '../../common/contract/api.js';
import { CHANNELS, EVENT_CHANNEL, type StockroomEvent } from '../../common/contract/contract.js';
import { type TransportUnderTest, contractSuite } from '../desktop/contract-suite.js';
import { openCore, value } from '../desktop/helpers.js';
import { demo } from '../support/fixtures.js';
import { waitFor } from '../support/wait.js';

/** A fake ipcMain: the real handler functions, kept in a map. */
function fakeIpcMain() {
  const handlers = new Map<string, IpcHandler>();
  return {
    handlers,
    handle: (channel: string, fn: (event: IpcEventLike, payload: unknown) => Promise<unknown>) => {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, fn as IpcHandler);
    },
    removeHandler: (channel: string) => void handlers.delete(channel),
  };
}

const appFrame = { url: APP_INDEX_URL, parent: null };

/**
 * The IPC transport as Electron runs it: the preload's API (createApi) invoking the registered
 * handlers with a synthetic event from the app's frame; payloads and answers are structured-cloned
 * like IPC does; events reach the page through a fake webContents.
 */
async function openIpc(frame: IpcEventLike['senderFrame'] = appFrame) {
  const c = await openCore();
  const ipcMain = fakeIpcMain();
  const unregister = registerIpc(ipcMain, c.core, { isAllowedSender: (url) => isAllowedSenderUrl(url, appOrigins()) });
  const pageListeners = new Set<(e: StockroomEvent) => void>();
  const stopEvents = forwardEvents(c.core.events, () => ({
    isDestroyed: () => false,
    send: (channel, e) => {
      if (channel === EVENT_CHANNEL) for (const l of pageListeners) l(structuredClone(e));
    },
  }));
  const api = createApi({
    invoke: async (channel, payload) => {
      const handler = ipcMain.handlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return structuredClone(await handler({ senderFrame: frame }, structuredClone(payload)));
    },
    listen: (l) => {
      pageListeners.add(l);
      return () => void pageListeners.delete(l);
    },
  });
  return {
    ...c,
    ipcMain,
    api,
    async close() {
      stopEvents();
      unregister();
      await c.close();
    },
  };
}

contractSuite('IPC (ipcMain.handle channels)', async (): Promise<TransportUnderTest> => openIpc());

describe('IPC adapter', () => {
  it('registers exactly one channel per API function, named stockroom:<area>.<function>', async () => {
    const t = await openIpc();
    try {
      expect([...t.ipcMain.handlers.keys()].sort()).toEqual(CHANNELS.map((c) => c.channel).sort());
      expect(t.ipcMain.handlers.has('stockroom:stock.adjust')).toBe(true);
      expect(CHANNELS.length).toBeGreaterThanOrEqual(30);
    } finally {
      await t.close();
    }
    expect(t.ipcMain.handlers.size).toBe(0);
  });

  it('refuses a call from any other sender, before looking at the payload, and changes nothing', async () => {
    const t = await openIpc();
    try {
      const handler = t.ipcMain.handlers.get('stockroom:stock.adjust')!;
      const payload = { userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId: demo.stores.palermo, delta: 3 };
      const senders: IpcEventLike[] = [
        { senderFrame: { url: 'https://evil.example.com/', parent: null } },
        { senderFrame: { url: 'file:///home/user/Downloads/page.html', parent: null } },
        { senderFrame: { url: 'app://stockroom.evil/index.html', parent: null } },
        { senderFrame: { url: 'http://localhost:5173/', parent: null } },
        { senderFrame: { url: APP_INDEX_URL, parent: {} } },
        { senderFrame: null },
        {},
      ];
      for (const event of senders) {
        expect(await handler(event, payload)).toEqual({
          ok: false,
          error: { code: 'forbidden_sender', message: 'This window may not call the app', status: 403 },
        });
        expect(await handler(event, 'not even an object')).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
      }
      const cell = value(await t.api.stock.cell({ userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId: demo.stores.palermo }));
      expect(cell.shown).toBe(12);
      // The app's own frame gets through.
      expect(await handler({ senderFrame: appFrame }, payload)).toMatchObject({ ok: true, value: { shown: 15 } });
    } finally {
      await t.close();
    }
  });

  it('accepts the Vite dev server only when the app was started with it', () => {
    expect(isAllowedSenderUrl('http://localhost:5173/index.html', appOrigins())).toBe(false);
    expect(isAllowedSenderUrl('http://localhost:5173/index.html', appOrigins('http://localhost:5173'))).toBe(true);
    expect(isAllowedSenderUrl('http://localhost:5174/', appOrigins('http://localhost:5173'))).toBe(false);
  });

  it('answers a bad payload with bad_request through the handler itself', async () => {
    const t = await openIpc();
    try {
      const handler = t.ipcMain.handlers.get('stockroom:messages.send')!;
      for (const bad of [undefined, {}, { packId: 'x', text: 'hola' }, { packId: 1, text: 5 }, { packId: 1, text: 'a', fileIds: ['../../x'] }]) {
        const r = await handler({ senderFrame: appFrame }, bad);
        expect(r).toMatchObject({ ok: false, error: { code: 'bad_request', status: 400 } });
      }
    } finally {
      await t.close();
    }
  });

  it('does not forward events to a destroyed window', async () => {
    const t = await openIpc();
    const sent: unknown[] = [];
    const stop = forwardEvents(t.core.events, () => ({ isDestroyed: () => true, send: (_c, e) => sent.push(e) }));
    // A live window next to it: once it has the change, the destroyed one was offered it too (same emit).
    const live: StockroomEvent[] = [];
    const stopLive = forwardEvents(t.core.events, () => ({ isDestroyed: () => false, send: (_c, e) => live.push(e) }));
    try {
      value(await t.api.stock.adjust({ userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId: demo.stores.palermo, delta: 1 }));
      await waitFor(() => live.find((e) => e.type === 'stock.changed'), 'the change forwarded to the live window');
      expect(sent).toEqual([]);
    } finally {
      stop();
      stopLive();
      await t.close();
    }
  });
});

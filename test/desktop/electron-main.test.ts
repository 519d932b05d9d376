/**
 * The built main process (dist/main/app.js, built here into a folder of its own) on the stand-in
 * Electron (test/support/electron-stand-in): what main/app.ts wires to Electron, on every CI run,
 * where Electron itself cannot run. Real Electron runs the e2e scenarios in test/electron
 * (`npm run test:electron`, .github/workflows/electron.yml).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, EVENT_CHANNEL } from '../../common/contract/contract.js';
import { APP_INDEX_URL, contentSecurityPolicy, windowOptions } from '../../main/security.js';
import { LOCK_FILE } from '../../main/desktop/lock.js';
import { fetchAnswer, headersAnswer, navigateAnswer, openWindowAnswer, permissionAnswer, type StandInRecord } from '../support/electron-stand-in/control.js';
import { type StandInApp, type StandInBuild, buildStandInApp, killStandInApps, startStandInApp } from '../support/electron-stand-in/harness.js';
import { demo } from '../support/fixtures.js';
import { buyerSends, demoOrders } from '../support/messages.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { tempDirs } from '../support/temp-dir.js';

let build: StandInBuild;
// Registered before the afterAll below, so removed after it stopped the apps using them.
const newDataDir = tempDirs('stockroom-stand-in-', 'all');

beforeAll(async () => {
  build = await buildStandInApp();
}, 180_000);

afterAll(async () => {
  // What a failed test left running (a passing one quits or kills what it started).
  await killStandInApps();
  build?.remove();
});

/** Starts the app and waits until its window's page loaded and its preload exposed the API. */
async function open(dataDir = newDataDir()): Promise<StandInApp> {
  // The brand links of the tests' example data may open: a configured host (nothing ships allowed).
  const app = startStandInApp(build, { dataDir, env: { STOCKROOM_LINK_HOSTS: 'example.com' } });
  await app.record((r) => r.type === 'preload' && r, 'the preload of the window');
  return app;
}

/** A result of the contract (`{ ok, value }` or `{ ok, error }`), read field by field. */
interface ResultLike {
  ok: boolean;
  value?: unknown;
  error?: { code: string; status?: number };
}

async function call(app: StandInApp, area: string, fn: string, payload?: unknown): Promise<ResultLike> {
  return (await app.command({ cmd: 'api', area, fn, payload })) as ResultLike;
}

/** The value of an ok answer through the page's API; fails with the error otherwise. */
async function value<T>(app: StandInApp, area: string, fn: string, payload?: unknown): Promise<T> {
  const r = await call(app, area, fn, payload);
  if (!r.ok) throw new Error(`${area}.${fn}: expected ok, got ${JSON.stringify(r.error)}`);
  return r.value as T;
}

const of = <T extends StandInRecord['type']>(records: StandInRecord[], type: T) =>
  records.filter((r): r is Extract<StandInRecord, { type: T }> => r.type === type);
const palermo = { userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId: demo.stores.palermo };

describe('the window and its wiring', () => {
  let app: StandInApp;
  beforeAll(async () => {
    app = await open();
  }, 60_000);
  afterAll(async () => {
    await app?.command({ cmd: 'quit' });
    await app?.exited;
  });

  it('registers app:// as privileged before ready and opens one isolated, sandboxed window on it', async () => {
    const types = app.records.map((r) => r.type);
    expect(of(app.records, 'privileged-schemes')).toEqual([
      { type: 'privileged-schemes', schemes: [{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } }] },
    ]);
    expect(types.indexOf('privileged-schemes')).toBeLessThan(types.indexOf('ready'));
    // The renderer runs as the e2e tests and the bench measure it (main/chromium-switches.ts), set before ready.
    expect(of(app.records, 'switch')).toEqual([{ type: 'switch', name: 'disable-features', value: 'DeferRendererTasksAfterInput', afterReady: false }]);
    expect(of(app.records, 'single-instance')).toEqual([{ type: 'single-instance', granted: true }]);
    expect(of(app.records, 'protocol-handled')).toEqual([{ type: 'protocol-handled', scheme: 'app' }]);

    const windows = of(app.records, 'window');
    expect(windows).toHaveLength(1);
    const preload = join(build.dist, 'preload', 'index.cjs');
    const expected = windowOptions({ preload, packaged: false });
    expect(windows[0]!.options).toMatchObject({ ...expected, webPreferences: expected.webPreferences });
    expect(windows[0]!.options.webPreferences).toEqual(expected.webPreferences);
    expect(windows[0]!.options.webPreferences).toMatchObject({ contextIsolation: true, nodeIntegration: false, sandbox: true, webSecurity: true, preload });
    expect(existsSync(preload)).toBe(true);

    // The page comes through the app's own protocol, and the sandboxed preload exposed exactly one API.
    expect(of(app.records, 'load')).toEqual([{ type: 'load', window: windows[0]!.window, url: APP_INDEX_URL, status: 200 }]);
    expect(of(app.records, 'preload')).toEqual([{ type: 'preload', window: windows[0]!.window, exposed: ['stockroom'] }]);
    // Created hidden (show: false), shown once ready to show.
    await app.record((r) => r.type === 'window-call' && r.method === 'show', 'the window shown');
    expect(of(app.records, 'menu')[0]?.items.length).toBeGreaterThan(0);
    expect(of(app.records, 'error-box')).toEqual([]);
  });

  it('handles exactly one IPC channel per channel of the contract', () => {
    const handled = of(app.records, 'ipc-handled').map((r) => r.channel);
    expect(handled.sort()).toEqual(CHANNELS.map((c) => c.channel).sort());
  });

  it('answers the page through its preload, and refuses a foreign page, a frame inside the page and a bad payload', async () => {
    const info = await value<{ name: string; shell: string; version: string }>(app, 'app', 'info');
    expect(info).toMatchObject({ name: 'Stockroom', shell: 'electron', version: '0.1.0' });
    expect((await value<{ total: number }>(app, 'stock', 'grid')).total).toBe(5);

    const grid = CHANNELS.find((c) => c.area === 'stock' && c.fn === 'grid')!.channel;
    for (const senderUrl of ['https://evil.example/index.html', 'app://evil/index.html', 'file:///index.html', 'http://127.0.0.1:5173/', '']) {
      expect(await app.command({ cmd: 'invoke', channel: grid, payload: {}, senderUrl }), senderUrl).toMatchObject({
        ok: false,
        error: { code: 'forbidden_sender', status: 403 },
      });
    }
    expect(await app.command({ cmd: 'invoke', channel: grid, payload: {}, subframe: true })).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    // The same call from the page itself is answered.
    expect(await app.command({ cmd: 'invoke', channel: grid, payload: {} })).toMatchObject({ ok: true });
    expect(await call(app, 'stock', 'count', { ...palermo, quantity: 'forty' })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    await expect(app.command({ cmd: 'invoke', channel: 'stockroom:nothing.here', payload: {} })).rejects.toThrow(/No handler registered/);
  });

  it('serves the built renderer with its CSP, and nothing outside it', async () => {
    const csp = contentSecurityPolicy();
    const fetch = async (url: string, method?: string) => fetchAnswer.parse(await app.command({ cmd: 'fetch', url, ...(method ? { method } : {}) }));

    const index = await fetch(APP_INDEX_URL);
    expect(index.status).toBe(200);
    expect(index.headers).toMatchObject({
      'content-type': expect.stringMatching(/^text\/html/),
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
    });
    const html = readFileSync(join(build.dist, 'renderer', 'index.html'), 'utf8');
    expect(Buffer.from(index.body).toString('utf8')).toBe(html);
    expect((await fetch('app://stockroom/')).status).toBe(200);

    // Every script and stylesheet the page names is served, with the type a browser needs and the CSP.
    const assets = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    for (const asset of assets) {
      const res = await fetch(`app://stockroom/${asset}`);
      expect(res.status, asset).toBe(200);
      expect(res.headers['content-security-policy']).toBe(csp);
      expect(res.headers['content-type']).toMatch(asset.endsWith('.js') ? /javascript/ : asset.endsWith('.css') ? /text\/css/ : /./);
    }

    // Outside the renderer folder: dist/main/app.js and package.json exist next to it and must not leak.
    for (const url of [
      'app://stockroom/../../etc/passwd',
      'app://stockroom/%2e%2e/%2e%2e/etc/passwd',
      'app://stockroom/..%2f..%2f..%2f..%2fetc%2fpasswd',
      'app://stockroom/..%2fmain%2fapp.js',
      'app://stockroom/assets/..%2f..%2fmain%2fapp.js',
      'app://stockroom/%2e%2e%2fmain%2fapp.js',
      'app://stockroom/..%5cmain%5capp.js',
      'app://stockroom/%252e%252e%252fmain%252fapp.js',
      'app://stockroom/..%2f..%2f..%2f..%2fpackage.json',
      'app://stockroom/nothing-here.js',
      'app://other-host/index.html',
    ]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(404);
      expect(Buffer.from(res.body).toString('utf8'), url).toBe('Not found');
    }
    expect((await fetch(APP_INDEX_URL, 'POST')).status).toBe(404);

    // A page over http(s) (the dev server) gets the CSP added to its headers.
    const headers = headersAnswer.parse(await app.command({ cmd: 'headers', url: 'http://127.0.0.1:5173/' }));
    expect(headers.responseHeaders['Content-Security-Policy']).toEqual([csp]);
  });

  it('denies every permission and every navigation; only allow-listed https links leave, to the system browser', async () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen']) {
      expect(permissionAnswer.parse(await app.command({ cmd: 'permission', permission })), permission).toEqual({ requested: false, checked: false });
    }
    const from = app.records.length;
    expect(navigateAnswer.parse(await app.command({ cmd: 'navigate', url: 'https://evil.example/phish' }))).toEqual({ prevented: true });
    expect(navigateAnswer.parse(await app.command({ cmd: 'navigate', url: 'file:///etc/passwd' }))).toEqual({ prevented: true });
    expect(navigateAnswer.parse(await app.command({ cmd: 'navigate', url: 'https://www.example.com/brand' }))).toEqual({ prevented: true });
    expect(openWindowAnswer.parse(await app.command({ cmd: 'open-window', url: 'https://evil.example/' }))).toEqual({ action: 'deny' });
    expect(openWindowAnswer.parse(await app.command({ cmd: 'open-window', url: 'http://example.com/plain' }))).toEqual({ action: 'deny' });
    expect(openWindowAnswer.parse(await app.command({ cmd: 'open-window', url: 'https://example.com/help' }))).toEqual({ action: 'deny' });
    // Replies come after the records made before them: these are all the links that left.
    expect(of(app.records.slice(from), 'open-external').map((r) => r.url)).toEqual(['https://www.example.com/brand', 'https://example.com/help']);
  });

  it('shows the number of conversations with unread messages on the dock or launcher (an overlay on Windows)', async () => {
    const unread = await value<{ total: number }>(app, 'messages', 'conversations', { filter: 'unread', limit: 1 });
    expect(unread.total).toBeGreaterThan(0);
    if (process.platform === 'win32') {
      const overlay = await app.record((r) => r.type === 'window-call' && r.method === 'setOverlayIcon' && r.args[0] !== null && r, 'the overlay icon');
      expect(overlay.args[1]).toMatch(String(unread.total));
    } else {
      await app.record((r) => r.type === 'badge' && r.count === unread.total, `the badge at ${unread.total}`);
    }
  });
});

describe('persistence', () => {
  it('keeps a stock edit and the window position across a clean quit, and an edit across a SIGKILL', async () => {
    const dataDir = newDataDir();
    const first = await open(dataDir);
    expect((await value<{ shown: number }>(first, 'stock', 'cell', palermo)).shown).toBe(12);
    await value(first, 'stock', 'count', { ...palermo, quantity: 41 });
    await first.command({ cmd: 'set-bounds', bounds: { x: 120, y: 80, width: 1000, height: 700 } });
    await first.command({ cmd: 'quit' });
    expect(await first.exited).toEqual({ code: 0, signal: null });
    // The quit waited for the core to close (before-quit prevented once, then the real quit).
    expect(of(first.records, 'quit').map((r) => r.phase)).toEqual(['before-quit', 'prevented', 'before-quit', 'will-quit']);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);

    const second = await open(dataDir);
    expect(of(second.records, 'window')[0]!.options).toMatchObject({ x: 120, y: 80, width: 1000, height: 700 });
    expect((await value<{ shown: number }>(second, 'stock', 'cell', palermo)).shown).toBe(41);
    await value(second, 'stock', 'adjust', { ...palermo, delta: 2 });
    // The answer came: the edit is on disk. Nothing gets to close.
    expect(await second.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    const third = await open(dataDir);
    expect((await value<{ shown: number }>(third, 'stock', 'cell', palermo)).shown).toBe(43);
    await third.command({ cmd: 'quit' });
    expect((await third.exited).code).toBe(0);
  });

  it('keeps one instance per data folder: a second start focuses the first window and quits', async () => {
    const dataDir = newDataDir();
    const first = await open(dataDir);
    const from = first.records.length;
    const second = startStandInApp(build, { dataDir });
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(of(second.records, 'single-instance')).toEqual([{ type: 'single-instance', granted: false }]);
    expect(of(second.records, 'window')).toEqual([]);
    const told = await first.record((r) => r.type === 'second-instance' && r, 'the first instance told', from);
    expect(told.argv).toContain(build.appJs);
    const after = first.records.indexOf(told);
    await first.record((r) => r.type === 'window-call' && r.method === 'focus', 'the first window focused', after);
    // The first instance still answers.
    expect((await value<{ total: number }>(first, 'stock', 'grid')).total).toBe(5);
    await first.command({ cmd: 'quit' });
    expect((await first.exited).code).toBe(0);
  });
});

describe('notifications', () => {
  let remote: TestServer;
  beforeAll(async () => {
    remote = await startTestServer();
  });
  afterAll(() => remote?.close());

  it('a new buyer message shows a notification; its click focuses the window and reveals the conversation', async () => {
    const dataDir = newDataDir();
    const app = await open(dataDir);
    await value(app, 'settings', 'update', {
      baseUrl: remote.url,
      applicationId: demo.app,
      userId: demo.seller.id,
      accessToken: demo.seller.token,
      mode: 'online',
    });
    // The token went through safeStorage: never in the clear in the data folder's settings.
    expect(readFileSync(join(dataDir, 'settings.json'), 'utf8')).not.toContain(demo.seller.token);
    // The first pull brings the history (not news); then the buyer writes and the next pull brings it.
    await value(app, 'sync', 'pullNow');
    const text = '¿Me pasás el seguimiento del envío?';
    expect((await buyerSends(remote.as(demo.buyer.token), demoOrders.packed.pack, text)).status).toBe(201);
    await value(app, 'sync', 'pullNow');
    const shown = await app.record((r) => r.type === 'notification' && r, 'a notification');
    expect(shown).toMatchObject({ title: 'New buyer message', body: text });
    expect(of(app.records, 'notification')).toHaveLength(1);

    const from = app.records.length;
    await app.command({ cmd: 'click-notification', id: shown.id });
    const reveal = await app.record(
      (r) => r.type === 'send' && r.channel === EVENT_CHANNEL && (r.args[0] as { type?: string }).type === 'app.reveal' && r,
      'the app.reveal event to the window',
      from,
    );
    expect(reveal.args).toEqual([{ type: 'app.reveal', target: { screen: 'conversation', packId: demoOrders.packed.pack } }]);
    const calls = of(app.records.slice(from), 'window-call').map((r) => r.method);
    expect(calls).toEqual(expect.arrayContaining(['show', 'focus']));
    await app.command({ cmd: 'quit' });
    expect((await app.exited).code).toBe(0);
  });
});

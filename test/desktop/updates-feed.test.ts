/**
 * The updater for real, here: electron-updater's own AppImageUpdater (with its Electron app adapter
 * and HTTP executor over a stand-in `electron` module) against a generic feed served on 127.0.0.1,
 * driven by the desktop core's update policy, with the core online against a real remote behind the
 * fault proxy. A check finds the newer version, the download reports its progress and is verified
 * (a wrong sha512 is an error), and "Restart to update" waits for the outbox: the install (the
 * downloaded AppImage replacing the running one, then started) happens only once the change on the
 * wire has reached the marketplace.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import electronUpdater from 'electron-updater';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CoreOptions } from '../../main/desktop/core.js';
import { electronUpdaterPort } from '../../main/updater-electron.js';
import type { StockroomEvent, SyncStatusView, UpdateView } from '../../common/contract/contract.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { demo } from '../support/fixtures.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { FAST_RETRY } from '../support/sync-harness.js';
import { tempDirs } from '../support/temp-dir.js';
import { type ElectronStandIn, type Release, installElectronStandIn, startUpdateFeed } from '../support/update-feed.js';
import { failure, openCore, until, value } from './helpers.js';

const palermo = { userProductId: demo.userProducts.termo, type: 'seller_warehouse' as const, storeId: demo.stores.palermo };
const engine = { pollIntervalMs: 0, pullOnStart: false, retry: FAST_RETRY };
// Checks only when the test asks (the schedule is the policy tests' subject).
const policy = { firstCheckAfterMs: 3600_000 };

// Removed after the file's own afterAll below (registered first, so run last).
const tmp = tempDirs('stockroom-updates-', 'all');

/** The "new AppImage": a script that, started by the updater after the install, says it ran. */
const newAppImage = (version: string) =>
  Buffer.from(`#!/bin/sh\n# Stockroom ${version}\nprintf '%s' "$APPIMAGE_SILENT_INSTALL" > "$STOCKROOM_TEST_INSTALLED"\n`);

let remote: TestServer;
let proxy: FaultProxy;
let standIn: ElectronStandIn;
let home: string;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  remote = await startTestServer();
  proxy = await startFaultProxy(remote.url);
  home = tmp('stockroom-updater-home-');
  standIn = installElectronStandIn({ version: '1.0.0', userData: home });
});

afterAll(async () => {
  standIn.remove();
  await proxy.close();
  await remote.close();
});

// What electron-updater reads from the environment: the running AppImage, the cache folder.
let appImage: string;
let installed: string;
beforeEach(() => {
  for (const k of ['APPIMAGE', 'XDG_CACHE_HOME', 'STOCKROOM_TEST_INSTALLED']) saved[k] = process.env[k];
  const dir = tmp('stockroom-appimage-');
  appImage = join(dir, 'Stockroom.AppImage');
  writeFileSync(appImage, '#!/bin/sh\n# Stockroom 1.0.0\n');
  chmodSync(appImage, 0o755);
  installed = join(dir, 'installed');
  process.env.APPIMAGE = appImage;
  process.env.XDG_CACHE_HOME = tmp('stockroom-cache-');
  process.env.STOCKROOM_TEST_INSTALLED = installed;
  standIn.quits = 0;
  standIn.onQuit = null;
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** A core whose updates go through a fresh AppImageUpdater (the production wiring) to `feedUrl`. */
async function coreWithUpdater(feedUrl: string, options: Partial<CoreOptions> = {}) {
  const logged: string[] = [];
  // Not packaged: an installed app ignores a feed given at run time (updates-config.test.ts).
  const updater = electronUpdaterPort({
    app: { isPackaged: false, getPath: () => home },
    feedUrl,
    updater: new electronUpdater.AppImageUpdater(),
    log: (m) => logged.push(m),
  });
  if (!updater) throw new Error('the updater should be on with a feed');
  const c = await openCore({ engine, updates: { updater, policy }, ...options });
  const states: UpdateView[] = [];
  c.core.events.on('event', (e: StockroomEvent) => {
    if (e.type === 'update.state') states.push(e.update);
  });
  return { ...c, states, logged };
}

const release = (version: string, extra: Partial<Release> = {}): Release => ({
  version,
  file: `Stockroom-${version}.AppImage`,
  bytes: newAppImage(version),
  ...extra,
});

async function remoteQuantity(): Promise<number> {
  const res = await remote.as(demo.seller.token).get(`/user-products/${demo.userProducts.termo}/stock`);
  return (res.body as { locations: { store_id?: string; quantity: number }[] }).locations.find((l) => l.store_id === demo.stores.palermo)!.quantity;
}

describe('electron-updater against a feed on loopback', () => {
  it('finds nothing when the feed has the running version', async () => {
    const feed = await startUpdateFeed(release('1.0.0'));
    const c = await coreWithUpdater(feed.url);
    try {
      expect(value(await c.core.api.updates.check())).toMatchObject({ state: 'idle' });
      expect(feed.requests).toEqual(['/latest-linux.yml']);
      expect(c.states.map((s) => s.state)).toEqual(['checking', 'idle']);
    } finally {
      await c.close();
      await feed.close();
    }
  });

  it('finds the newer version, downloads it with progress, and installs it only once the change on the wire has reached the marketplace', async () => {
    const r = release('1.1.0');
    const feed = await startUpdateFeed(r);
    const c = await coreWithUpdater(feed.url);
    const api = c.core.api;
    try {
      value(await api.settings.update({ baseUrl: proxy.url, applicationId: demo.app, userId: demo.seller.id, accessToken: demo.seller.token, mode: 'online' }));
      value(await api.sync.pullNow());
      const before = await remoteQuantity();

      // The check finds 1.1.0 and the download starts in the background: held half-way by the feed.
      const held = feed.holdDownload();
      expect(value(await api.updates.check())).toMatchObject({ state: 'downloading', version: '1.1.0' });
      await held.sent;
      expect(value(await api.updates.status())).toMatchObject({ state: 'downloading', version: '1.1.0' });
      // Nothing to install yet.
      expect(failure(await api.updates.install()).code).toBe('not_found');
      held.release();
      const ready = await until(() => c.states.find((s) => s.state === 'ready'), 'the update downloaded');
      expect(ready).toEqual({ state: 'ready', version: '1.1.0', restartRequested: false, waitingFor: 0 });
      // The progress reached the screens: the whole file, verified against the feed's sha512.
      expect(c.states).toContainEqual({ state: 'downloading', version: '1.1.0', percent: 100, transferred: r.bytes.length, total: r.bytes.length });
      expect(feed.requests).toContain(`/${r.file}`);

      // A change is on the wire (the remote holds it), and the person asks for the restart.
      const put = proxy.hold((m, p) => m === 'PUT' && p.includes('/stock'));
      value(await api.stock.adjust({ ...palermo, delta: 4 }));
      await put.arrived;
      let atQuit: SyncStatusView | null = null;
      standIn.onQuit = () => (atQuit = c.core.status());
      expect(value(await api.updates.install())).toEqual({ state: 'ready', version: '1.1.0', restartRequested: true, waitingFor: 1 });
      // Still waiting: nothing installed, the app still running, the running AppImage untouched.
      expect(value(await api.updates.status())).toMatchObject({ state: 'ready', waitingFor: 1 });
      expect(standIn.quits).toBe(0);
      expect(readFileSync(appImage, 'utf8')).toContain('1.0.0');

      put.release();
      // Sent, then installed: the new AppImage replaced the old one, was started silently, and the app quit.
      await until(() => standIn.quits === 1, 'the app to quit for the update');
      expect(await remoteQuantity()).toBe(before + 4);
      expect(atQuit).toMatchObject({ pending: 0, inFlight: 0 });
      expect(c.states.at(-1)).toEqual({ state: 'installing', version: '1.1.0' });
      expect(readFileSync(appImage, 'utf8')).toContain('Stockroom 1.1.0');
      expect(await until(() => existsSync(installed) && readFileSync(installed, 'utf8'), 'the new version to start')).toBe('true');
    } finally {
      await c.close();
      await feed.close();
    }
  });

  it('refuses a download whose sha512 does not match the feed: an error, nothing to install', async () => {
    const feed = await startUpdateFeed(release('1.2.0', { sha512: Buffer.alloc(64, 7).toString('base64') }));
    const c = await coreWithUpdater(feed.url);
    try {
      value(await c.core.api.updates.check());
      const error = await until(() => c.states.find((s) => s.state === 'error'), 'the download to fail');
      expect(error).toMatchObject({ state: 'error', during: 'download' });
      expect(error.state === 'error' && error.message).toMatch(/sha512 checksum mismatch/);
      expect(c.states.some((s) => s.state === 'ready')).toBe(false);
      expect(failure(await c.core.api.updates.install()).code).toBe('not_found');
      expect(standIn.quits).toBe(0);
      expect(readFileSync(appImage, 'utf8')).toContain('1.0.0');
    } finally {
      await c.close();
      await feed.close();
    }
  });
});

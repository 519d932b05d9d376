/**
 * Connecting the app under test to a remote marketplace (a second real server, test/support/server.ts)
 * as the demo data's seller, the way the Settings screen does, through the core's own API.
 */
import { afterAll, beforeAll } from 'vitest';
import type { FixtureFile } from '../../../main/fixtures/schema.js';
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy.js';
import { demo } from '../../support/fixtures.js';
import { type TestServer, startTestServer } from '../../support/server.js';
import { FAST_RETRY } from '../../support/sync-harness.js';
import { type BrowserApp, type BrowserAppOptions, startBrowserApp } from './browser.js';

/** Settings → online against `baseUrl` with the demo seller's token; throws with the core's reason if refused. */
export async function connectAsDemoSeller(app: BrowserApp, baseUrl: string, o: { start?: 'account' } = {}): Promise<void> {
  const r = await app.core.api.settings.update({
    mode: 'online',
    baseUrl,
    applicationId: demo.app,
    userId: demo.seller.id,
    accessToken: demo.seller.token,
    ...o,
  });
  if (!r.ok) throw new Error(`connecting to ${baseUrl} failed: ${r.error.message}`);
}

/** The remote marketplace and the app of a file's (or a describe's) online flows. */
export interface RemoteAndApp {
  /** The remote marketplace: a real server on 127.0.0.1, over the demo data unless `fixtures` says otherwise. */
  readonly remote: TestServer;
  /** The app in Chromium (core + browser-mode server), local-only until connected. */
  readonly app: BrowserApp;
  /** The fault proxy between them, with `throughProxy` (connected through it). */
  readonly proxy: FaultProxy;
}

type EngineTuning = NonNullable<NonNullable<BrowserAppOptions['core']>['engine']>;

/**
 * The online e2e flows' setup, written out in each of them before: the remote marketplace, then
 * the app with its sync engine retrying fast (FAST_RETRY, plus `engine`), both started before the
 * tests of the file or `describe` it is called in and closed after them (the app first). With
 * `connectAsDemoSeller` the app is also connected as the demo seller before the first test; a flow
 * that connects through the Settings screen itself leaves it out. With `throughProxy` the app talks to
 * the remote through a fault proxy (test/support/fault-proxy.ts); a function there is called with it
 * before connecting (to hold answers from the first request on). Read `remote`, `app` and `proxy`
 * inside the tests (they exist from the before hook on).
 */
export function remoteMarketplaceAndApp(
  o: {
    fixtures?: () => FixtureFile;
    engine?: EngineTuning;
    connectAsDemoSeller?: { start?: 'account' };
    throughProxy?: true | ((proxy: FaultProxy) => void);
  } = {},
): RemoteAndApp {
  let remote: TestServer | undefined;
  let app: BrowserApp | undefined;
  let proxy: FaultProxy | undefined;
  beforeAll(async () => {
    remote = await startTestServer(o.fixtures?.());
    if (o.throughProxy) proxy = await startFaultProxy(remote.url);
    app = await startBrowserApp({ core: { engine: { retry: FAST_RETRY, ...o.engine } } });
    if (typeof o.throughProxy === 'function') o.throughProxy(proxy!);
    if (o.connectAsDemoSeller) await connectAsDemoSeller(app, (proxy ?? remote).url, o.connectAsDemoSeller);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await remote?.close();
  });
  const started = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`the ${what} runs only inside a test (remoteMarketplaceAndApp starts it in a beforeAll)`);
    return v;
  };
  return {
    get remote() {
      return started(remote, 'remote marketplace');
    },
    get app() {
      return started(app, 'app');
    },
    get proxy() {
      return started(proxy, 'fault proxy (asked for with throughProxy)');
    },
  };
}

/** How many of the demo termo the remote holds at `storeId`, read as the demo seller. */
export async function remoteTermoQuantity(remote: TestServer, storeId: string): Promise<number> {
  const res = await remote.as(demo.seller.token).get(`/user-products/${demo.userProducts.termo}/stock`);
  return (res.body as { locations: { store_id?: string; quantity: number }[] }).locations.find((l) => l.store_id === storeId)!.quantity;
}

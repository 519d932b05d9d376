import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CredentialStore, plainCipher } from '../../main/sync/auth/credential-store.js';
import { TokenManager } from '../../main/sync/auth/token-manager.js';
import type { SyncEngine } from '../../main/sync/engine.js';
import { type FaultProxy, mulberry32, startFaultProxy } from '../support/fault-proxy.js';
import { demo } from '../support/fixtures.js';
import { manualClock } from '../support/messages.js';
import { browserThatApproves } from '../support/oauth.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { type Replica, demoWithProducts, newEngine, newReplica, readRemoteStock } from '../support/sync-harness.js';

/**
 * The engine signed in through OAuth (the OAuth helper's TokenManager) against a remote whose
 * access tokens live one second, during a burst of edits that lasts several seconds: tokens expire
 * mid-burst, and no request may fail for it.
 *
 * The seconds are the marketplace's clock, a manual one the test moves: the burst goes in rounds
 * (edits queued, sent, then the clock moves 50 ms), 3.5 s of it. A token expires where the test
 * says, whatever the machine's speed: with real seconds, a busy machine could hold a request longer
 * than the refresh margin (100 ms of a 1 s token) and see it expire on the way.
 */
const { fixtures, products } = demoWithProducts(10);
const stores = [demo.stores.palermo, demo.stores.avellaneda];
const BURST_MS = 3500;
const STEP_MS = 50;
const EDITS_PER_STEP = 8;
const clock = manualClock(Date.now());
let server: TestServer;
let proxy: FaultProxy;
let replica: Replica;
let engine: SyncEngine | undefined;
let dir: string;
let files = 0;

beforeAll(async () => {
  server = await startTestServer(fixtures, { accessTokenTtlSeconds: 1, clock });
  dir = mkdtempSync(join(tmpdir(), 'stockroom-token-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  proxy = await startFaultProxy(server.url);
  replica = newReplica();
});
afterEach(async () => {
  await engine?.stop();
  await proxy.close();
  replica.remove();
});

async function burst(manager: TokenManager, seed: number) {
  engine = newEngine(replica, { url: proxy.url, sellerId: demo.seller.id, auth: manager }, { concurrency: 8 });
  const failures: string[] = [];
  const retries: (number | null)[] = [];
  engine.on('failed', (f) => failures.push(f.error));
  engine.on('retry', (r) => retries.push(r.status));
  engine.start();
  await engine.pullNow();
  const before = await readRemoteStock(server.url, demo.seller.token, products);
  const random = mulberry32(seed);
  const sums = new Map<string, number>();
  const started = clock.now();
  for (let i = 0; clock.now() - started < BURST_MS;) {
    for (let k = 0; k < EDITS_PER_STEP; k++, i++) {
      const up = products[Math.floor(random() * products.length)]!;
      const store = stores[i % 2]!;
      const delta = 1 + Math.floor(random() * 3);
      engine.queueAdjustment({ userProductId: up, type: 'seller_warehouse', storeId: store, delta });
      sums.set(`${up}|${store}`, (sums.get(`${up}|${store}`) ?? 0) + delta);
    }
    // The clock moves between rounds, never under a request on the wire.
    await engine.drain(30_000);
    clock.advance(STEP_MS);
  }
  await engine.drain(30_000);
  const after = await readRemoteStock(server.url, demo.seller.token, products);
  for (const up of products) {
    for (const store of stores) {
      const key = `seller_warehouse|${store}`;
      expect(after.get(up)!.cells.get(key), `${up} ${store}`).toBe(before.get(up)!.cells.get(key)! + (sums.get(`${up}|${store}`) ?? 0));
    }
  }
  expect(failures).toEqual([]);
  expect(retries.filter((s) => s === 401)).toEqual([]);
  expect(engine.status()).toMatchObject({ pending: 0, failed: 0 });
  return { requests: proxy.log.length };
}

describe('tokens that expire mid-burst', () => {
  it('refreshed ahead of expiry by the TokenManager: nothing fails', async () => {
    const store = CredentialStore.open(join(dir, `c${++files}.db`), plainCipher);
    const manager = await TokenManager.signIn({ store, baseUrl: server.url, applicationId: demo.app, openExternal: browserThatApproves(), clock });
    const { requests } = await burst(manager, 1);
    expect(manager.refreshCount).toBeGreaterThanOrEqual(2);
    expect(requests).toBeGreaterThan(100);
  }, 30_000);

  it('rejected with 401 (the client clock is behind): one refresh, the request is resent, nothing fails', async () => {
    // The manager's clock stands still, so it never refreshes on its own: every expiry is a 401.
    const t0 = clock.now();
    const frozen = { now: () => t0 };
    const store = CredentialStore.open(join(dir, `c${++files}.db`), plainCipher);
    const manager = await TokenManager.signIn({ store, baseUrl: server.url, applicationId: demo.app, openExternal: browserThatApproves(), clock: frozen });
    await burst(manager, 2);
    const rejected = proxy.log.filter((l) => l.status === 401).length;
    expect(rejected).toBeGreaterThan(0);
    expect(manager.refreshCount).toBeGreaterThanOrEqual(2);
  }, 30_000);
});

import { phaseOf } from '../../main/sync/model.js';
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../main/sync/engine.js';
import { cellView } from '../../main/sync/read-model.js';
import type { RetryPolicy } from '../../main/sync/retry.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { demo } from '../support/fixtures.js';
import { demoRemote, termoCells } from '../support/demo-remote.js';
import { type TestServer, startTestServer } from '../support/server.js';
import {
  FAST_RETRY,
  type Replica,
  newEngine,
  newReplica,
  readRemoteStock,
  startSyncedReplica,
  stopSyncedReplica,
  syncMarket,
  waitFor,
} from '../support/sync-harness.js';

/**
 * The sync under the faults that cost edits or attempts before: answers lost after the remote
 * applied a request, a 409 whose re-read fails, a long backoff when the remote is back. A real
 * remote (the project's server on loopback) behind the fault proxy, a real replica file.
 */
let server: TestServer;
let proxy: FaultProxy;
let replica: Replica;
let engine: SyncEngine;

const { termo, palermo, avellaneda, palermoRef } = termoCells;
const { remoteQty, otherWrite } = demoRemote(() => server);
const isPut = (m: string) => m === 'PUT';
const isStockGet = (m: string, p: string) => m === 'GET' && p.endsWith('/stock');
/** What the remote stored for an idempotency key (the answer it replays). */
function storedAnswer(key: string): { locations: { store_id?: string; quantity: number }[] } {
  const row = server.db.prepare<[string], { body: string }>('SELECT body FROM idempotency_keys WHERE key = ?').get(key);
  return JSON.parse(row!.body) as { locations: { store_id?: string; quantity: number }[] };
}
async function restartEngine(retry: Partial<RetryPolicy>) {
  await engine.stop();
  engine = newEngine(replica, { url: proxy.url, token: demo.seller.token, sellerId: demo.seller.id }, { retry });
  engine.start();
}
const puts = (via: FaultProxy = proxy) => via.log.filter((l) => l.method === 'PUT');

beforeEach(async () => {
  ({ server, proxy, replica, engine } = await startSyncedReplica());
});
afterEach(() => stopSyncedReplica({ server, proxy, replica, engine }));

describe('an acknowledged count is never lost under an old key', () => {
  it('a count typed behind an entry whose answers were lost waits for its outcome, then goes with no false conflict', async () => {
    await restartEngine({ ...FAST_RETRY, maxAttempts: 3 });
    // Every answer to the first count is lost after the remote applied it.
    proxy.inject('reset', 3, isPut);
    const first = engine.queueCount({ ...palermo, quantity: 100 });
    await engine.drain();
    const failed = engine.outbox.repo.byId(first.entryId!)!;
    expect(failed).toMatchObject({ state: 'failed', attempts: 3 });
    expect(phaseOf(failed)).toBe('unknown');
    expect(cellView(replica.db, palermoRef)).toMatchObject({ state: 'failed', error: { unknown: true } });
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(100);
    const oldKey = failed.idempotency_key;

    // The network is back; the person counts 200 on the same cell, and is told it is saved. It is
    // its own entry: the one of unknown outcome is never changed.
    const second = engine.queueCount({ ...palermo, quantity: 200 });
    expect(second).toMatchObject({ how: 'queued', shown: 200 });
    expect(second.entryId).not.toBe(first.entryId);
    await engine.drain();
    expect(engine.status()).toMatchObject({ failed: 0, unknown: 1, blocked: 1 });

    // Retry resends under the same key: the remote replays its answer (it had applied the 100).
    engine.retry(first.entryId!);
    await engine.drain();
    const keys = puts().map((p) => p.key);
    expect(keys.slice(0, 4)).toEqual([oldKey, oldKey, oldKey, oldKey]);
    expect(storedAnswer(oldKey!).locations.find((l) => l.store_id === demo.stores.palermo)!.quantity).toBe(100);
    // The second count's base counted on the first: the remote did not change under it, so no conflict.
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(200);
    expect(engine.status()).toMatchObject({ conflicts: 0, failed: 0, pending: 0, blocked: 0 });
    expect(cellView(replica.db, palermoRef)).toMatchObject({ state: 'synced', shown: 200 });
  });

  it('after a 409 the rebased request goes out under a fresh key; a resend after a lost answer keeps it', async () => {
    await otherWrite(demo.stores.palermo, 20);
    proxy.inject('reset', 1, (m, p) => isPut(m) && proxy.log.filter((l) => l.method === 'PUT').length > 1 && p.includes('/stock/'));
    const r = engine.queueAdjustment({ ...palermo, delta: -3 });
    await engine.drain();
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(17);
    const sent = puts().map((p) => ({ key: p.key, status: p.status, fault: p.fault }));
    // 409 under the queued key; the rebased request under a new one, its answer lost, resent under the same new key.
    expect(sent).toEqual([
      { key: sent[0]!.key, status: 409, fault: null },
      { key: sent[1]!.key, status: 200, fault: 'reset' },
      { key: sent[1]!.key, status: 200, fault: null },
    ]);
    expect(sent[1]!.key).not.toBe(sent[0]!.key);
    expect(engine.outbox.repo.byId(r.entryId!)).toMatchObject({ state: 'done', idempotency_key: sent[1]!.key });
  });
});

describe('no attempt is wasted', () => {
  it('after a 409 whose re-read fails, the next attempt reads first instead of resending a stale x-version', async () => {
    await otherWrite(demo.stores.palermo, 20);
    proxy.inject('error500', 1, isStockGet);
    const errors: (string | null)[] = [];
    engine.on('retry', () => errors.push(engine.status().lastError));
    const from = proxy.log.length;
    engine.queueAdjustment({ ...palermo, delta: 1 });
    await engine.drain();
    const traffic = proxy.log.slice(from).map((l) => `${l.method} ${isStockGet(l.method, l.path) ? 'stock' : 'put'} ${l.fault ?? l.status}`);
    expect(traffic).toEqual(['PUT put 409', 'GET stock error500', 'GET stock 200', 'PUT put 200']);
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(21);
    // The failure was reported while it lasted, and cleared by the success.
    expect(errors).toEqual(['Injected 500']);
    expect(engine.status().lastError).toBeNull();
  });

  it('an entry waiting out a backoff with no request outstanding holds back only its own cell; the remote answering again ends the wait', async () => {
    // A backoff of 30–60 s after one failure: the drain below would time out if anything waited it out.
    await restartEngine({ ...FAST_RETRY, baseMs: 60_000, maxMs: 600_000 });
    const demoAvellaneda = (await remoteQty(termo, `seller_warehouse|${demo.stores.avellaneda}`))!;
    const delays: number[] = [];
    engine.on('retry', (r) => delays.push(r.delayMs));
    // X meets a 409 and its re-read fails: its request is refused (nothing outstanding), it waits.
    await otherWrite(demo.stores.palermo, 20);
    proxy.inject('error500', 1, isStockGet);
    const from = proxy.log.length;
    const x = engine.queueAdjustment({ ...palermo, delta: 1 });
    await waitFor(() => delays.length === 1, 'the failed re-read');
    expect(delays[0]).toBeGreaterThanOrEqual(30_000);
    expect(engine.outbox.repo.byId(x.entryId!)).toMatchObject({ state: 'pending', sent_version: null, needs_read: 1 });
    // Another cell of the same product is not held behind it...
    const y = engine.queueAdjustment({ ...avellaneda, delta: 2 });
    await engine.drain(10_000);
    // ...and its success shows the remote is back, so the waiting entry went too (reading first).
    expect(engine.outbox.repo.byId(y.entryId!)!.state).toBe('done');
    expect(engine.outbox.repo.byId(x.entryId!)!.state).toBe('done');
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(21);
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.avellaneda}`)).toBe(demoAvellaneda + 2);
    const traffic = proxy.log.slice(from).map((l) => `${l.method} ${l.path.endsWith('/stock') ? 'stock' : 'put'} ${l.fault ?? l.status}`);
    expect(traffic).toEqual(['PUT put 409', 'GET stock error500', 'PUT put 409', 'GET stock 200', 'PUT put 200', 'GET stock 200', 'PUT put 200']);
  });

  it('an entry waiting with a request outstanding holds its product, and goes first when another lane shows the remote is back', async () => {
    await restartEngine({ ...FAST_RETRY, baseMs: 60_000, maxMs: 600_000 });
    const mate = { userProductId: demo.userProducts.mate, type: 'selling_address' } as const;
    const delays: number[] = [];
    engine.on('retry', (r) => delays.push(r.delayMs));
    proxy.inject('error500', 1, isPut);
    const x = engine.queueAdjustment({ ...palermo, delta: 1 });
    await waitFor(() => delays.length === 1, 'the first failure');
    // Its outcome is unknown (the 500 may have come after the remote applied it): it holds the termo.
    expect(engine.outbox.repo.byId(x.entryId!)).toMatchObject({ state: 'pending', sent_version: '1' });
    const y = engine.queueAdjustment({ ...avellaneda, delta: 2 });
    const m = engine.queueCount({ ...mate, quantity: 3 });
    await engine.drain(10_000);
    for (const e of [x, y, m]) expect(engine.outbox.repo.byId(e.entryId!)!.state).toBe('done');
    // The mate's success ended the wait; the termo's entries went in order, the held one first under its key.
    const termoPuts = puts().filter((p) => p.path.includes(termo));
    expect(termoPuts.map((p) => p.fault ?? p.status)).toEqual(['error500', 200, 200]);
    expect(termoPuts[0]!.key).toBe(termoPuts[1]!.key);
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(13);
  });

  it('a lane that fails while others keep succeeding keeps its backoff', async () => {
    await restartEngine({ ...FAST_RETRY, baseMs: 60_000, maxMs: 600_000 });
    const mate = { userProductId: demo.userProducts.mate, type: 'selling_address' } as const;
    engine.queueAdjustment({ ...avellaneda, delta: 1 });
    await engine.drain(10_000);
    proxy.inject('error500', 1, isPut);
    const x = engine.queueAdjustment({ ...palermo, delta: 1 });
    await waitFor(() => engine.outbox.repo.byId(x.entryId!)!.attempts === 1, 'the failure');
    const waitingUntil = engine.outbox.repo.byId(x.entryId!)!.next_attempt_at;
    const other = engine.queueCount({ ...mate, quantity: 3 });
    // Recording that success is the moment an expedite would happen (same transaction).
    await waitFor(() => engine.outbox.repo.byId(other.entryId!)!.state === 'done', 'the other lane');
    expect(engine.outbox.repo.byId(x.entryId!)).toMatchObject({ state: 'pending', next_attempt_at: waitingUntil });
    expect(engine.status()).toMatchObject({ pending: 1, inFlight: 0, blocked: 0 });
  });

  it('when the remote is reachable again, entries that failed before it went away are due at once', async () => {
    await restartEngine({ ...FAST_RETRY, baseMs: 60_000, maxMs: 600_000, offlineProbeMinMs: 20, offlineProbeMaxMs: 50 });
    proxy.inject('error500', 1, isPut);
    const x = engine.queueAdjustment({ ...palermo, delta: 1 });
    await waitFor(() => engine.outbox.repo.byId(x.entryId!)!.attempts === 1, 'the failure');
    await proxy.goOffline();
    // Another product's edit finds the remote unreachable.
    const y = engine.queueCount({ userProductId: demo.userProducts.mate, type: 'selling_address', quantity: 4 });
    await waitFor(() => !engine.status().online, 'offline');
    await proxy.goOnline();
    await engine.drain(10_000);
    expect(engine.outbox.repo.byId(x.entryId!)!.state).toBe('done');
    expect(engine.outbox.repo.byId(y.entryId!)!.state).toBe('done');
  });
});

/**
 * A flush records answers in batches (an answer waits in memory for the others of its batch) and
 * keeps entries claimed ahead of a free slot (claimed, their requests planned and committed, not
 * sent). Neither may cost or double an edit.
 */
describe('answers recorded in batches, entries claimed ahead', () => {
  const market = syncMarket({ products: 8, stores: 1, quantity: 10 });
  const store = market.stores[0]!;
  let remote: TestServer;
  let viaOld: FaultProxy;
  let viaNew: FaultProxy;
  const replicas: Replica[] = [];
  const engines: SyncEngine[] = [];

  beforeEach(async () => {
    remote = await startTestServer(market.fixtures);
    viaOld = await startFaultProxy(remote.url);
    viaNew = await startFaultProxy(remote.url);
  });
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.stop();
    await viaOld.close();
    await viaNew.close();
    await remote.close();
    for (const r of replicas.splice(0)) r.remove();
  });

  const replicaOf = (dir?: string) => {
    const r = newReplica(dir);
    replicas.push(r);
    return r;
  };
  const engineOn = (r: Replica, url: string, concurrency: number) => {
    const e = newEngine(r, { url, token: market.token, sellerId: market.sellerId, app: market.app }, { concurrency, checkpointEveryMs: false });
    engines.push(e);
    return e;
  };
  /** What a kill -9 leaves on disk now: every committed transaction (the database and its WAL), nothing held only in memory. */
  const crashImage = (r: Replica) => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-crash-'));
    copyFileSync(r.dbFile, join(dir, 'replica.db'));
    if (existsSync(`${r.dbFile}-wal`)) copyFileSync(`${r.dbFile}-wal`, join(dir, 'replica.db-wal'));
    return replicaOf(dir);
  };
  const cell = (up: string) => ({ userProductId: up, type: 'seller_warehouse', storeId: store }) as const;
  const remoteQuantities = async () =>
    [...(await readRemoteStock(remote.url, market.token, market.products)).values()].map((s) => s.cells.get(`seller_warehouse|${store}`));

  it('a crash with answers not recorded yet and entries claimed ahead: after a restart every edit is applied once', async () => {
    const a = replicaOf();
    const first = engineOn(a, viaOld.url, 2);
    first.start();
    await first.pullNow();
    const held = viaOld.hold(isPut, 2);
    for (const up of market.products) first.queueAdjustment({ ...cell(up), delta: 1 });
    await held.arrived;
    // Two requests on the wire, four more entries claimed ahead (twice the slots) with their requests planned (none sent).
    const claimed = first.outbox.repo.activeAll().filter((e) => e.state === 'in_flight');
    expect(claimed.map((e) => e.sent_version !== null)).toEqual([true, true, true, true, true, true]);
    expect(puts(viaOld)).toHaveLength(2);
    const image = crashImage(a);

    // The remote applies the two requests on the wire; what the crashed process did after that
    // never reached the remote (its other requests are dropped), nor the crash image.
    const onTheWire = new Set(viaOld.log.filter((l) => l.held).map((l) => l.path));
    held.release();
    viaOld.inject('drop', 1000, (m, p) => isPut(m) && !onTheWire.has(p));
    await waitFor(async () => (await remoteQuantities()).filter((q) => q === 11).length === 2, 'the two requests on the wire applied');
    await first.stop();

    const second = engineOn(image, viaNew.url, 2);
    const replayed: number[] = [];
    second.on('synced', (e) => e.replayed && replayed.push(e.entryId));
    second.start();
    await second.drain();
    expect(await remoteQuantities()).toEqual(market.products.map(() => 11));
    // The two applied before the crash were answered from the remote's idempotency store...
    expect(replayed.sort((x, y) => x - y)).toEqual(claimed.slice(0, 2).map((e) => e.id));
    // ...and the six claimed went out under the keys the crash image had for them.
    const sentKeys = new Set(puts(viaNew).map((l) => l.key));
    for (const e of claimed) expect(sentKeys.has(e.idempotency_key)).toBe(true);
    expect(second.status()).toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0 });
  });

  it('entries claimed ahead go back to pending as they were when sending stops: still editable, sent once later', async () => {
    const a = replicaOf();
    const e = engineOn(a, viaOld.url, 1);
    e.start();
    await e.pullNow();
    const held = viaOld.hold(isPut, 1);
    const ups = market.products.slice(0, 3);
    const ids = ups.map((up) => e.queueAdjustment({ ...cell(up), delta: 1 }).entryId!);
    // Read before the engine claims them (it claims in a later turn of the event loop).
    const keys = ids.map((id) => e.outbox.repo.byId(id)!.idempotency_key);
    await held.arrived;
    expect(e.outbox.repo.byId(ids[1]!)).toMatchObject({ state: 'in_flight', key_used: 1 });

    e.setMode('offline');
    // The one on the wire stays so; the one claimed ahead is as it was queued.
    expect(e.outbox.repo.byId(ids[0]!)).toMatchObject({ state: 'in_flight' });
    expect(e.outbox.repo.byId(ids[1]!)).toMatchObject({ state: 'pending', sent_version: null, key_used: 0, idempotency_key: keys[1] });
    expect(e.queueAdjustment({ ...cell(ups[1]!), delta: 2 })).toMatchObject({ entryId: ids[1], how: 'merged' });

    held.release();
    e.setMode('online');
    await e.drain();
    expect((await remoteQuantities()).slice(0, 3)).toEqual([11, 13, 11]);
    // Never sent before, so not under a fresh key: one PUT per entry, each under the key it was queued with.
    expect(
      puts(viaOld)
        .map((l) => l.key)
        .sort(),
    ).toEqual([...keys].sort());
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../main/sync/engine.js';
import { cellView, history } from '../../main/sync/read-model.js';
import type { FaultProxy } from '../support/fault-proxy.js';
import { demo } from '../support/fixtures.js';
import { demoRemote, termoCells } from '../support/demo-remote.js';
import type { TestServer } from '../support/server.js';
import { FAST_RETRY, type Replica, newEngine, readRemoteStock, startSyncedReplica, stopSyncedReplica, waitFor } from '../support/sync-harness.js';

/** The engine against the project's own server on loopback (in process), through a proxy that logs and injects faults. */
let server: TestServer;
let proxy: FaultProxy;
let replica: Replica;
let engine: SyncEngine;

const { termo, palermo, avellaneda, palermoRef } = termoCells;
const { remoteQty, otherWrite } = demoRemote(() => server);
const puts = () => proxy.log.filter((l) => l.method === 'PUT');

beforeEach(async () => {
  ({ server, proxy, replica, engine } = await startSyncedReplica());
});
afterEach(() => stopSyncedReplica({ server, proxy, replica, engine }));

describe('pushing stock edits', () => {
  it('an adjustment reaches the remote with its idempotency key; the mirror follows the answer', async () => {
    const r = engine.queueAdjustment({ ...palermo, delta: 5 });
    await engine.drain();
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(17);
    const entry = engine.outbox.repo.byId(r.entryId!)!;
    expect(entry).toMatchObject({ state: 'done', result_version: '2', last_status: 200 });
    expect(puts().map((p) => p.key)).toEqual([entry.idempotency_key]);
    expect(cellView(replica.db, palermoRef)).toMatchObject({ remote: { quantity: 17, version: '2' }, shown: 17, state: 'synced' });
    expect(engine.status()).toMatchObject({ pending: 0, inFlight: 0, online: true });
  });

  it('selling_address: PUT {quantity}, 204 with x-version', async () => {
    const mate = { userProductId: demo.userProducts.mate, type: 'selling_address' } as const;
    engine.queueCount({ ...mate, quantity: 9 });
    await engine.drain();
    expect(await remoteQty(demo.userProducts.mate, 'selling_address|')).toBe(9);
    expect(cellView(replica.db, { userProductId: demo.userProducts.mate, type: 'selling_address', storeKey: '' })).toMatchObject({
      remote: { quantity: 9, version: '5' },
      state: 'synced',
    });
  });

  it('on 409 it re-reads (new x-version) and re-applies the delta to the fresh quantity', async () => {
    await otherWrite(demo.stores.palermo, 20);
    engine.queueAdjustment({ ...palermo, delta: -3 });
    await engine.drain();
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(17);
    expect(proxy.log.map((l) => `${l.method} ${l.status}`).slice(-3)).toEqual(['PUT 409', 'GET 200', 'PUT 200']);
    // The change by someone else is in the history as synced from the marketplace.
    expect(history(replica.db, palermoRef).map((h) => h.kind)).toEqual(['synced', 'adjustment']);
  });

  it('a count whose cell did not change is applied even when the version moved (another store changed)', async () => {
    await otherWrite(demo.stores.avellaneda, 31);
    engine.queueCount({ ...palermo, quantity: 40 });
    await engine.drain();
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(40);
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.avellaneda}`)).toBe(31);
    expect(engine.status().conflicts).toBe(0);
  });

  it('a count whose cell changed on the remote becomes a conflict, never an overwrite', async () => {
    await otherWrite(demo.stores.palermo, 15);
    const conflicts: number[] = [];
    engine.on('conflict', (c) => conflicts.push(c.entryId));
    const r = engine.queueCount({ ...palermo, quantity: 40 });
    await engine.drain();
    expect(conflicts).toEqual([r.entryId]);
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(15);
    expect(cellView(replica.db, palermoRef)).toMatchObject({
      state: 'conflict',
      conflict: { base: { quantity: 12, version: '1' }, local: 40, remote: { quantity: 15, version: '2' } },
    });
    expect(engine.status().conflicts).toBe(1);
    engine.resolveConflict(r.entryId!, { action: 'keep_mine' });
    await engine.drain();
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(40);
    expect(engine.status().conflicts).toBe(0);
  });

  it('take theirs leaves the remote alone; a new count is applied', async () => {
    await otherWrite(demo.stores.palermo, 15);
    const a = engine.queueCount({ ...palermo, quantity: 40 });
    await engine.drain();
    engine.resolveConflict(a.entryId!, { action: 'take_theirs' });
    await engine.drain();
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(15);
    expect(cellView(replica.db, palermoRef)).toMatchObject({ state: 'synced', shown: 15 });
    await otherWrite(demo.stores.palermo, 16);
    const b = engine.queueCount({ ...palermo, quantity: 41 });
    await engine.drain();
    engine.resolveConflict(b.entryId!, { action: 'new_count', quantity: 44 });
    await engine.drain();
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(44);
  });

  it('entries of one user product go out in order, one at a time', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push(engine.queueAdjustment({ ...(i % 2 ? avellaneda : palermo), delta: 1 }).entryId!);
      await waitFor(() => engine.status().inFlight > 0 || engine.status().pending === 0, 'a send');
    }
    await engine.drain();
    const keys = ids.map((id) => engine.outbox.repo.byId(id)!.idempotency_key);
    const order = puts().map((p) => p.key);
    expect(order.filter((k) => keys.includes(k!))).toEqual([...new Set(keys)]);
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(15);
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.avellaneda}`)).toBe(33);
  });
});

describe('failures and retries', () => {
  it('a 4xx fails the entry with the server message; later edits of the cell wait; retry and discard', async () => {
    const bombilla = { userProductId: demo.userProducts.bombilla, type: 'selling_address' } as const;
    const failures: string[] = [];
    engine.on('failed', (f) => failures.push(f.error));
    const first = engine.queueCount({ ...bombilla, quantity: 3 });
    await engine.drain();
    const message = 'You cannot modify selling address stock in items without inventory id.';
    expect(failures).toEqual([message]);
    expect(engine.outbox.repo.byId(first.entryId!)).toMatchObject({ state: 'failed', last_status: 400, last_error: message, attempts: 1 });
    const later = engine.queueAdjustment({ ...bombilla, delta: 1 });
    await engine.drain();
    expect(engine.outbox.repo.byId(later.entryId!)!.state).toBe('pending');
    // The later edit waits for the person, not for the network: it is blocked, not pending.
    expect(engine.status()).toMatchObject({ failed: 1, pending: 0, blocked: 1 });
    engine.retry(first.entryId!);
    await engine.drain();
    expect(engine.outbox.repo.byId(first.entryId!)!.state).toBe('failed');
    engine.discard(first.entryId!);
    engine.discard(later.entryId!);
    expect(engine.status()).toMatchObject({ failed: 0, pending: 0 });
  });

  it('transient failures (drop, reset, 500) retry with the same key; a reset after the remote applied it is replayed', async () => {
    const replays: boolean[] = [];
    engine.on('synced', (s) => replays.push(s.replayed));
    proxy.inject('drop', 1, (m) => m === 'PUT');
    proxy.inject('error500', 1, (m) => m === 'PUT');
    proxy.inject('reset', 1, (m) => m === 'PUT');
    const r = engine.queueAdjustment({ ...palermo, delta: 4 });
    await engine.drain();
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(16);
    const key = engine.outbox.repo.byId(r.entryId!)!.idempotency_key;
    expect(puts().map((p) => [p.key, p.fault, p.status])).toEqual([
      [key, 'drop', null],
      [key, 'error500', null],
      [key, 'reset', 200],
      [key, null, 200],
    ]);
    expect(replays).toEqual([true]);
    expect(engine.outbox.repo.byId(r.entryId!)).toMatchObject({ state: 'done', attempts: 4 });
    expect((await readRemoteStock(server.url, demo.seller.token, [termo])).get(termo)!.version).toBe(2n);
  });

  it('429 Retry-After is honoured', async () => {
    proxy.setFaults({ drop: 0, reset: 0, delay: 0, error500: 0, tooMany: 0, retryAfterSeconds: 1 });
    proxy.inject('tooMany', 1, (m) => m === 'PUT');
    const delays: number[] = [];
    engine.on('retry', (r) => delays.push(r.delayMs));
    engine.queueAdjustment({ ...palermo, delta: 1 });
    await engine.drain();
    const [limited, ok] = puts();
    expect(limited!.fault).toBe('tooMany');
    expect(ok!.at - limited!.at).toBeGreaterThanOrEqual(990);
    expect(delays[0]).toBeGreaterThanOrEqual(1000);
  });

  it('gives up after maxAttempts with the last error, visible to the user', async () => {
    await engine.stop();
    engine = newEngine(replica, { url: proxy.url, token: demo.seller.token, sellerId: demo.seller.id }, { retry: { ...FAST_RETRY, maxAttempts: 3 } });
    engine.start();
    proxy.inject('error500', 3, (m) => m === 'PUT');
    const r = engine.queueAdjustment({ ...palermo, delta: 1 });
    await engine.drain();
    expect(engine.outbox.repo.byId(r.entryId!)).toMatchObject({
      state: 'failed',
      last_status: 500,
      attempts: 3,
      last_error: 'Injected 500 (gave up after 3 attempts)',
    });
    // Its request may have been applied (the 500s could have come after it): outcome unknown, not refused.
    expect(engine.status()).toMatchObject({ failed: 0, unknown: 1 });
    engine.retry(r.entryId!);
    await engine.drain();
    expect(engine.outbox.repo.byId(r.entryId!)!.state).toBe('done');
  });

  it('stop waits for the request in flight; nothing is lost', async () => {
    // The PUT is held at the proxy: it is on the wire when stop() is called, for as long as the test says.
    const put = proxy.hold((m) => m === 'PUT');
    const r = engine.queueAdjustment({ ...palermo, delta: 2 });
    await put.arrived;
    const stopping = engine.stop();
    put.release();
    await stopping;
    expect(engine.outbox.repo.byId(r.entryId!)!.state).toBe('done');
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(14);
  });
});

describe('pull and pending edits', () => {
  it('a pull moves the mirror and never touches pending edits: the grid shows new remote + intent', async () => {
    engine.setMode('offline');
    const r = engine.queueAdjustment({ ...palermo, delta: 5 });
    await otherWrite(demo.stores.palermo, 30);
    engine.setMode('online');
    // The pull (started by going online) may run before or after the push; either way the result is the same.
    await engine.pullNow();
    await engine.drain();
    expect(engine.outbox.repo.byId(r.entryId!)!.state).toBe('done');
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(35);
    expect(cellView(replica.db, palermoRef)).toMatchObject({ shown: 35, state: 'synced' });
  });

  it('offline mode queues without a single request; going online sends', async () => {
    engine.setMode('offline');
    const before = proxy.counts.total;
    engine.queueAdjustment({ ...palermo, delta: 1 });
    // The scheduler runs on the next turns of the event loop: by then a send would be in flight.
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    expect(engine.status()).toMatchObject({ mode: 'offline', online: false, pending: 1, inFlight: 0 });
    expect(proxy.counts.total).toBe(before);
    engine.setMode('online');
    await engine.drain();
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(13);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../main/sync/engine.js';
import { cellView, history } from '../../main/sync/read-model.js';
import type { FaultProxy } from '../support/fault-proxy.js';
import { demo } from '../support/fixtures.js';
import { demoRemote, termoCells } from '../support/demo-remote.js';
import { manualClock } from '../support/messages.js';
import type { TestServer } from '../support/server.js';
import { type Replica, newEngine, startSyncedReplica, stopSyncedReplica, waitFor } from '../support/sync-harness.js';

/**
 * Transfers, undo and failures against a real remote: the project's own server on loopback behind
 * the logging fault proxy, a real replica file (issue 14 §5, §6, §7).
 */
let server: TestServer;
let proxy: FaultProxy;
let replica: Replica;
let engine: SyncEngine;

const { termo, palermo, avellaneda, palermoRef } = termoCells;
const avellanedaRef = { ...palermoRef, storeKey: demo.stores.avellaneda };
const { remoteQty, otherWrite } = demoRemote(() => server);
const P = `seller_warehouse|${demo.stores.palermo}`;
const A = `seller_warehouse|${demo.stores.avellaneda}`;
const puts = () => proxy.log.filter((l) => l.method === 'PUT');
const isPut = (m: string) => m === 'PUT';
/** What the remote stored for an idempotency key (the answer it replays), by store. */
function storedAnswer(key: string): Record<string, number> {
  const row = server.db.prepare<[string], { body: string }>('SELECT body FROM idempotency_keys WHERE key = ?').get(key);
  const body = JSON.parse(row!.body) as { locations: { store_id?: string; quantity: number }[] };
  return Object.fromEntries(body.locations.map((l) => [l.store_id ?? '', l.quantity]));
}
const transfer = (units: number, author = 'ana') => engine.queueTransfer({ ...palermo, toStoreId: demo.stores.avellaneda, units, author });

beforeEach(async () => {
  ({ server, proxy, replica, engine } = await startSyncedReplica());
});
afterEach(() => stopSyncedReplica({ server, proxy, replica, engine }));

describe('a transfer reaches the remote as one PUT carrying both stores', () => {
  it('one PUT, both locations under one x-version; the mirror and the history follow', async () => {
    const r = transfer(5);
    await engine.drain();
    expect(puts()).toHaveLength(1);
    const entry = engine.outbox.repo.byId(r.entryId!)!;
    expect(entry).toMatchObject({ state: 'done', last_status: 200 });
    expect(storedAnswer(puts()[0]!.key!)).toMatchObject({ [demo.stores.palermo]: 7, [demo.stores.avellaneda]: 35 });
    expect(await remoteQty(termo, P)).toBe(7);
    expect(await remoteQty(termo, A)).toBe(35);
    expect(cellView(replica.db, palermoRef)).toMatchObject({ remote: { quantity: 7, version: '2' }, shown: 7, state: 'synced' });
    expect(cellView(replica.db, avellanedaRef)).toMatchObject({ remote: { quantity: 35, version: '2' }, shown: 35, state: 'synced' });
    expect(history(replica.db, palermoRef).map((h) => [h.kind, h.reason, h.delta])).toEqual([['adjustment', 'transfer', -5]]);
    expect(history(replica.db, avellanedaRef).map((h) => [h.kind, h.reason, h.delta])).toEqual([['adjustment', 'transfer', 5]]);
  });

  it('on 409 it re-reads and rebases both stores, again as one PUT', async () => {
    await otherWrite(demo.stores.palermo, 20);
    transfer(5);
    await engine.drain();
    expect(proxy.log.map((l) => `${l.method} ${l.status}`).slice(-3)).toEqual(['PUT 409', 'GET 200', 'PUT 200']);
    // 20 − 5 and 30 + 5: the delta re-applied to the fresh quantities, both in the one request.
    expect(await remoteQty(termo, P)).toBe(15);
    expect(await remoteQty(termo, A)).toBe(35);
    const [refused, applied] = puts();
    expect(applied!.key).not.toBe(refused!.key);
    expect(storedAnswer(applied!.key!)).toMatchObject({ [demo.stores.palermo]: 15, [demo.stores.avellaneda]: 35 });
  });

  it('fails (changing nothing on either store) when the source no longer has the units', async () => {
    await otherWrite(demo.stores.palermo, 2);
    const r = transfer(5);
    await engine.drain();
    expect(engine.outbox.repo.byId(r.entryId!)).toMatchObject({ state: 'failed' });
    expect(engine.outbox.repo.byId(r.entryId!)!.last_error).toMatch(/below 0/);
    expect([await remoteQty(termo, P), await remoteQty(termo, A)]).toEqual([2, 30]);
    // Not part of the quantities shown.
    expect([cellView(replica.db, palermoRef).shown, cellView(replica.db, avellanedaRef).shown]).toEqual([2, 30]);
    expect(engine.status()).toMatchObject({ failed: 1 });
  });

  it('survives a restart mid-flight: the answer lost after the remote applied it, the resend replays it under the same key', async () => {
    // A clock the test moves: the resend waits out its backoff only when the test says so.
    const clock = manualClock(Date.now());
    await engine.stop();
    engine = newEngine(replica, { url: proxy.url, token: demo.seller.token, sellerId: demo.seller.id }, { clock, retry: { baseMs: 60_000, maxMs: 60_000 } });
    engine.start();
    const hold = proxy.hold(isPut);
    const r = transfer(4);
    await hold.arrived;
    // The remote applies it, the answer never comes back.
    proxy.inject('reset', 1, isPut);
    hold.release();
    await waitFor(() => engine.outbox.repo.byId(r.entryId!)!.last_error !== null, 'the lost answer recorded');
    const sent = engine.outbox.repo.byId(r.entryId!)!;
    expect(sent).toMatchObject({ state: 'pending', sent_quantity: 8, sent_quantity2: 34 });
    expect([await remoteQty(termo, P), await remoteQty(termo, A)]).toEqual([8, 34]);

    // Restart: a new engine on the reopened replica file.
    await engine.stop();
    replica.reopen();
    engine = newEngine(replica, { url: proxy.url, token: demo.seller.token, sellerId: demo.seller.id }, { clock });
    engine.start();
    clock.advance(60_001);
    engine.wake();
    await engine.drain();
    expect(engine.outbox.repo.byId(r.entryId!)).toMatchObject({ state: 'done' });
    // Two PUTs, the same key, both stores in each; applied once.
    expect(puts().map((p) => p.key)).toEqual([sent.idempotency_key, sent.idempotency_key]);
    expect([await remoteQty(termo, P), await remoteQty(termo, A)]).toEqual([8, 34]);
    expect([cellView(replica.db, palermoRef).shown, cellView(replica.db, avellanedaRef).shown]).toEqual([8, 34]);
  });
});

describe('undo against the remote', () => {
  it('a pending edit is withdrawn (nothing is sent); a synced one is taken back by an inverse adjustment', async () => {
    await engine.stop();
    engine = newEngine(replica, { url: proxy.url, token: demo.seller.token, sellerId: demo.seller.id }, { mode: 'offline' });
    engine.start();
    engine.queueAdjustment({ ...palermo, delta: 6, reason: 'received', author: 'ana' });
    expect(engine.undoLast('ana').how).toBe('withdrawn');
    engine.setMode('online');
    await engine.drain();
    expect(puts()).toHaveLength(0);

    engine.queueAdjustment({ ...avellaneda, delta: -3, reason: 'damaged', author: 'ana' });
    await engine.drain();
    expect(await remoteQty(termo, A)).toBe(27);
    expect(engine.undoLast('ana').how).toBe('inverse');
    await engine.drain();
    expect(await remoteQty(termo, A)).toBe(30);
    expect(history(replica.db, avellanedaRef).map((h) => h.reason)).toEqual(['correction', 'damaged']);
    expect(puts()).toHaveLength(2);
  });

  it('an edit on the wire is undone by an inverse sent after it lands', async () => {
    const hold = proxy.hold(isPut);
    engine.queueAdjustment({ ...palermo, delta: 5, reason: 'received', author: 'ana' });
    await hold.arrived;
    expect(engine.undoLast('ana').how).toBe('inverse');
    hold.release();
    await engine.drain();
    expect(puts().map((p) => p.status)).toEqual([200, 200]);
    expect(await remoteQty(termo, P)).toBe(12);
    expect(cellView(replica.db, palermoRef)).toMatchObject({ shown: 12, state: 'synced' });
  });
});

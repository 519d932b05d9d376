import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../main/sync/engine.js';
import { cellView } from '../../main/sync/read-model.js';
import type { RetryPolicy } from '../../main/sync/retry.js';
import type { FaultProxy } from '../support/fault-proxy.js';
import { demo } from '../support/fixtures.js';
import { demoRemote, termoCells } from '../support/demo-remote.js';
import { manualClock } from '../support/messages.js';
import type { TestServer } from '../support/server.js';
import { type Replica, newEngine, startSyncedReplica, stopSyncedReplica, waitFor } from '../support/sync-harness.js';

/**
 * The truth about the connection (issue 27): the project's own server behind the fault proxy,
 * whose network black-holes, resets, and comes back; a real replica file.
 *
 * The engine's clock is a manual one that never moves by itself, and a transient failure's
 * backoff is an hour: an entry charged a backoff could only go again when the test moves the
 * clock. So an edit delivered after the network returns, with the clock untouched, went at once
 * (the probe found the remote, nothing waited out a backoff), and `since` is exactly the clock's
 * time when the trouble was noticed.
 */
const REACH: Partial<RetryPolicy> = {
  baseMs: 3_600_000,
  maxMs: 3_600_000,
  maxAttempts: 3,
  offlineProbeMinMs: 10,
  offlineProbeMaxMs: 50,
  probeTimeoutMs: 1000,
  stallMs: 300,
};

let server: TestServer;
let proxy: FaultProxy;
let replica: Replica;
let engine: SyncEngine;
const clock = manualClock('2026-11-27T10:32:00.000Z');
const events: string[] = [];

const { termo, palermo, palermoRef } = termoCells;
const P = `seller_warehouse|${demo.stores.palermo}`;
const { remoteQty } = demoRemote(() => server);
const isPut = (m: string) => m === 'PUT';
const puts = () => proxy.log.filter((l) => l.method === 'PUT');
const probePath = `/users/${demo.seller.id}`;
const received = () => engine.queueAdjustment({ ...palermo, delta: 5, reason: 'received', author: 'ana' });
const entry = (id: number) => engine.outbox.repo.byId(id)!;
/** Found unreachable, and what was out is back in the outbox. */
const unreachable = () => {
  const s = engine.status();
  return s.unreachableSince !== null && s.inFlight === 0 && s;
};

beforeEach(async () => {
  ({ server, proxy, replica, engine } = await startSyncedReplica());
  // The same replica (pulled once), now with the clock and timings of these tests.
  await engine.stop();
  clock.set('2026-11-27T10:32:00.000Z');
  events.length = 0;
  engine = newEngine(replica, { url: proxy.url, token: demo.seller.token, sellerId: demo.seller.id }, { clock, retry: REACH });
  engine.on('retry', (r) => events.push(`retry ${r.error}`));
  engine.on('offline', () => events.push('offline'));
  engine.on('online', () => events.push('online'));
  engine.on('synced', (s) => events.push(`synced${s.replayed ? ' (replayed)' : ''}`));
  engine.start();
});
afterEach(() => stopSyncedReplica({ server, proxy, replica, engine }));

describe('the marketplace cannot be reached', () => {
  it('black hole, then resets, then the network returns: unreachable since it was noticed, the edit kept, sent again at once', async () => {
    proxy.setNetwork('blackhole');
    const r = received();
    const status = await waitFor(unreachable, 'the marketplace found unreachable during the black hole');
    expect(status).toMatchObject({ online: false, unreachableSince: clock.now(), pending: 1, inFlight: 0, failed: 0, unknown: 0, conflicts: 0 });
    // The request was swallowed before the remote saw it; the edit is safe in the outbox, its request kept
    // (its outcome is not known: on the wire, resent under its key), no attempt spent.
    expect(puts().map((l) => [l.fault, l.forwarded])).toEqual([['blackhole', false]]);
    const key = puts()[0]!.key;
    expect(entry(r.entryId!)).toMatchObject({ state: 'pending', attempts: 0, idempotency_key: key, key_used: 1 });
    expect(cellView(replica.db, palermoRef)).toMatchObject({ shown: 17, remote: { quantity: 12 } });
    expect(await remoteQty(termo, P)).toBe(12);

    // Resets now: still unreachable, since the same moment; only probes go out, nothing is resent blindly.
    const before = proxy.log.length;
    proxy.setNetwork('reset');
    await waitFor(() => proxy.log.slice(before).filter((l) => l.fault === 'drop').length >= 2, 'two probes cut by the resets');
    expect(engine.status()).toMatchObject({ online: false, unreachableSince: status.unreachableSince, pending: 1, inFlight: 0 });
    expect(proxy.log.slice(before).every((l) => l.method === 'GET' && l.path === probePath && !l.forwarded)).toBe(true);
    expect(entry(r.entryId!)).toMatchObject({ state: 'pending', attempts: 0 });

    // The network returns: the next probe finds the remote and the edit goes, on a clock that never moved.
    proxy.setNetwork('up');
    await waitFor(() => entry(r.entryId!).state === 'done', 'the edit delivered after the network returned');
    expect(engine.status()).toMatchObject({ online: true, unreachableSince: null, pending: 0, inFlight: 0, failed: 0, unknown: 0 });
    expect(entry(r.entryId!)).toMatchObject({ attempts: 1, last_status: 200 });
    expect(puts().map((l) => l.key)).toEqual([key, key]);
    expect(await remoteQty(termo, P)).toBe(17);
    // Never a transient retry (no backoff earned): offline once, online once, then delivered.
    expect(events).toEqual(['offline', 'online', 'synced']);
  });

  it('resets from the first request: unreachable at once, since then, no attempt spent; back when the network is', async () => {
    clock.set('2026-11-27T14:05:00.000Z');
    proxy.setNetwork('reset');
    const r = received();
    const status = await waitFor(unreachable, 'the marketplace found unreachable by resets');
    expect(status).toMatchObject({ online: false, unreachableSince: Date.parse('2026-11-27T14:05:00.000Z'), pending: 1 });
    expect(status.lastError).toMatch(/request failed/);
    expect(entry(r.entryId!)).toMatchObject({ state: 'pending', attempts: 0 });
    expect(puts().every((l) => !l.forwarded)).toBe(true);
    proxy.setNetwork('up');
    await waitFor(() => entry(r.entryId!).state === 'done', 'the edit delivered after the network returned');
    expect(engine.status()).toMatchObject({ online: true, unreachableSince: null, lastError: null });
    expect(await remoteQty(termo, P)).toBe(17);
    expect(events).toEqual(['offline', 'online', 'synced']);
  });

  it('an answer lost in the black hole after the remote applied it: resent under the same key, replayed, applied once', async () => {
    const hold = proxy.hold(isPut);
    const r = received();
    await hold.arrived;
    proxy.setNetwork('blackhole');
    // Forwarded now: the remote applies it, its answer falls into the black hole.
    hold.release();
    await waitFor(unreachable, 'the marketplace found unreachable with the answer lost');
    expect(await remoteQty(termo, P)).toBe(17);
    expect(puts().map((l) => [l.fault, l.forwarded, l.status])).toEqual([['blackhole', true, 200]]);
    expect(entry(r.entryId!)).toMatchObject({ state: 'pending', attempts: 0, key_used: 1 });
    proxy.setNetwork('up');
    await waitFor(() => entry(r.entryId!).state === 'done', 'the edit settled after the network returned');
    expect(puts().map((l) => l.key)).toEqual([puts()[0]!.key, puts()[0]!.key]);
    expect(await remoteQty(termo, P)).toBe(17);
    expect(events).toEqual(['offline', 'online', 'synced (replayed)']);
  });

  it("one reset while the marketplace answers is that request's: an attempt and its backoff, and the status stays online", async () => {
    proxy.inject('drop', 1, isPut);
    const r = received();
    await waitFor(() => events.length > 0, 'the failed request recorded');
    expect(events).toEqual([expect.stringMatching(/^retry request failed/)]);
    // The check that decided it reached the remote.
    expect(proxy.log.some((l) => l.path === probePath && l.status !== null)).toBe(true);
    expect(engine.status()).toMatchObject({ online: true, unreachableSince: null, pending: 1 });
    expect(entry(r.entryId!)).toMatchObject({ state: 'pending', attempts: 1 });
    // It waits out its backoff: only when the clock passes it does the edit go.
    clock.advance(3_600_001);
    engine.wake();
    await waitFor(() => entry(r.entryId!).state === 'done', 'the edit delivered after its backoff');
    expect(await remoteQty(termo, P)).toBe(17);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../../main/sync/engine.js';
import { phaseOf } from '../../../main/sync/model.js';
import type { FaultProxy } from '../../support/fault-proxy.js';
import { demo } from '../../support/fixtures.js';
import { demoRemote, termoCells } from '../../support/demo-remote.js';
import type { TestServer } from '../../support/server.js';
import { FAST_RETRY, type Replica, startSyncedReplica, stopSyncedReplica } from '../../support/sync-harness.js';

/**
 * Issue 29, the soak's "conflict nobody caused" (seed 2701, program 90): a count session's count
 * that is a conflict at once (the cell moved since it was counted) behind an edit whose answers
 * were lost. The conflict's remote figure is what keep mine re-bases the count on and what take
 * theirs re-bases the next count on; it left out the edit of unknown outcome (the overlay skips
 * failed entries), so once that edit was retried and applied, the next count met a remote it did
 * not expect and became a conflict nobody caused. A real remote behind the fault proxy, a real replica.
 */
let server: TestServer;
let proxy: FaultProxy;
let replica: Replica;
let engine: SyncEngine;

const { termo, palermo } = termoCells;
const { remoteQty } = demoRemote(() => server);
const P = `seller_warehouse|${demo.stores.palermo}`;
const isPut = (m: string) => m === 'PUT';

beforeEach(async () => {
  // Three attempts before an entry gives up, so a test reaches "unknown" in a few requests.
  ({ server, proxy, replica, engine } = await startSyncedReplica({ retry: { ...FAST_RETRY, maxAttempts: 3 } }));
});
afterEach(() => stopSyncedReplica({ server, proxy, replica, engine }));

/**
 * Palermo holds 12. A +5 whose every answer is lost (`fault`: 'reset', the remote applied it; 'drop',
 * it never arrived) gives up: outcome unknown, the cell shows 12. Offline: −1 (shows 11); a session
 * that counted 12 applies 14, a conflict at once; −2 and a count of 20 typed after it.
 */
async function sessionCountBehindUnknown(fault: 'reset' | 'drop') {
  proxy.inject(fault, 3, isPut);
  const plus = engine.queueAdjustment({ ...palermo, delta: 5, author: 'ana' }).entryId!;
  await engine.drain();
  expect(phaseOf(engine.outbox.repo.byId(plus)!)).toBe('unknown');
  expect(await remoteQty(termo, P)).toBe(fault === 'reset' ? 17 : 12);
  engine.setMode('offline');
  engine.queueAdjustment({ ...palermo, delta: -1, author: 'ana' });
  const [observed] = engine.queueObservedCounts([{ ...palermo, quantity: 14, base: 12, author: 'ana' }]);
  expect(observed).toMatchObject({ moved: true, shown: 11 });
  const session = observed!.entryId!;
  // What the remote should hold just before it if every earlier entry applies, the +5 included.
  expect(engine.outbox.repo.byId(session)).toMatchObject({ state: 'conflict', base_quantity: 12, remote_quantity: 16 });
  engine.queueAdjustment({ ...palermo, delta: -2, author: 'ana' });
  const counted = engine.queueCount({ ...palermo, quantity: 20, author: 'ana' }).entryId!;
  expect(engine.outbox.repo.byId(counted)).toMatchObject({ base_quantity: 12 });
  return { plus, session, counted };
}

describe('a count session conflict behind an edit of unknown outcome (issue 29)', () => {
  it('retried and applied, then take theirs: the count typed after it goes with no conflict', async () => {
    const { plus, session, counted } = await sessionCountBehindUnknown('reset');
    engine.retry(plus);
    engine.setMode('online');
    await engine.drain();
    expect(engine.outbox.repo.byId(plus)).toMatchObject({ state: 'done' });
    expect(await remoteQty(termo, P)).toBe(16);
    engine.resolveConflict(session, { action: 'take_theirs' }, { author: 'ana' });
    // The next count's base is the conflict's remote figure and the −2 before it.
    expect(engine.outbox.repo.byId(counted)).toMatchObject({ base_quantity: 14 });
    await engine.drain();
    expect(engine.status()).toMatchObject({ conflicts: 0, failed: 0 });
    expect(engine.outbox.repo.byId(counted)).toMatchObject({ state: 'done' });
    expect(await remoteQty(termo, P)).toBe(20);
  });

  it('retried and applied, then keep mine: the session count lands once, with no second conflict', async () => {
    const { plus, session, counted } = await sessionCountBehindUnknown('reset');
    engine.retry(plus);
    engine.setMode('online');
    await engine.drain();
    engine.resolveConflict(session, { action: 'keep_mine' }, { author: 'ana' });
    expect(engine.outbox.repo.byId(session)).toMatchObject({ state: 'pending', base_quantity: 16 });
    await engine.drain();
    expect(engine.status()).toMatchObject({ conflicts: 0, failed: 0 });
    for (const id of [session, counted]) expect(engine.outbox.repo.byId(id)).toMatchObject({ state: 'done' });
    expect(await remoteQty(termo, P)).toBe(20);
  });

  it('never applied, discarded: the conflict loses the +5 with it, and take theirs sends the count with no conflict', async () => {
    const { plus, session, counted } = await sessionCountBehindUnknown('drop');
    engine.setMode('online');
    expect(engine.discard(plus, { author: 'ana' }).how).toBe('checking');
    await engine.drain();
    expect(engine.outbox.repo.byId(plus)).toBeUndefined();
    expect(await remoteQty(termo, P)).toBe(11);
    expect(engine.outbox.repo.byId(session)).toMatchObject({ state: 'conflict', base_quantity: 12, remote_quantity: 11 });
    engine.resolveConflict(session, { action: 'take_theirs' }, { author: 'ana' });
    await engine.drain();
    expect(engine.status()).toMatchObject({ conflicts: 0, failed: 0 });
    expect(engine.outbox.repo.byId(counted)).toMatchObject({ state: 'done' });
    expect(await remoteQty(termo, P)).toBe(20);
  });
});

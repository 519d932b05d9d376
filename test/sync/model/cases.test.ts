import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../../main/sync/engine.js';
import { phaseOf } from '../../../main/sync/model.js';
import { cellView, history } from '../../../main/sync/read-model.js';
import type { FaultProxy } from '../../support/fault-proxy.js';
import { demo } from '../../support/fixtures.js';
import { demoRemote, termoCells } from '../../support/demo-remote.js';
import { demoOrders, packPath } from '../../support/messages.js';
import type { TestServer } from '../../support/server.js';
import { FAST_RETRY, type Replica, startSyncedReplica, stopSyncedReplica } from '../../support/sync-harness.js';

/**
 * The seven cases of issue 24, each against a real remote (the project's own server on loopback)
 * behind the fault proxy, a real replica file. Each failed on the outbox before main/sync/model.ts.
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
const isPut = (m: string) => m === 'PUT';
const isSend = (m: string, p: string) => m === 'POST' && p.startsWith('/messages/packs/');
const remote = async () => [await remoteQty(termo, P), await remoteQty(termo, A)];
const pack = demoOrders.packed.pack;

beforeEach(async () => {
  // Three attempts before an entry gives up, so a test reaches "failed" in a few requests.
  ({ server, proxy, replica, engine } = await startSyncedReplica({ retry: { ...FAST_RETRY, maxAttempts: 3 } }));
});
afterEach(() => stopSyncedReplica({ server, proxy, replica, engine }));

/** Holds the next PUT at the proxy, queues `edit`, and waits until its request is there (on the wire). */
async function onTheWire<T>(edit: () => T): Promise<{ result: T; release: () => void }> {
  const hold = proxy.hold(isPut, 1);
  const result = edit();
  await hold.arrived;
  return { result, release: () => hold.release() };
}

describe('1. an undo is linked to the edit it undoes and follows its fate', () => {
  it('+5 on 12 answered 500 until it fails, Undo, Discard: the remote stays at 12', async () => {
    const { result: plus, release } = await onTheWire(() => engine.queueAdjustment({ ...palermo, delta: 5, author: 'ana' }));
    proxy.inject('error500', 3, isPut);
    expect(engine.undoLast('ana').how).toBe('inverse');
    release();
    await engine.drain();
    expect(engine.outbox.repo.byId(plus.entryId!)).toMatchObject({ state: 'failed' });
    // The inverse is not shown alone while the edit it undoes has failed: the cell shows the remote's 12.
    expect(cellView(replica.db, palermoRef).shown).toBe(12);
    const discarded = engine.discard(plus.entryId!, { author: 'ana' });
    // The 500s were never forwarded, but the app cannot know that: it learns the outcome first.
    expect(discarded.how).toBe('checking');
    await engine.drain();
    expect(await remote()).toEqual([12, 30]);
    expect(engine.outbox.repo.activeAll()).toEqual([]);
    expect(cellView(replica.db, palermoRef)).toMatchObject({ shown: 12, state: 'synced' });
  });

  it('a transfer of 5 undone while its request was refused for good: Discard leaves 12 / 30', async () => {
    const { result: moved, release } = await onTheWire(() => engine.queueTransfer({ ...palermo, toStoreId: demo.stores.avellaneda, units: 5, author: 'ana' }));
    expect(engine.undoLast('ana').how).toBe('inverse');
    // Meanwhile Palermo sold out on the marketplace: the transfer fails "below 0".
    await otherWrite(demo.stores.palermo, 2);
    release();
    await engine.drain();
    expect(engine.outbox.repo.byId(moved.entryId!)).toMatchObject({ state: 'failed' });
    expect(engine.outbox.repo.byId(moved.entryId!)!.last_error).toMatch(/below 0/);
    expect([cellView(replica.db, palermoRef).shown, cellView(replica.db, avellanedaRef).shown]).toEqual([2, 30]);
    expect(engine.discard(moved.entryId!, { author: 'ana' }).how).toBe('discarded');
    await engine.drain();
    expect(await remote()).toEqual([2, 30]);
    expect(engine.outbox.repo.activeAll()).toEqual([]);
  });

  it('a count of 40 undone while held on the wire, then a sale, then Take theirs: the remote keeps the sale', async () => {
    const { result: counted, release } = await onTheWire(() => engine.queueCount({ ...palermo, quantity: 40, author: 'ana' }));
    expect(engine.undoLast('ana').how).toBe('inverse');
    await otherWrite(demo.stores.palermo, 2);
    release();
    await engine.drain();
    expect(engine.outbox.repo.byId(counted.entryId!)).toMatchObject({ state: 'conflict' });
    // The undo is not shown on top of the conflict: the cell shows the count in conflict, flagged.
    expect(cellView(replica.db, palermoRef)).toMatchObject({ state: 'conflict', shown: 40, conflict: { remote: { quantity: 2 } } });
    engine.resolveConflict(counted.entryId!, { action: 'take_theirs' }, { author: 'ana' });
    await engine.drain();
    expect(await remote()).toEqual([2, 30]);
    expect(engine.outbox.repo.activeAll()).toEqual([]);
  });

  it('a −5 held, a sale of 10, the −5 fails "below 0", Discard: the remote ends at 2', async () => {
    const { result: minus, release } = await onTheWire(() => engine.queueAdjustment({ ...palermo, delta: -5, author: 'ana' }));
    expect(engine.undoLast('ana').how).toBe('inverse');
    await otherWrite(demo.stores.palermo, 2);
    release();
    await engine.drain();
    expect(engine.outbox.repo.byId(minus.entryId!)).toMatchObject({ state: 'failed' });
    expect(phaseOf(engine.outbox.repo.byId(minus.entryId!)!)).toBe('refused');
    expect(engine.discard(minus.entryId!, { author: 'ana' }).how).toBe('discarded');
    await engine.drain();
    expect(await remote()).toEqual([2, 30]);
    expect(engine.outbox.repo.activeAll()).toEqual([]);
  });

  it('once the edit is done, its undo goes out: +5 then undo while on the wire ends where it started', async () => {
    const { release } = await onTheWire(() => engine.queueAdjustment({ ...palermo, delta: 5, author: 'ana' }));
    expect(engine.undoLast('ana').how).toBe('inverse');
    release();
    await engine.drain();
    expect(await remote()).toEqual([12, 30]);
    expect(engine.outbox.repo.activeAll()).toEqual([]);
  });
});

describe('2. an edit whose answers were lost is never called withdrawn', () => {
  it('undo of a failed +5 that the remote had applied learns it, and sends the inverse', async () => {
    // Every answer is lost after the remote applied the request.
    proxy.inject('reset', 3, isPut);
    const plus = engine.queueAdjustment({ ...palermo, delta: 5, author: 'ana' });
    await engine.drain();
    const failed = engine.outbox.repo.byId(plus.entryId!)!;
    expect(phaseOf(failed)).toBe('unknown');
    expect(cellView(replica.db, palermoRef)).toMatchObject({ state: 'failed', error: { unknown: true } });
    expect(await remoteQty(termo, P)).toBe(17);
    const undo = engine.undoLast('ana');
    expect(undo.how).toBe('checking');
    await engine.drain();
    // Applied (the resend under its key was replayed): done, and the inverse took it back.
    expect(engine.outbox.repo.byId(plus.entryId!)).toMatchObject({ state: 'done' });
    expect(await remote()).toEqual([12, 30]);
    expect(engine.outbox.repo.activeAll()).toEqual([]);
    expect(cellView(replica.db, palermoRef)).toMatchObject({ shown: 12, state: 'synced' });
  });

  it('undo of a failed +5 that never reached the remote withdraws it and its inverse', async () => {
    proxy.inject('drop', 3, isPut);
    const plus = engine.queueAdjustment({ ...palermo, delta: 5, author: 'ana' });
    await engine.drain();
    expect(phaseOf(engine.outbox.repo.byId(plus.entryId!)!)).toBe('unknown');
    expect(engine.undoLast('ana').how).toBe('checking');
    await engine.drain();
    expect(engine.outbox.repo.byId(plus.entryId!)).toBeUndefined();
    expect(await remote()).toEqual([12, 30]);
    expect(engine.outbox.repo.activeAll()).toEqual([]);
    expect(history(replica.db, palermoRef)[0]).toMatchObject({ kind: 'discarded', note: expect.stringMatching(/undo withdrawn|had not reached/) });
  });

  it('discard of a failed +5 that the remote had applied keeps it, done, and says so by its state', async () => {
    proxy.inject('reset', 3, isPut);
    const plus = engine.queueAdjustment({ ...palermo, delta: 5, author: 'ana' });
    await engine.drain();
    expect(engine.discard(plus.entryId!, { author: 'ana' }).how).toBe('checking');
    expect(phaseOf(engine.outbox.repo.byId(plus.entryId!)!)).toBe('checking');
    await engine.drain();
    expect(engine.outbox.repo.byId(plus.entryId!)).toMatchObject({ state: 'done' });
    expect(await remoteQty(termo, P)).toBe(17);
    expect(cellView(replica.db, palermoRef)).toMatchObject({ shown: 17, state: 'synced' });
  });
});

describe('5. discarding a failed adjustment subtracts only what a later base included', () => {
  it('a refused +5, a transfer into the cell, a count of 20, Discard of the +5: the count goes with no false conflict', async () => {
    engine.setMode('offline');
    const plus = engine.queueAdjustment({ ...palermo, delta: 5, author: 'ana' });
    engine.outbox.repo.claim(plus.entryId!, Date.now());
    engine.outbox.repo.markFailed(plus.entryId!, 400, 'refused', Date.now(), true);
    engine.queueTransfer({ ...avellaneda, toStoreId: demo.stores.palermo, units: 1, author: 'ana' });
    const counted = engine.queueCount({ ...palermo, quantity: 20, author: 'ana' });
    expect(engine.outbox.repo.byId(counted.entryId!)).toMatchObject({ base_quantity: 18 });
    engine.discard(plus.entryId!, { author: 'ana' });
    expect(engine.outbox.repo.byId(counted.entryId!)).toMatchObject({ base_quantity: 13 });
    engine.setMode('online');
    await engine.drain();
    expect(engine.status()).toMatchObject({ conflicts: 0, failed: 0 });
    expect(await remote()).toEqual([20, 29]);
  });
});

describe('6. a message the buyer received is never shown as failed', () => {
  async function sentWithEveryAnswerLost() {
    proxy.inject('reset', 3, isSend);
    const r = await engine.queueMessage({ packId: pack, text: 'Ya sale tu pedido' });
    await engine.drain();
    return r.entryId;
  }
  const remoteCopies = async () => {
    const res = await server.as(demo.seller.token).get(`${packPath(pack)}?mark_as_read=false&limit=100`);
    return (res.body.messages as { text: string }[]).filter((m) => m.text === 'Ya sale tu pedido').length;
  };

  it('its outcome is unknown, and a pull that finds it settles the entry as delivered', async () => {
    const id = await sentWithEveryAnswerLost();
    expect(phaseOf(engine.outbox.repo.byId(id)!)).toBe('unknown');
    await engine.pullNow();
    expect(engine.outbox.repo.byId(id)).toMatchObject({ state: 'done' });
    expect(engine.status()).toMatchObject({ failed: 0 });
    expect(await remoteCopies()).toBe(1);
  });

  it('Discard learns it was delivered: done, and no second copy', async () => {
    const id = await sentWithEveryAnswerLost();
    expect(engine.discard(id).how).toBe('checking');
    await engine.drain();
    expect(engine.outbox.repo.byId(id)).toMatchObject({ state: 'done' });
    expect(await remoteCopies()).toBe(1);
  });

  it('Discard of one that never arrived withdraws it', async () => {
    proxy.inject('drop', 3, isSend);
    const r = await engine.queueMessage({ packId: pack, text: 'Ya sale tu pedido' });
    await engine.drain();
    expect(phaseOf(engine.outbox.repo.byId(r.entryId)!)).toBe('unknown');
    expect(engine.discard(r.entryId).how).toBe('checking');
    await engine.drain();
    expect(engine.outbox.repo.byId(r.entryId)).toBeUndefined();
    expect(await remoteCopies()).toBe(0);
  });
});

describe('7. a sent message and its draft are one transaction', () => {
  it('what belongs with the send is written with it, or neither is', async () => {
    await expect(
      engine.queueMessage({ packId: pack, text: 'Hola' }, () => {
        throw new Error('the draft could not be cleared');
      }),
    ).rejects.toThrow('the draft could not be cleared');
    expect(engine.outbox.repo.activeAll()).toEqual([]);
    let inTransaction = false;
    await engine.queueMessage({ packId: pack, text: 'Hola' }, () => {
      inTransaction = replica.db.inTransaction;
    });
    expect(inTransaction).toBe(true);
  });
});

import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadFixtures, parseFixtures } from '../../main/fixtures/load.js';
import type { OutboxRow } from '../../main/db/repos/sync.js';
import { staticTokenProvider } from '../../main/sync/client.js';
import { SyncEngine } from '../../main/sync/engine.js';
import { type CellRef, Outbox, cellKey, newKey, overlay } from '../../main/sync/outbox.js';
import { phaseOf } from '../../main/sync/model.js';
import { cellView, gridRows, history } from '../../main/sync/read-model.js';
import { backoffDelay, DEFAULT_RETRY } from '../../main/sync/retry.js';
import { demo, demoFixtures } from '../support/fixtures.js';
import { manualClock } from '../support/messages.js';
import { type Replica, newReplica } from '../support/sync-harness.js';

/**
 * The outbox without a network: a replica whose mirror holds the demo marketplace (as a pull
 * would leave it), an engine in offline mode for the queue-time checks.
 */
let replica: Replica;
let outbox: Outbox;
let engine: SyncEngine;
const clock = manualClock('2026-11-20T12:00:00.000Z');
const termoPalermo: CellRef = { userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeKey: demo.stores.palermo };

beforeEach(() => {
  replica = newReplica();
  loadFixtures(replica.db, parseFixtures(demoFixtures()));
  outbox = new Outbox(replica.db, clock);
  engine = new SyncEngine({
    db: replica.db,
    sellerId: demo.seller.id,
    baseUrl: 'http://127.0.0.1:9',
    auth: staticTokenProvider(demo.seller.token, demo.app),
    mode: 'offline',
    filesDir: replica.filesDir,
    clock,
  });
});
afterEach(async () => {
  await engine.stop();
  replica.remove();
});

const active = (c: CellRef = termoPalermo) => outbox.repo.activeOfCell(cellKey(c.userProductId, c.type, c.storeKey));
const row = (id: number | null) => outbox.repo.byId(id!)!;
/** Puts an entry on the wire as the worker would (claimed, request persisted). */
function sendEntry(id: number) {
  outbox.repo.claim(id, clock.now());
  outbox.repo.setSent(id, 1n, 99, clock.now(), randomUUID());
}

describe('queueing: one transaction, history, overlay', () => {
  it('an adjustment writes its entry and its history row, and the grid shows mirror + intent', () => {
    const r = engine.queueAdjustment({
      userProductId: demo.userProducts.termo,
      type: 'seller_warehouse',
      storeId: demo.stores.palermo,
      delta: 5,
      author: 'ana',
      ref: 'r1',
    });
    expect(r).toMatchObject({ how: 'queued', shown: 17 });
    expect(row(r.entryId)).toMatchObject({ state: 'pending', op: 'adjust', delta: 5, attempts: 0, kind: 'stock', lane: `up:${demo.userProducts.termo}` });
    expect(row(r.entryId).idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    const h = history(replica.db, termoPalermo);
    expect(h).toHaveLength(1);
    expect(h[0]).toMatchObject({ kind: 'adjustment', author: 'ana', from_quantity: 12, to_quantity: 17, delta: 5, entry_id: r.entryId, ref: 'r1' });
    const view = cellView(replica.db, termoPalermo);
    expect(view).toMatchObject({ remote: { quantity: 12, version: '1' }, shown: 17, state: 'pending' });
    expect(engine.status()).toMatchObject({ mode: 'offline', online: false });
  });

  it('a failing queue call leaves nothing behind', () => {
    expect(() =>
      engine.queueAdjustment({ userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId: demo.stores.palermo, delta: -13 }),
    ).toThrow('The adjustment of -13 would take the stock below 0 (it shows 12)');
    expect(active()).toEqual([]);
    expect(history(replica.db, termoPalermo)).toEqual([]);
  });

  it.each([
    [{ type: 'platform_facility', storeId: undefined, delta: 1 }, 'Stock of type platform_facility is managed by the platform and cannot be edited'],
    [{ type: 'warehouse', storeId: undefined, delta: 1 }, 'Unknown stock location type: warehouse'],
    [{ type: 'seller_warehouse', storeId: undefined, delta: 1 }, 'Store cannot be null or empty'],
    [{ type: 'seller_warehouse', storeId: '99999', delta: 1 }, 'Store not found: 99999'],
    [{ type: 'seller_warehouse', storeId: demo.stores.otherSellers, delta: 1 }, `Store does not belong to seller: ${demo.stores.otherSellers}`],
    [{ type: 'seller_warehouse', storeId: demo.stores.showroom, delta: 1 }, 'Store is not configured to be a stock location'],
    [{ type: 'selling_address', storeId: undefined, delta: 1 }, /cannot hold selling_address and seller_warehouse/],
    [{ type: 'seller_warehouse', storeId: demo.stores.palermo, delta: 0 }, /non-zero integer/],
    [{ type: 'seller_warehouse', storeId: demo.stores.palermo, delta: 1.5 }, /non-zero integer/],
  ])('refuses %j before queueing (%s)', (input, message) => {
    expect(() => engine.queueAdjustment({ userProductId: demo.userProducts.termo, ...input })).toThrow(message);
    expect(outbox.repo.activeAll()).toEqual([]);
  });

  it("refuses another seller's user product and an unknown one", () => {
    expect(() =>
      engine.queueCount({ userProductId: demo.userProducts.otherSellers, type: 'seller_warehouse', storeId: demo.stores.otherSellers, quantity: 1 }),
    ).toThrow(/Access denied/);
    expect(() => engine.queueCount({ userProductId: 'MLAU999', type: 'selling_address', quantity: 1 })).toThrow('User product not found: MLAU999');
    expect(() => engine.queueCount({ userProductId: demo.userProducts.mate, type: 'selling_address', quantity: -1 })).toThrow(/A count is an integer/);
  });
});

describe('coalescing', () => {
  const adjust = (delta: number, c = termoPalermo) => outbox.adjust(c, delta);
  const count = (q: number, c = termoPalermo) => outbox.count(c, q);

  it('adjust + adjust → one adjustment of the sum; summing to 0 removes it', () => {
    const a = adjust(5);
    const b = adjust(3);
    expect(b).toMatchObject({ entryId: a.entryId, how: 'merged', shown: 20 });
    expect(active().map((e) => e.delta)).toEqual([8]);
    const c = adjust(-8);
    expect(c).toMatchObject({ entryId: null, how: 'cancelled', shown: 12 });
    expect(active()).toEqual([]);
    // The history keeps every edit the person made.
    expect(history(replica.db, termoPalermo).map((h) => h.delta)).toEqual([-8, 3, 5]);
  });

  it('count then adjust → two intents: the adjustment stays its own entry, the count keeps its base', () => {
    const c = count(40);
    const a = adjust(-2);
    expect(a).toMatchObject({ how: 'queued', shown: 38 });
    expect(a.entryId).not.toBe(c.entryId);
    expect(active()).toMatchObject([
      { id: c.entryId, op: 'count', quantity: 40, base_quantity: 12, base_version: '1' },
      { id: a.entryId, op: 'adjust', delta: -2 },
    ]);
  });

  it('adjust then count → two intents: the adjustment goes first, the count’s base counts on it', () => {
    const a = adjust(7);
    const c = count(30);
    expect(c).toMatchObject({ how: 'queued', shown: 30 });
    expect(active()).toMatchObject([
      { id: a.entryId, op: 'adjust', delta: 7 },
      { id: c.entryId, op: 'count', quantity: 30, base_quantity: 19 },
    ]);
  });

  it('count then count → the later count keeps the earlier base', () => {
    const first = count(40);
    const second = count(45);
    expect(second).toMatchObject({ entryId: first.entryId, how: 'merged' });
    expect(active()).toMatchObject([{ op: 'count', quantity: 45, base_quantity: 12 }]);
  });

  it('never into an entry on the wire: a new entry follows it, and a count after it counts on its effect', () => {
    const a = adjust(5);
    sendEntry(a.entryId!);
    const b = adjust(2);
    expect(b.how).toBe('queued');
    expect(b.entryId).not.toBe(a.entryId);
    const c = count(50);
    // Each stays its own intent; the count's base counts on the +5 on the wire and the queued +2.
    expect(active()).toMatchObject([
      { id: a.entryId, op: 'adjust', delta: 5 },
      { id: b.entryId, op: 'adjust', delta: 2 },
      { op: 'count', quantity: 50, base_quantity: 19, id: c.entryId },
    ]);
    // A pending entry whose request already went out once (a transient failure) is on the wire too.
    outbox.repo.reschedule(a.entryId!, clock.now(), 500, 'boom', true, clock.now());
    expect(adjust(1, termoPalermo).how).toBe('queued');
    expect(row(a.entryId).delta).toBe(5);
    expect(row(c.entryId).quantity).toBe(50);
  });

  it('other cells never coalesce together', () => {
    const avellaneda: CellRef = { ...termoPalermo, storeKey: demo.stores.avellaneda };
    const a = adjust(1);
    const b = adjust(1, avellaneda);
    expect(b.entryId).not.toBe(a.entryId);
  });
});

describe('conflicts and their resolution', () => {
  function conflictOf(local: number, remote: number, cell: CellRef = termoPalermo) {
    const c = outbox.count(cell, local);
    outbox.repo.claim(c.entryId!, clock.now());
    outbox.repo.markConflict(c.entryId!, 3n, remote, clock.now());
    return c.entryId!;
  }

  it('a conflict holds base, local and remote and stays visible', () => {
    const id = conflictOf(40, 15);
    expect(cellView(replica.db, termoPalermo)).toMatchObject({
      state: 'conflict',
      shown: 40,
      conflict: { entryId: id, base: { quantity: 12, version: '1' }, local: 40, remote: { quantity: 15, version: '3' } },
    });
  });

  it('keep mine re-queues the count at the new base', () => {
    const id = conflictOf(40, 15);
    engine.resolveConflict(id, { action: 'keep_mine' }, { author: 'ana' });
    expect(row(id)).toMatchObject({ state: 'pending', op: 'count', quantity: 40, base_quantity: 15, base_version: '3', attempts: 0 });
    expect(history(replica.db, termoPalermo)[0]).toMatchObject({ kind: 'conflict_resolution', note: 'keep mine', author: 'ana' });
  });

  it('take theirs drops it; a new count replaces the quantity', () => {
    const id = conflictOf(40, 15);
    engine.resolveConflict(id, { action: 'new_count', quantity: 33 });
    expect(row(id)).toMatchObject({ state: 'pending', quantity: 33, base_quantity: 15 });
    outbox.repo.claim(id, clock.now());
    outbox.repo.markConflict(id, 4n, 16, clock.now());
    engine.resolveConflict(id, { action: 'take_theirs' });
    expect(outbox.repo.byId(id)).toBeUndefined();
    expect(() => engine.resolveConflict(id, { action: 'keep_mine' })).toThrow(`Outbox entry ${id} not found`);
  });

  it('later edits of the cell wait behind the conflict; a count typed on the cell resolves it', () => {
    const id = conflictOf(40, 15);
    const a = outbox.adjust(termoPalermo, 2);
    expect(a.how).toBe('queued');
    expect(cellView(replica.db, termoPalermo).shown).toBe(42);
    const c = outbox.count(termoPalermo, 50);
    // The adjustment stays its own intent; the count waits behind it (the conflict is not the newest entry).
    expect(c).toMatchObject({ how: 'queued' });
    expect(active()).toMatchObject([
      { id, state: 'conflict' },
      { id: a.entryId, op: 'adjust', delta: 2 },
      { id: c.entryId, op: 'count', quantity: 50 },
    ]);
    // Typed on the conflict itself (its newest entry), a count is the "enter a new count" resolution.
    const other = conflictOf(40, 15, { ...termoPalermo, storeKey: demo.stores.avellaneda });
    expect(outbox.count({ ...termoPalermo, storeKey: demo.stores.avellaneda }, 33)).toMatchObject({ entryId: other, how: 'resolved' });
  });

  it('a new count entered on a conflict moves the base of the count queued behind it', () => {
    const id = conflictOf(40, 15);
    outbox.adjust(termoPalermo, 2);
    const c = outbox.count(termoPalermo, 50);
    expect(row(c.entryId)).toMatchObject({ base_quantity: 42 });
    engine.resolveConflict(id, { action: 'new_count', quantity: 30 });
    // The count behind now expects 30 + 2 on the remote, what it will find once the two before it are applied.
    expect(row(c.entryId)).toMatchObject({ base_quantity: 32 });
  });

  it('taking theirs corrects the base of a later count that had counted on the dropped one', () => {
    const id = conflictOf(40, 15);
    // A count queued while the conflict waited could only come from an entry already on the wire; build it by hand.
    const later = outbox.repo.insert({
      kind: 'stock',
      lane: `up:${termoPalermo.userProductId}`,
      idempotency_key: 'k-later',
      now: clock.now(),
      user_product_id: termoPalermo.userProductId,
      cell_type: 'seller_warehouse',
      store_key: termoPalermo.storeKey,
      cell: cellKey(termoPalermo.userProductId, 'seller_warehouse', termoPalermo.storeKey),
      op: 'adjust',
      delta: 3,
    });
    const later2 = outbox.repo.insert({
      kind: 'stock',
      lane: `up:${termoPalermo.userProductId}`,
      idempotency_key: 'k-later2',
      now: clock.now(),
      user_product_id: termoPalermo.userProductId,
      cell_type: 'seller_warehouse',
      store_key: termoPalermo.storeKey,
      cell: cellKey(termoPalermo.userProductId, 'seller_warehouse', termoPalermo.storeKey),
      op: 'count',
      quantity: 60,
      base_quantity: 43,
    });
    engine.resolveConflict(id, { action: 'take_theirs' });
    expect(row(later).delta).toBe(3);
    // The base is a pair the remote really had: its quantity at the conflict's version, plus the adjustment before it.
    expect(row(later2)).toMatchObject({ base_quantity: 18, base_version: '3' });
  });

  it('only conflicts can be resolved; entries on the wire cannot be discarded', () => {
    const a = outbox.adjust(termoPalermo, 1);
    expect(() => engine.resolveConflict(a.entryId!, { action: 'keep_mine' })).toThrow('is not a conflict');
    sendEntry(a.entryId!);
    expect(() => engine.discard(a.entryId!)).toThrow(/being sent/);
    expect(() => engine.retry(a.entryId!)).toThrow('has not failed');
  });
});

describe('failed entries', () => {
  it('retry reopens (attempts start over), discard removes with a history row', () => {
    const a = outbox.adjust(termoPalermo, 4);
    outbox.repo.claim(a.entryId!, clock.now());
    outbox.repo.markFailed(a.entryId!, 400, 'Store is not configured to be a stock location', clock.now(), true);
    // A failed edit is not part of the quantity shown (issue 14 §7): 12, not 16.
    expect(cellView(replica.db, termoPalermo)).toMatchObject({
      state: 'failed',
      shown: 12,
      error: { entryId: a.entryId, status: 400, message: 'Store is not configured to be a stock location' },
    });
    engine.retry(a.entryId!);
    expect(row(a.entryId)).toMatchObject({ state: 'pending', attempts: 0, last_error: null });
    outbox.repo.claim(a.entryId!, clock.now());
    outbox.repo.markFailed(a.entryId!, 400, 'again', clock.now(), true);
    engine.discard(a.entryId!, { author: 'ana' });
    expect(outbox.repo.byId(a.entryId!)).toBeUndefined();
    expect(history(replica.db, termoPalermo)[0]).toMatchObject({ kind: 'discarded', from_quantity: 12, to_quantity: 12, author: 'ana' });
  });

  it('a count after a refused adjustment is its own entry (its base counts on it), and replaces (and retries) a refused count', () => {
    const a = outbox.adjust(termoPalermo, 4);
    outbox.repo.claim(a.entryId!, clock.now());
    outbox.repo.markFailed(a.entryId!, 400, 'no', clock.now(), true);
    const c = outbox.count(termoPalermo, 20);
    expect(active()).toMatchObject([
      { id: a.entryId, state: 'failed' },
      { id: c.entryId, op: 'count', quantity: 20, base_quantity: 16 },
    ]);
    outbox.discard(a.entryId!);
    outbox.repo.claim(c.entryId!, clock.now());
    outbox.repo.markFailed(c.entryId!, 400, 'no', clock.now(), true);
    const again = outbox.count(termoPalermo, 21);
    expect(again).toMatchObject({ entryId: c.entryId, how: 'merged' });
    expect(row(c.entryId)).toMatchObject({ state: 'pending', quantity: 21, attempts: 0 });
  });

  it('undo of a count merged into an earlier one keeps the earlier count, even when it equals the mirror (found by the model-based test)', () => {
    // The shelf was counted 12 (what the mirror says, but the remote may have sold one since), then 30 by mistake.
    const first = outbox.count(termoPalermo, 12, { author: 'ana' });
    expect(outbox.count(termoPalermo, 30, { author: 'ana' })).toMatchObject({ entryId: first.entryId, how: 'merged' });
    expect(engine.undoLast('ana').how).toBe('withdrawn');
    expect(active()).toMatchObject([{ id: first.entryId, op: 'count', quantity: 12 }]);
  });

  it('an edit the person discarded is not undone again (its inverse would change the remote for nothing)', () => {
    const first = outbox.adjust(termoPalermo, 1, { author: 'ana', reason: 'received' });
    const a = outbox.adjust(termoPalermo, 4, { author: 'ana' });
    outbox.repo.claim(a.entryId!, clock.now());
    outbox.repo.markFailed(a.entryId!, 400, 'no', clock.now(), true);
    engine.discard(a.entryId!, { author: 'ana' });
    // Undo takes back the edit before it (still queued: withdrawn), not the discarded one.
    expect(engine.undoLast('ana')).toMatchObject({ how: 'withdrawn', undone: first.historyId });
    expect(active()).toEqual([]);
    expect(engine.undoLast('ana').how).toBe('nothing');
  });

  it('a failed entry keeps the request it sent: Retry resends it under the same key', () => {
    const a = outbox.adjust(termoPalermo, 4);
    sendEntry(a.entryId!);
    const { idempotency_key: key } = row(a.entryId);
    outbox.repo.markFailed(a.entryId!, 500, 'gave up', clock.now(), false);
    engine.retry(a.entryId!);
    expect(row(a.entryId)).toMatchObject({ state: 'pending', idempotency_key: key, sent_version: '1', sent_quantity: 99, key_used: 1 });
  });

  it('new content merged into a refused count never goes out under the key the old one was sent with', () => {
    const c = outbox.count(termoPalermo, 100);
    sendEntry(c.entryId!);
    const first = row(c.entryId).idempotency_key;
    // The marketplace refused it for good: nothing of it was applied, its request is dropped.
    outbox.repo.markFailed(c.entryId!, 400, 'refused', clock.now(), true);
    expect(outbox.count(termoPalermo, 200)).toMatchObject({ entryId: c.entryId, how: 'merged' });
    // The next request is computed afresh...
    expect(row(c.entryId)).toMatchObject({ state: 'pending', quantity: 200, sent_version: null, key_used: 1 });
    // ...and goes out under a fresh key.
    const next = outbox.repo.setSent(c.entryId!, 1n, 200, clock.now(), 'fresh-key');
    expect(next).toBe('fresh-key');
    expect(next).not.toBe(first);
    // A resend of that same request keeps the new key.
    expect(row(c.entryId).idempotency_key).toBe('fresh-key');
  });

  it('a count of unknown outcome is never changed: a new count queues behind it, its request kept', () => {
    const c = outbox.count(termoPalermo, 100);
    sendEntry(c.entryId!);
    // Its answers were lost and sending gave up: the outcome is unknown.
    outbox.repo.markFailed(c.entryId!, null, 'socket hang up (gave up after 3 attempts)', clock.now(), false);
    expect(phaseOf(row(c.entryId))).toBe('unknown');
    const next = outbox.count(termoPalermo, 200);
    expect(next).toMatchObject({ how: 'queued' });
    expect(next.entryId).not.toBe(c.entryId);
    expect(row(c.entryId)).toMatchObject({ state: 'failed', quantity: 100, sent_version: '1', sent_quantity: 99 });
  });

  it('the first request of an entry keeps the key it was queued with', () => {
    const a = outbox.adjust(termoPalermo, 1);
    const queued = row(a.entryId).idempotency_key;
    outbox.repo.claim(a.entryId!, clock.now());
    expect(outbox.repo.setSent(a.entryId!, 1n, 13, clock.now(), 'unused')).toBe(queued);
  });

  it('a claim with its new request is one write; a key that may have reached the remote is never reused', () => {
    const a = outbox.adjust(termoPalermo, 1);
    const queued = row(a.entryId).idempotency_key;
    const before = row(a.entryId);
    expect(outbox.repo.claimSending(row(a.entryId), 1n, 13, clock.now(), null)).toBe(queued);
    expect(row(a.entryId)).toMatchObject({ state: 'in_flight', sent_version: '1', sent_quantity: 13, key_used: 1, idempotency_key: queued });
    // Not pending any more: nothing is claimed twice.
    expect(outbox.repo.claimSending(row(a.entryId), 1n, 13, clock.now(), 'other')).toBeUndefined();

    // Claimed ahead and never sent: the claim is undone, the entry exactly as it was queued.
    expect(outbox.repo.unclaim(a.entryId!, before, clock.now())).toBe(true);
    expect(row(a.entryId)).toMatchObject({ state: 'pending', sent_version: null, sent_quantity: null, key_used: 0, idempotency_key: queued });

    // Once the key went out, new content needs a fresh key: without one the write fails.
    outbox.repo.claimSending(row(a.entryId), 1n, 13, clock.now(), null);
    outbox.repo.reschedule(a.entryId!, clock.now(), 409, 'x', true, clock.now());
    outbox.repo.clearSent(a.entryId!);
    expect(() => outbox.repo.claimSending(row(a.entryId), 2n, 14, clock.now(), null)).toThrow();
    expect(row(a.entryId)).toMatchObject({ state: 'pending', idempotency_key: queued });
    expect(outbox.repo.claimSending(row(a.entryId), 2n, 14, clock.now(), 'fresh-key')).toBe('fresh-key');
  });

  it('keys are UUIDs of version 7: later keys sort later', () => {
    const keys = [newKey(1_700_000_000_000), newKey(1_700_000_000_001), newKey(1_800_000_000_000)];
    for (const k of keys) expect(k).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...keys].sort()).toEqual(keys);
    expect(newKey(5)).not.toBe(newKey(5));
  });

  it('claiming is not an attempt: an entry left in flight by a crash comes back with nothing charged', () => {
    const a = outbox.adjust(termoPalermo, 1);
    sendEntry(a.entryId!);
    expect(row(a.entryId)).toMatchObject({ state: 'in_flight', attempts: 0 });
    engine.start();
    expect(row(a.entryId)).toMatchObject({ state: 'pending', attempts: 0, sent_version: '1', sent_quantity: 99 });
  });
});

describe('read model', () => {
  it('gridRows pages the seller user products with every location, intents applied', () => {
    outbox.adjust(termoPalermo, 3);
    outbox.count({ userProductId: demo.userProducts.mate, type: 'selling_address', storeKey: '' }, 9);
    const grid = gridRows(replica.db, { sellerId: demo.seller.id, limit: 2 });
    expect(grid.total).toBe(5);
    expect(grid.columns.map((c) => c.key)).toEqual([demo.stores.palermo, demo.stores.avellaneda, demo.stores.showroom, 'selling_address', 'platform_facility']);
    expect(grid.rows.map((r) => r.userProductId)).toEqual([demo.userProducts.termo, demo.userProducts.mate]);
    const termo = grid.rows[0]!;
    expect(termo.title).not.toBeNull();
    expect(termo.cells[demo.stores.palermo]).toMatchObject({ shown: 15, state: 'pending', remote: { quantity: 12 } });
    expect(termo.cells[demo.stores.avellaneda]).toMatchObject({ shown: 30, state: 'synced' });
    expect(termo.cells.platform_facility).toMatchObject({ shown: 8, editable: false });
    expect(grid.rows[1]!.cells.selling_address).toMatchObject({ shown: 9, state: 'pending', remote: { quantity: 5 } });
  });

  it('overlay applies intents in order', () => {
    const e = (op: 'adjust' | 'count', v: number) =>
      ({ op, delta: op === 'adjust' ? v : null, quantity: op === 'count' ? v : null }) as Pick<OutboxRow, 'op' | 'delta' | 'quantity'>;
    expect(overlay(10, [e('adjust', 2), e('count', 7), e('adjust', -1)])).toBe(6);
  });
});

describe('retry policy', () => {
  it('grows exponentially with jitter, is capped, and never retries before Retry-After', () => {
    const p = { ...DEFAULT_RETRY, baseMs: 100, maxMs: 1000 };
    expect(backoffDelay(1, p, () => 0)).toBe(50);
    expect(backoffDelay(1, p, () => 1)).toBe(100);
    expect(backoffDelay(3, p, () => 1)).toBe(400);
    expect(backoffDelay(20, p, () => 1)).toBe(1000);
    expect(backoffDelay(1, p, () => 0, 5000)).toBe(5000);
    expect(backoffDelay(1, { ...p, retryAfterCapMs: 2000 }, () => 0, 5000)).toBe(2000);
  });
});

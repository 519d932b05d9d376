import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadFixtures, parseFixtures } from '../../main/fixtures/load.js';
import { staticTokenProvider } from '../../main/sync/client.js';
import { SyncEngine } from '../../main/sync/engine.js';
import { type CellRef, cellKey } from '../../main/sync/outbox.js';
import { cellView, gridRows, history } from '../../main/sync/read-model.js';
import { demo, demoFixtures } from '../support/fixtures.js';
import { manualClock } from '../support/messages.js';
import { type Replica, newReplica } from '../support/sync-harness.js';

/**
 * Transfers, reasons and undo in the outbox (issue 14 §5, §6, §7), without a network: a replica
 * whose mirror holds the demo marketplace (termo: Palermo 12, Avellaneda 30), a real SQLite file,
 * an engine in offline mode for the queue-time checks.
 */
let replica: Replica;
let engine: SyncEngine;
const clock = manualClock('2026-11-20T12:00:00.000Z');
const up = demo.userProducts.termo;
const palermo: CellRef = { userProductId: up, type: 'seller_warehouse', storeKey: demo.stores.palermo };
const avellaneda: CellRef = { userProductId: up, type: 'seller_warehouse', storeKey: demo.stores.avellaneda };
const target = (c: CellRef) => ({ userProductId: c.userProductId, type: c.type, storeId: c.storeKey });
const key = (c: CellRef) => cellKey(c.userProductId, c.type, c.storeKey);

beforeEach(() => {
  replica = newReplica();
  loadFixtures(replica.db, parseFixtures(demoFixtures()));
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

const outbox = () => engine.outbox;
const active = (c: CellRef) => outbox().repo.activeOfCell(key(c));
const shown = (c: CellRef) => cellView(replica.db, c).shown;
const transfer = (units: number, from = palermo, to = avellaneda) => engine.queueTransfer({ ...target(from), toStoreId: to.storeKey, units, author: 'ana' });
/** Puts an entry on the wire as the worker would (claimed, request persisted). */
function sendEntry(id: number) {
  outbox().repo.claim(id, clock.now());
  outbox().repo.setSent(id, 1n, 7, clock.now(), randomUUID(), 35);
}

describe('a transfer is one entry of both cells', () => {
  it('queues one entry, shows on both cells, and writes a transfer row in each cell history', () => {
    const r = transfer(5);
    expect(r).toMatchObject({ how: 'queued', shown: 7, shownTo: 35 });
    const rows = replica.db.prepare('SELECT id, cell, cell2, op, delta, reason FROM sync_outbox').all();
    expect(rows).toEqual([{ id: r.entryId, cell: key(palermo), cell2: key(avellaneda), op: 'adjust', delta: -5, reason: 'transfer' }]);
    expect(active(palermo).map((e) => e.id)).toEqual([r.entryId]);
    expect(active(avellaneda).map((e) => e.id)).toEqual([r.entryId]);
    expect(cellView(replica.db, palermo)).toMatchObject({
      shown: 7,
      state: 'pending',
      entries: [{ transfer: { from: demo.stores.palermo, to: demo.stores.avellaneda, units: 5 } }],
    });
    expect(cellView(replica.db, avellaneda)).toMatchObject({ shown: 35, state: 'pending' });
    const row = gridRows(replica.db, { sellerId: demo.seller.id, limit: 10 }).rows.find((x) => x.userProductId === up)!;
    expect(row.cells[demo.stores.palermo]!.shown).toBe(7);
    expect(row.cells[demo.stores.avellaneda]!.shown).toBe(35);
    expect(history(replica.db, palermo)[0]).toMatchObject({
      kind: 'adjustment',
      reason: 'transfer',
      delta: -5,
      from_quantity: 12,
      to_quantity: 7,
      entry_id: r.entryId,
    });
    expect(history(replica.db, avellaneda)[0]).toMatchObject({
      kind: 'adjustment',
      reason: 'transfer',
      delta: 5,
      from_quantity: 30,
      to_quantity: 35,
      link: r.historyId,
    });
    expect(engine.status()).toMatchObject({ pending: 1 });
  });

  it('is refused when the source would go below 0, or between the same store; nothing is left behind', () => {
    expect(() => transfer(13)).toThrow('would take the source store below 0');
    expect(() => transfer(1, palermo, palermo)).toThrow('two different stores');
    expect(() => engine.queueTransfer({ ...target(palermo), toStoreId: demo.stores.otherSellers, units: 1 })).toThrow();
    expect(replica.db.prepare('SELECT count(*) AS n FROM sync_outbox').get()).toEqual({ n: 0 });
    expect(history(replica.db, palermo)).toEqual([]);
  });

  it('never coalesces: an adjustment after it is its own entry; a count keeps it and counts on its effect', () => {
    const t = transfer(5);
    const a = engine.queueAdjustment({ ...target(avellaneda), delta: 1 });
    expect(a.entryId).not.toBe(t.entryId);
    const c = engine.queueCount({ ...target(palermo), quantity: 6 });
    expect(outbox().repo.byId(t.entryId!)).toBeDefined();
    // The count's base is what the remote will hold once the transfer landed.
    expect(outbox().repo.byId(c.entryId!)).toMatchObject({ op: 'count', base_quantity: 7 });
    // Discarding the transfer corrects that base back.
    engine.discard(t.entryId!, { author: 'ana' });
    expect(outbox().repo.byId(c.entryId!)).toMatchObject({ base_quantity: 12 });
    expect(shown(avellaneda)).toBe(31);
  });
});

describe('reasons', () => {
  it('every edit carries its reason in its entry and its history; different reasons do not merge', () => {
    const received = engine.queueAdjustment({ ...target(palermo), delta: 5, reason: 'received' });
    const again = engine.queueAdjustment({ ...target(palermo), delta: 2, reason: 'received' });
    expect(again).toMatchObject({ entryId: received.entryId, how: 'merged' });
    const damaged = engine.queueAdjustment({ ...target(palermo), delta: -1, reason: 'damaged' });
    expect(damaged.how).toBe('queued');
    expect(outbox().repo.byId(damaged.entryId!)).toMatchObject({ reason: 'damaged', delta: -1 });
    const plain = engine.queueAdjustment({ ...target(avellaneda), delta: 1 });
    expect(outbox().repo.byId(plain.entryId!)!.reason).toBe('correction');
    const count = engine.queueCount({ ...target(avellaneda), quantity: 3 });
    expect(outbox().repo.byId(count.entryId!)!.reason).toBe('count');
    expect(history(replica.db, palermo).map((h) => h.reason)).toEqual(['damaged', 'received', 'received']);
    expect(history(replica.db, avellaneda).map((h) => h.reason)).toEqual(['count', 'correction']);
    expect(cellView(replica.db, palermo).entries.map((e) => e.reason)).toEqual(['received', 'damaged']);
  });
});

describe('undo the last edit', () => {
  it('a pending adjustment is withdrawn: the entry reduced, then removed; a second undo takes the edit before', () => {
    const a = engine.queueAdjustment({ ...target(palermo), delta: 5, reason: 'received', author: 'ana' });
    engine.queueAdjustment({ ...target(palermo), delta: 3, reason: 'received', author: 'ana' });
    expect(shown(palermo)).toBe(20);
    expect(engine.undoLast('ana')).toMatchObject({ how: 'withdrawn', userProductId: up });
    expect(outbox().repo.byId(a.entryId!)).toMatchObject({ delta: 5 });
    expect(shown(palermo)).toBe(17);
    expect(engine.undoLast('ana')).toMatchObject({ how: 'withdrawn', undone: a.historyId });
    expect(active(palermo)).toEqual([]);
    expect(shown(palermo)).toBe(12);
    expect(history(replica.db, palermo)[0]).toMatchObject({ reason: 'correction', undoes: a.historyId, from_quantity: 17, to_quantity: 12 });
    expect(engine.undoLast('ana')).toMatchObject({ how: 'nothing' });
    // Only the author's own edits.
    engine.queueAdjustment({ ...target(palermo), delta: 1, author: 'bea' });
    expect(engine.undoLast('ana')).toMatchObject({ how: 'nothing' });
  });

  it('a pending count is withdrawn: removed, or put back to the count it replaced', () => {
    engine.queueCount({ ...target(palermo), quantity: 40, author: 'ana' });
    const second = engine.queueCount({ ...target(palermo), quantity: 50, author: 'ana' });
    expect(engine.undoLast('ana').how).toBe('withdrawn');
    expect(outbox().repo.byId(second.entryId!)).toMatchObject({ op: 'count', quantity: 40, base_quantity: 12 });
    expect(engine.undoLast('ana').how).toBe('withdrawn');
    expect(active(palermo)).toEqual([]);
    expect(shown(palermo)).toBe(12);
  });

  it('an edit on the wire gets an inverse adjustment (reason correction) queued behind it', () => {
    const a = engine.queueAdjustment({ ...target(palermo), delta: -4, reason: 'damaged', author: 'ana' });
    sendEntry(a.entryId!);
    const u = engine.undoLast('ana');
    expect(u.how).toBe('inverse');
    const entries = active(palermo);
    expect(entries.map((e) => [e.id, e.delta, e.reason])).toEqual([
      [a.entryId, -4, 'damaged'],
      [entries[1]!.id, 4, 'correction'],
    ]);
    // The request on the wire is untouched (same key, same content).
    expect(outbox().repo.byId(a.entryId!)).toMatchObject({ sent_quantity: 7, state: 'in_flight' });
    expect(shown(palermo)).toBe(12);
  });

  it('a synced edit (its entry done) gets an inverse adjustment; a count is taken back by its difference', () => {
    const c = engine.queueCount({ ...target(palermo), quantity: 20, author: 'ana' });
    outbox().repo.claim(c.entryId!, clock.now());
    outbox().repo.markDone(c.entryId!, { result_version: 2n, result: null, status: 200 }, clock.now());
    outbox().mirror.setCell(up, 'seller_warehouse', demo.stores.palermo, null, 20);
    expect(engine.undoLast('ana').how).toBe('inverse');
    expect(active(palermo).map((e) => [e.op, e.delta, e.reason])).toEqual([['adjust', -8, 'correction']]);
    expect(shown(palermo)).toBe(12);
  });

  it('a pending transfer is withdrawn from both cells; one on the wire is transferred back', () => {
    const t = transfer(5);
    expect(engine.undoLast('ana')).toMatchObject({ how: 'withdrawn', undone: t.historyId });
    expect(outbox().repo.byId(t.entryId!)).toBeUndefined();
    expect([shown(palermo), shown(avellaneda)]).toEqual([12, 30]);
    expect(history(replica.db, avellaneda)[0]).toMatchObject({ reason: 'correction', from_quantity: 35, to_quantity: 30 });

    const t2 = transfer(2);
    sendEntry(t2.entryId!);
    expect(engine.undoLast('ana').how).toBe('inverse');
    const back = active(avellaneda).at(-1)!;
    expect(back).toMatchObject({ cell: key(avellaneda), cell2: key(palermo), delta: -2, reason: 'correction' });
    expect([shown(palermo), shown(avellaneda)]).toEqual([12, 30]);
  });

  it('a failed edit that is just that edit is dropped (it was not part of the quantity shown)', () => {
    const a = engine.queueAdjustment({ ...target(palermo), delta: -10, author: 'ana' });
    outbox().repo.claim(a.entryId!, clock.now());
    outbox().repo.markFailed(a.entryId!, 400, 'refused', clock.now(), true);
    expect(shown(palermo)).toBe(12);
    expect(engine.undoLast('ana').how).toBe('withdrawn');
    expect(outbox().repo.byId(a.entryId!)).toBeUndefined();
    expect(shown(palermo)).toBe(12);
  });
});

describe('a failed edit is not part of the quantity shown', () => {
  it('a failed −30 on a stock of 10 shows 10, in the cell and in the grid; a pending one applies', () => {
    outbox().mirror.setCell(up, 'seller_warehouse', demo.stores.palermo, null, 40);
    const a = engine.queueAdjustment({ ...target(palermo), delta: -30 });
    outbox().mirror.setCell(up, 'seller_warehouse', demo.stores.palermo, null, 10);
    expect(shown(palermo)).toBe(-20);
    outbox().repo.claim(a.entryId!, clock.now());
    outbox().repo.markFailed(a.entryId!, null, 'The adjustment of -30 would take the stock below 0: the marketplace has 10', clock.now(), true);
    expect(cellView(replica.db, palermo)).toMatchObject({ shown: 10, state: 'failed', error: { entryId: a.entryId } });
    const row = gridRows(replica.db, { sellerId: demo.seller.id, limit: 10 }).rows.find((x) => x.userProductId === up)!;
    expect(row.cells[demo.stores.palermo]).toMatchObject({ shown: 10, state: 'failed' });
    // Retried, it is pending again and applies again.
    engine.retry(a.entryId!);
    expect(shown(palermo)).toBe(-20);
  });
});

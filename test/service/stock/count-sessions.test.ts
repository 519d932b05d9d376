import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CountProfile, countSessions } from '../../../main/desktop/count-sessions.js';
import { countSessionsRepo } from '../../../main/db/repos/count-sessions.js';
import { mirrorRepo } from '../../../main/db/repos/mirror.js';
import { loadFixtures } from '../../../main/fixtures/load.js';
import { createService, type Service } from '../../../main/service/index.js';
import type { SyncEngine } from '../../../main/sync/engine.js';
import { demo, demoFixtures } from '../../support/fixtures.js';
import { type Replica, newEngine, newReplica } from '../../support/sync-harness.js';

/**
 * Count sessions over a replica's real SQLite file: the mirror holds the demo marketplace, the
 * engine is offline (nothing is sent), so what the apply queues is read back from the outbox.
 */
describe('count sessions on a replica', () => {
  let replica: Replica;
  let service: Service;
  let engine: SyncEngine;
  let p: CountProfile;
  const now = 1_700_000_000_000;

  const open = () => {
    service = createService(replica.db, { clock: { now: () => now } });
    engine = newEngine(
      replica,
      { url: 'http://127.0.0.1:9', token: demo.seller.token, sellerId: demo.seller.id },
      { mode: 'offline', clock: { now: () => now } },
    );
    p = {
      kind: 'remote',
      db: replica.db,
      sellerId: demo.seller.id,
      principal: { userId: demo.seller.id, applicationId: demo.app },
      author: 'tester',
      engine,
      service,
    };
  };
  beforeEach(() => {
    replica = newReplica();
    loadFixtures(replica.db, demoFixtures());
    open();
  });
  afterEach(async () => {
    await engine.stop();
    await service.stop();
    replica.remove();
  });

  const outbox = () =>
    replica.db
      .prepare('SELECT user_product_id, op, quantity, CAST(base_version AS TEXT) AS base_version, base_quantity, state FROM sync_outbox ORDER BY id')
      .all();

  it('lists the store products, counts by scan and by hand, reviews the variances, and applies them as counts at their bases', () => {
    const s = countSessions.start(p, { storeId: demo.stores.palermo });
    expect(s).toMatchObject({ storeId: demo.stores.palermo, storeLabel: 'Depósito Palermo', state: 'open', blind: false, lines: 1, counted: 0 });
    expect(countSessions.page(p, s.id, 50, 0).lines).toEqual([
      expect.objectContaining({ userProductId: demo.userProducts.termo, counted: null, expected: 12, outcome: null }),
    ]);

    // Three scans of the termo by its item id, then one of two units.
    for (let i = 0; i < 3; i++) countSessions.scan(p, s.id, demo.items.termo);
    const scan = countSessions.scan(p, s.id, demo.items.termo, 2);
    expect(scan).toMatchObject({ added: false, previous: 3, line: { counted: 5, expected: 12 } });
    // An unknown code changes nothing.
    expect(() => countSessions.scan(p, s.id, '0000000000000')).toThrow(/Nothing matches the code 0000000000000/);
    expect(countSessions.page(p, s.id, 50, 0).lines[0]!.counted).toBe(5);
    // Typed by hand.
    expect(countSessions.set(p, s.id, demo.userProducts.termo, 9)).toMatchObject({ counted: 9, expected: 12 });

    const review = countSessions.review(p, s.id);
    expect(review.lines).toEqual([
      expect.objectContaining({ userProductId: demo.userProducts.termo, counted: 9, expected: 12, difference: -3, current: 12, moved: false }),
    ]);
    expect(review.totals).toEqual({ over: 0, under: 1, matched: 0, moved: 0 });
    // Nothing is queued before the apply.
    expect(outbox()).toEqual([]);

    return countSessions.apply(p, s.id).then((applied) => {
      expect(applied.session.state).toBe('applied');
      expect(applied.lines[0]!.outcome).toBe('queued');
      expect(outbox()).toEqual([
        { user_product_id: demo.userProducts.termo, op: 'count', quantity: 9, base_version: '1', base_quantity: 12, state: 'pending' },
      ]);
      // The history row names the session.
      const h = replica.db.prepare('SELECT kind, ref, to_quantity FROM sync_cell_history ORDER BY id DESC LIMIT 1').get();
      expect(h).toEqual({ kind: 'count', ref: `count session ${s.id}`, to_quantity: 9 });
    });
  });

  it('a cell that moved since it was counted is a conflict at Apply, the one the review announced', async () => {
    const s = countSessions.start(p, { storeId: demo.stores.palermo });
    countSessions.set(p, s.id, demo.userProducts.termo, 10);
    // A pull brings another workstation's sale: the mirror moves from 12 to 11 at version 2.
    const mirror = mirrorRepo(replica.db);
    mirror.setCell(demo.userProducts.termo, 'seller_warehouse', demo.stores.palermo, null, 11);
    mirror.setVersion(demo.userProducts.termo, 2n);
    const review = countSessions.review(p, s.id);
    expect(review.lines[0]).toMatchObject({ expected: 12, current: 11, moved: true, difference: -2 });
    expect(review.totals.moved).toBe(1);

    await countSessions.apply(p, s.id);
    // Counted against 12; the cell shows 11 now: the person chooses (keep the count of 10, or the marketplace's 11).
    expect(outbox()).toEqual([
      { user_product_id: demo.userProducts.termo, op: 'count', quantity: 10, base_version: '2', base_quantity: 12, state: 'conflict' },
    ]);
  });

  it('applies all or nothing, once', async () => {
    const s = countSessions.start(p, { storeId: demo.stores.avellaneda });
    countSessions.set(p, s.id, demo.userProducts.termo, 31);
    // A second apply racing the first: exactly one succeeds, one count is queued.
    const [a, b] = await Promise.allSettled([countSessions.apply(p, s.id), countSessions.apply(p, s.id)]);
    expect([a.status, b.status].sort()).toEqual(['fulfilled', 'rejected']);
    expect(outbox()).toHaveLength(1);

    // A refused line (the store was removed from the seller's stores since) leaves none queued and the session open.
    const t = countSessions.start(p, { storeId: demo.stores.palermo });
    countSessions.set(p, t.id, demo.userProducts.termo, 3);
    replica.db.prepare("UPDATE stores SET tags = '[]' WHERE id = ?").run(demo.stores.palermo);
    await expect(countSessions.apply(p, t.id)).rejects.toThrow(demo.userProducts.termo);
    expect(outbox()).toHaveLength(1);
    expect(countSessions.page(p, t.id, 10, 0).session.state).toBe('open');
    expect(countSessionsRepo(replica.db).line(t.id, demo.userProducts.termo)!.outcome).toBeNull();
  });

  it('blind: the counting view hides the expected quantity; the review shows it', () => {
    const s = countSessions.start(p, { storeId: demo.stores.palermo, blind: true });
    expect(s.blind).toBe(true);
    expect(countSessions.page(p, s.id, 10, 0).lines[0]!.expected).toBeNull();
    expect(countSessions.scan(p, s.id, demo.userProducts.termo)).toMatchObject({ line: { counted: 1, expected: null } });
    expect(countSessions.set(p, s.id, demo.userProducts.termo, 4).expected).toBeNull();
    expect(countSessions.review(p, s.id).lines[0]).toMatchObject({ counted: 4, expected: 12, difference: -8 });
  });

  it('a scanned product the session did not list is only counted once the person chose to add it; a product kept at the selling address is refused', () => {
    const s = countSessions.start(p, { storeId: demo.stores.palermo, search: 'no such words' });
    expect(s.lines).toBe(0);
    // Outside the session's filter: said, nothing counted, no line.
    expect(countSessions.scan(p, s.id, demo.items.termo)).toEqual({
      outside: { userProductId: demo.userProducts.termo, title: expect.any(String), why: 'filtered_out' },
    });
    expect(countSessions.page(p, s.id, 10, 0).total).toBe(0);
    // Not in the store at all (only at the marketplace's facility): said so too.
    expect(countSessions.scan(p, s.id, demo.items.yerba)).toMatchObject({ outside: { userProductId: demo.userProducts.yerba, why: 'not_in_store' } });
    expect(countSessions.page(p, s.id, 10, 0).total).toBe(0);
    expect(countSessions.scan(p, s.id, demo.items.termo, 1, true)).toMatchObject({
      added: true,
      line: { userProductId: demo.userProducts.termo, counted: 1, expected: 12 },
    });
    expect(() => countSessions.scan(p, s.id, demo.items.mate)).toThrow(/cannot hold selling_address and seller_warehouse/);
    expect(countSessions.page(p, s.id, 10, 0).total).toBe(1);
    expect(() => countSessions.start(p, { storeId: demo.stores.otherSellers })).toThrow(/not one of your stock locations/);
  });

  it('a session survives a restart half-done', async () => {
    const s = countSessions.start(p, { storeId: demo.stores.palermo, blind: true });
    countSessions.scan(p, s.id, demo.items.termo);
    countSessions.scan(p, s.id, demo.items.termo);
    await engine.stop();
    await service.stop();
    replica.reopen();
    open();
    const again = countSessions.page(p, s.id, 10, 0);
    expect(again.session).toMatchObject({ state: 'open', blind: true, counted: 1 });
    expect(again.lines[0]).toMatchObject({ counted: 2, expected: null });
    countSessions.scan(p, s.id, demo.items.termo);
    await countSessions.apply(p, s.id);
    expect(outbox()).toEqual([expect.objectContaining({ quantity: 3, base_quantity: 12 })]);
    expect(countSessions.list(p)[0]).toMatchObject({ id: s.id, state: 'applied' });
  });
});

describe('count sessions where the app is the marketplace (local-only)', () => {
  let replica: Replica;
  let service: Service;
  let engine: SyncEngine;
  let p: CountProfile;
  beforeEach(() => {
    replica = newReplica();
    loadFixtures(replica.db, demoFixtures());
    service = createService(replica.db);
    engine = newEngine(replica, { url: 'http://127.0.0.1:9', token: demo.seller.token, sellerId: demo.seller.id }, { mode: 'local-only' });
    p = {
      kind: 'local',
      db: replica.db,
      sellerId: demo.seller.id,
      principal: { userId: demo.seller.id, applicationId: demo.app },
      author: 'tester',
      engine,
      service,
    };
  });
  afterEach(async () => {
    await engine.stop();
    await service.stop();
    replica.remove();
  });

  const quantity = (store: string) => mirrorRepo(replica.db).cellQuantity(demo.userProducts.termo, 'seller_warehouse', store);

  it('writes every difference through the service in one write, with the session applied in the same one', async () => {
    const s = countSessions.start(p, { storeId: demo.stores.avellaneda });
    countSessions.set(p, s.id, demo.userProducts.termo, 28);
    const r = await countSessions.apply(p, s.id);
    expect(r.lines[0]).toMatchObject({ counted: 28, expected: 30, difference: -2, current: 28, outcome: 'applied' });
    expect(quantity(demo.stores.avellaneda)).toBe(28);
    await expect(countSessions.apply(p, s.id)).rejects.toThrow(/is applied/);
    // Matching lines change nothing.
    const t = countSessions.start(p, { storeId: demo.stores.avellaneda });
    countSessions.set(p, t.id, demo.userProducts.termo, 28);
    expect((await countSessions.apply(p, t.id)).lines[0]!.outcome).toBe('unchanged');
    expect(replica.db.prepare("SELECT count(*) AS n FROM sync_cell_history WHERE ref LIKE 'count session %'").get()).toEqual({ n: 1 });
  });
});

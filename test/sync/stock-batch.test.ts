import { afterEach, describe, expect, it } from 'vitest';
import { TokenBudget } from '../../main/sync/budget.js';
import { systemClock } from '../../main/service/clock.js';
import { cellView } from '../../main/sync/read-model.js';
import { startFaultProxy } from '../support/fault-proxy.js';
import { demo } from '../support/fixtures.js';
import { demoRemote, termoCells } from '../support/demo-remote.js';
import { startTestServer } from '../support/server.js';
import { FAST_RETRY, type SyncedReplica, waitFor, newEngine, newReplica, startSyncedReplica, stopSyncedReplica, syncMarket } from '../support/sync-harness.js';

/**
 * One request per product (issue 29) against the real remote on loopback behind the logging
 * fault proxy, on a real replica file: the due entries of a product's stores go out as one PUT,
 * each settles by its own rule, and under the rate-limit double the budget causes no 429.
 */
let s: SyncedReplica | null = null;
afterEach(async () => {
  if (s) await stopSyncedReplica(s);
  s = null;
});

const { termo, palermo, avellaneda, palermoRef } = termoCells;
const avellanedaRef = { ...palermoRef, storeKey: demo.stores.avellaneda };
const P = `seller_warehouse|${demo.stores.palermo}`;
const A = `seller_warehouse|${demo.stores.avellaneda}`;
const { remoteQty, otherWrite } = demoRemote(() => s!.server);
const puts = () => s!.proxy.log.filter((l) => l.method === 'PUT');

describe('one request per product', () => {
  it('the queued edits of every store of a product go as ONE PUT, and each entry settles on its own', async () => {
    s = await startSyncedReplica();
    const { engine, proxy, replica } = s;
    engine.setMode('offline');
    const a = engine.queueAdjustment({ ...palermo, delta: 3 });
    const b = engine.queueAdjustment({ ...avellaneda, delta: -4 });
    // A count after an adjustment of the same store stays its own entry, based on the adjustment's effect.
    const c = engine.queueCount({ ...palermo, quantity: 20 });
    const synced: number[] = [];
    engine.on('synced', (e) => synced.push(e.entryId));
    engine.setMode('online');
    await engine.drain();
    expect(puts()).toHaveLength(1);
    expect(proxy.log.filter((l) => l.method === 'PUT').map((l) => l.status)).toEqual([200]);
    for (const r of [a, b, c]) expect(engine.outbox.repo.byId(r.entryId!)).toMatchObject({ state: 'done', last_status: 200 });
    expect(synced.sort()).toEqual([a.entryId, b.entryId, c.entryId].sort());
    expect(await remoteQty(termo, P)).toBe(20);
    expect(await remoteQty(termo, A)).toBe(26);
    // One PUT applied: the product's version moved once, and the mirror followed it without a re-read.
    expect(cellView(replica.db, palermoRef)).toMatchObject({ remote: { quantity: 20, version: '2' }, shown: 20, state: 'synced' });
    expect(cellView(replica.db, avellanedaRef)).toMatchObject({ remote: { quantity: 26, version: '2' }, shown: 26, state: 'synced' });
  });

  it('on 409 a count whose store moved becomes a conflict and is left out; the adjustment is rebased and goes on under a fresh key', async () => {
    s = await startSyncedReplica();
    const { engine, proxy } = s;
    engine.setMode('offline');
    const count = engine.queueCount({ ...palermo, quantity: 20 });
    const adjust = engine.queueAdjustment({ ...avellaneda, delta: 5 });
    // Someone else moves the counted store on the remote meanwhile (version 2).
    await otherWrite(demo.stores.palermo, 15);
    const before = proxy.log.length;
    engine.setMode('online');
    await engine.drain();
    // The refused PUT, one read of the product, the rest of the batch (a refresh read may follow the conflict).
    const stock = proxy.log.slice(before).filter((l) => l.path.startsWith(`/user-products/${termo}/stock`));
    expect(stock.filter((l) => l.method === 'PUT').map((l) => l.status)).toEqual([409, 200]);
    expect(stock.slice(0, 2).map((l) => `${l.method} ${l.status}`)).toEqual(['PUT 409', 'GET 200']);
    const [first, second] = puts();
    expect(first!.key).not.toBe(second!.key);
    expect(engine.outbox.repo.byId(count.entryId!)).toMatchObject({ state: 'conflict', remote_quantity: 15, base_quantity: 12, quantity: 20 });
    expect(engine.outbox.repo.byId(adjust.entryId!)).toMatchObject({ state: 'done', idempotency_key: second!.key });
    // The count was not sent: the remote keeps the other write, and the adjustment is on the fresh quantity.
    expect(await remoteQty(termo, P)).toBe(15);
    expect(await remoteQty(termo, A)).toBe(35);
  });

  it('an adjustment that no longer fits fails alone; the other store of the product goes on', async () => {
    s = await startSyncedReplica();
    const { engine } = s;
    engine.setMode('offline');
    const take = engine.queueAdjustment({ ...palermo, delta: -10 });
    const add = engine.queueAdjustment({ ...avellaneda, delta: 1 });
    // A sale leaves 2 in the store the −10 comes out of.
    await otherWrite(demo.stores.palermo, 2);
    engine.setMode('online');
    await engine.drain();
    expect(engine.outbox.repo.byId(take.entryId!)).toMatchObject({ state: 'failed' });
    expect(engine.outbox.repo.byId(take.entryId!)!.last_error).toMatch(/below 0/);
    expect(engine.outbox.repo.byId(add.entryId!)).toMatchObject({ state: 'done' });
    expect(await remoteQty(termo, P)).toBe(2);
    expect(await remoteQty(termo, A)).toBe(31);
  });
});

/** The demo remote behind the proxy and an engine that gives up after two attempts (an outcome becomes unknown quickly). */
async function startGivingUpEarly(): Promise<SyncedReplica> {
  const server = await startTestServer();
  const proxy = await startFaultProxy(server.url);
  const replica = newReplica();
  const engine = newEngine(replica, { url: proxy.url, token: demo.seller.token, sellerId: demo.seller.id }, { retry: { ...FAST_RETRY, maxAttempts: 2 } });
  engine.start();
  await engine.pullNow();
  return { server, proxy, replica, engine };
}

/**
 * Both stores of the termo queued, then sent as one PUT whose two tries both meet `fault`
 * ('reset': applied on the remote, the answer lost; 'drop': never reached it): both entries end
 * with their outcome unknown, sharing the batch's key.
 */
async function batchOfUnknownOutcome(fault: 'reset' | 'drop') {
  const { engine, proxy } = s!;
  engine.setMode('offline');
  const a = engine.queueAdjustment({ ...palermo, delta: 3 });
  const b = engine.queueAdjustment({ ...avellaneda, delta: -4 });
  proxy.inject(fault, 2, (method, path) => method === 'PUT' && path.includes(termo));
  engine.setMode('online');
  await engine.drain();
  const [ea, eb] = [engine.outbox.repo.byId(a.entryId!)!, engine.outbox.repo.byId(b.entryId!)!];
  expect([ea.state, eb.state]).toEqual(['failed', 'failed']);
  expect(ea.sent_at).not.toBeNull();
  expect(ea.idempotency_key).toBe(eb.idempotency_key);
  return { a: a.entryId!, b: b.entryId!, key: ea.idempotency_key };
}

describe('a batch whose outcome is unknown (issue 29: a key carries one request body)', () => {
  // The first of the two goes again, or is taken back (an entry of unknown outcome holds its whole
  // product until the person acts): either way the same request goes under the same key.
  it.each([
    ['retrying one entry of an applied batch learns the request was applied: no 422, both done, nothing applied twice', (a: number) => s!.engine.retry(a)],
    [
      'taking back one entry of an applied batch (the check) finds it applied: done, not withdrawn, and its mate with it',
      (a: number) => expect(s!.engine.discard(a, { author: 'ana' })).toEqual({ how: 'checking' }),
    ],
  ])('%s', async (_, act) => {
    s = await startGivingUpEarly();
    const { a, b, key } = await batchOfUnknownOutcome('reset');
    expect(await remoteQty(termo, P)).toBe(15);
    expect(await remoteQty(termo, A)).toBe(26);
    const before = s.proxy.log.length;
    act(a);
    await s.engine.drain();
    const after = s.proxy.log.slice(before);
    expect(after.filter((l) => l.status === 422)).toEqual([]);
    // The same request under the same key (the remote replays it), never a member alone under it.
    expect(after.filter((l) => l.method === 'PUT').map((l) => [l.key, l.status])).toEqual([[key, 200]]);
    for (const id of [a, b]) expect(s.engine.outbox.repo.byId(id)).toMatchObject({ state: 'done' });
    expect(await remoteQty(termo, P)).toBe(15);
    expect(await remoteQty(termo, A)).toBe(26);
  });

  it('retrying one entry of a batch that never arrived: it goes on alone under a fresh key, its mate is told it was not applied', async () => {
    s = await startGivingUpEarly();
    const { a, b, key } = await batchOfUnknownOutcome('drop');
    const before = s.proxy.log.length;
    s.engine.retry(a);
    await s.engine.drain();
    const puts = s.proxy.log.slice(before).filter((l) => l.method === 'PUT');
    expect(puts.map((l) => l.status)).toEqual([200]);
    expect(puts[0]!.key).not.toBe(key);
    expect(s.engine.outbox.repo.byId(a)).toMatchObject({ state: 'done' });
    // Learnt not applied: still shown to the person (refused: nothing of it applied), and a retry sends it.
    expect(s.engine.outbox.repo.byId(b)).toMatchObject({ state: 'failed', sent_at: null });
    expect(s.engine.outbox.repo.byId(b)!.last_error).toMatch(/^Not applied/);
    expect(await remoteQty(termo, P)).toBe(15);
    expect(await remoteQty(termo, A)).toBe(30);
    s.engine.retry(b);
    await s.engine.drain();
    expect(s.engine.outbox.repo.byId(b)).toMatchObject({ state: 'done' });
    expect(await remoteQty(termo, A)).toBe(26);
  });
});

describe('entries of one cell go out in the order they were entered, batched too (issue 29)', () => {
  /**
   * A count of Palermo, an adjustment of Avellaneda and an adjustment of Palermo after the count,
   * queued offline; a sale moves Palermo to 15 meanwhile; the batch's first try never reaches the
   * remote (the members wait to resend it under its key, as after a kill), its resend meets the
   * 409: the count becomes a conflict, and the adjustment typed after it must wait for the person.
   */
  async function countThenAdjustmentResent() {
    const { engine, proxy } = s!;
    engine.setMode('offline');
    const count = engine.queueCount({ ...palermo, quantity: 20 });
    const other = engine.queueAdjustment({ ...avellaneda, delta: 5 });
    const after = engine.queueAdjustment({ ...palermo, delta: -3 });
    await otherWrite(demo.stores.palermo, 15);
    proxy.inject('drop', 1, (method, path) => method === 'PUT' && path.includes(termo));
    engine.setMode('online');
    await engine.drain();
    expect(engine.outbox.repo.byId(count.entryId!)).toMatchObject({ state: 'conflict', remote_quantity: 15 });
    expect(engine.outbox.repo.byId(other.entryId!)).toMatchObject({ state: 'done' });
    // Held behind the conflict of its cell, with no request of its own outstanding: never sent past it.
    expect(engine.outbox.repo.byId(after.entryId!)).toMatchObject({ state: 'pending', sent_at: null });
    expect(await remoteQty(termo, P)).toBe(15);
    expect(await remoteQty(termo, A)).toBe(35);
    return { count: count.entryId!, after: after.entryId! };
  }

  it('keep mine: the count lands, then the adjustment typed after it', async () => {
    s = await startSyncedReplica();
    const { count, after } = await countThenAdjustmentResent();
    s.engine.resolveConflict(count, { action: 'keep_mine' });
    await s.engine.drain();
    for (const id of [count, after]) expect(s.engine.outbox.repo.byId(id)).toMatchObject({ state: 'done' });
    expect(await remoteQty(termo, P)).toBe(17);
  });

  it('take theirs: the adjustment goes on the marketplace quantity', async () => {
    s = await startSyncedReplica();
    const { count, after } = await countThenAdjustmentResent();
    s.engine.resolveConflict(count, { action: 'take_theirs' });
    await s.engine.drain();
    expect(s.engine.outbox.repo.byId(after)).toMatchObject({ state: 'done' });
    expect(await remoteQty(termo, P)).toBe(12);
  });
});

describe('the request budget against the rate-limit double', () => {
  it('sends no more than the limit allows (no 429 of its own) and about one request per product', async () => {
    const products = 30;
    const market = syncMarket({ products, stores: 3, quantity: 50 });
    // The double's bucket holds 30 and refills 30 a second; the client's the same rate (1,800 a minute), 27 of burst (its headroom).
    const server = await startTestServer(market.fixtures, { rateLimit: { limits: { stock: { requests: 30, per: 's' } } } });
    const proxy = await startFaultProxy(server.url);
    const replica = newReplica();
    const budget = new TokenBudget({ clock: systemClock, rates: { stock: 1800 }, burstSeconds: 1 });
    const engine = newEngine(replica, { url: proxy.url, token: market.token, sellerId: market.sellerId }, { budget, concurrency: 16 });
    s = { server, proxy, replica, engine };
    engine.start();
    await engine.pullNow();
    // Every product's stock is read (a first pull may read it after the listings): edits need it.
    await waitFor(() => engine.status().stockRead === undefined, 'every product stock read');
    engine.setMode('offline');
    let edits = 0;
    for (const up of market.products)
      for (const store of market.stores) {
        engine.queueAdjustment({ userProductId: up, type: 'seller_warehouse', storeId: store, delta: 1 + (edits++ % 3) });
      }
    const before = proxy.log.length;
    engine.setMode('online');
    await engine.drain();
    const sent = proxy.log.slice(before).filter((l) => l.path.includes('/stock'));
    expect(proxy.log.filter((l) => l.status === 429)).toEqual([]);
    expect(sent.length).toBeLessThanOrEqual(Math.floor(1.05 * products));
    expect(engine.outbox.repo.counts()).toMatchObject({ pending: 0, in_flight: 0, failed: 0, conflict: 0, done: edits });
    // The remote's own file (its API would count the test's reads against the same limit).
    const at = server.db.prepare<[string, string], { quantity: number }>(
      "SELECT quantity FROM stock_locations WHERE user_product_id = ? AND type = 'seller_warehouse' AND store_key = ?",
    );
    let i = 0;
    for (const up of market.products) for (const store of market.stores) expect(at.get(up, store)?.quantity, `${up} ${store}`).toBe(50 + 1 + (i++ % 3));
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DesktopCore } from '../../main/desktop/core.js';
import { demo } from '../support/fixtures.js';
import { demoRemote } from '../support/demo-remote.js';
import { demoOrders } from '../support/messages.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { FAST_RETRY } from '../support/sync-harness.js';
import { openCore, until, value } from './helpers.js';

/**
 * Count sessions and the grid on a replica of a real remote (issue 24, cases 3 and 4), and the
 * draft of a sent message (case 7), through the desktop core. The replica works offline while the
 * person counts and edits, then goes online.
 */
let remote: TestServer;
let c: Awaited<ReturnType<typeof openCore>>;
let api: DesktopCore['api'];
const { remoteQty } = demoRemote(() => remote);
const termo = demo.userProducts.termo;
const palermo = { userProductId: termo, type: 'seller_warehouse' as const, storeId: demo.stores.palermo };
const avellaneda = { ...palermo, storeId: demo.stores.avellaneda };
const P = `seller_warehouse|${demo.stores.palermo}`;
const A = `seller_warehouse|${demo.stores.avellaneda}`;

beforeEach(async () => {
  remote = await startTestServer();
  c = await openCore({ engine: { pollIntervalMs: 0, pullOnStart: false, retry: FAST_RETRY } });
  api = c.core.api;
  const connect = { baseUrl: remote.url, applicationId: demo.app, userId: demo.seller.id, accessToken: demo.seller.token };
  value(await api.settings.update({ ...connect, mode: 'online' }));
  value(await api.sync.pullNow());
  value(await api.settings.update({ mode: 'offline' }));
});
afterEach(async () => {
  await c.close();
  await remote.close();
});

async function online() {
  value(await api.settings.update({ mode: 'online' }));
  await until(async () => {
    const s = value(await api.sync.status());
    return s.online && s.pending === 0 && s.inFlight === 0 ? s : false;
  }, 'the outbox sent');
}
const cell = async (ref: typeof palermo | typeof avellaneda) => value(await api.stock.cell(ref));
const sessionOf = async (storeId: string) => value(await api.counts.start({ storeId }));

describe('3. a session count is an observation at its base, never merged with later edits', () => {
  it('a grid count of 20 typed after the shelf was counted 15 is not silently replaced: Apply makes a conflict the review announced', async () => {
    const s = await sessionOf(demo.stores.palermo);
    value(await api.counts.set({ sessionId: s.id, userProductId: termo, counted: 15 }));
    value(await api.stock.count({ ...palermo, quantity: 20 }));
    const review = value(await api.counts.review({ sessionId: s.id }));
    expect(review.lines).toEqual([expect.objectContaining({ counted: 15, expected: 12, current: 20, moved: true })]);
    value(await api.counts.apply({ sessionId: s.id }));
    const after = await cell(palermo);
    expect(after.state).toBe('conflict');
    // Both intents are there: the grid's 20 first, the session's 15 in conflict behind it.
    expect(after.entries.map((e) => [e.op, e.quantity, e.state])).toEqual([
      ['count', 20, 'pending'],
      ['count', 15, 'conflict'],
    ]);
    expect(after.conflict).toMatchObject({ local: 15, remote: { quantity: 20 } });
    // The person keeps the grid's count: take theirs drops the session's.
    value(await api.stock.resolveConflict({ entryId: after.conflict!.entryId, resolution: { action: 'take_theirs' } }));
    await online();
    expect(await remoteQty(termo, P)).toBe(20);
  });

  it('a "+2 received" typed after counting is kept, with its history row; keep mine then sends the count', async () => {
    const s = await sessionOf(demo.stores.palermo);
    value(await api.counts.set({ sessionId: s.id, userProductId: termo, counted: 15 }));
    value(await api.stock.adjust({ ...palermo, delta: 2, reason: 'received' }));
    value(await api.counts.apply({ sessionId: s.id }));
    const after = await cell(palermo);
    expect(after.entries.map((e) => [e.op, e.delta ?? e.quantity, e.state])).toEqual([
      ['adjust', 2, 'pending'],
      ['count', 15, 'conflict'],
    ]);
    const history = value(await api.stock.history(palermo));
    expect(history.map((h) => [h.kind, h.reason])).toEqual([
      ['count', 'count'],
      ['adjustment', 'received'],
    ]);
    value(await api.stock.resolveConflict({ entryId: after.conflict!.entryId, resolution: { action: 'keep_mine' } }));
    await online();
    expect(await remoteQty(termo, P)).toBe(15);
    expect(value(await api.sync.status())).toMatchObject({ conflicts: 0, failed: 0 });
  });

  it('a cell nobody touched since it was counted applies as a plain count, even with a later grid edit of another store', async () => {
    const s = await sessionOf(demo.stores.palermo);
    value(await api.counts.set({ sessionId: s.id, userProductId: termo, counted: 15 }));
    value(await api.stock.adjust({ ...avellaneda, delta: -1 }));
    expect(value(await api.counts.review({ sessionId: s.id })).lines[0]).toMatchObject({ moved: false });
    value(await api.counts.apply({ sessionId: s.id }));
    await online();
    expect([await remoteQty(termo, P), await remoteQty(termo, A)]).toEqual([15, 29]);
    expect(value(await api.sync.status())).toMatchObject({ conflicts: 0, failed: 0 });
  });
});

describe('4. a pending transfer into the counted store', () => {
  it('is in the expected quantity the review shows (as in the grid), and Apply makes no conflict', async () => {
    value(await api.stock.transfer({ userProductId: termo, fromStoreId: demo.stores.palermo, toStoreId: demo.stores.avellaneda, units: 5 }));
    expect((await cell(avellaneda)).shown).toBe(35);
    const s = await sessionOf(demo.stores.avellaneda);
    value(await api.counts.set({ sessionId: s.id, userProductId: termo, counted: 36 }));
    const review = value(await api.counts.review({ sessionId: s.id }));
    expect(review.lines).toEqual([expect.objectContaining({ expected: 35, counted: 36, current: 35, moved: false })]);
    value(await api.counts.apply({ sessionId: s.id }));
    expect((await cell(avellaneda)).state).not.toBe('conflict');
    await online();
    expect([await remoteQty(termo, P), await remoteQty(termo, A)]).toEqual([7, 36]);
    expect(value(await api.sync.status())).toMatchObject({ conflicts: 0, failed: 0 });
  });
});

describe('7. the draft of a sent message', () => {
  it('is cleared by the send itself, not by a second call from the screen', async () => {
    const pack = demoOrders.packed.pack;
    value(await api.messages.saveDraft({ packId: pack, text: 'Ya sale' }));
    expect(value(await api.messages.drafts()).map((d) => d.packId)).toContain(pack);
    value(await api.messages.send({ packId: pack, text: 'Ya sale' }));
    expect(value(await api.messages.drafts()).map((d) => d.packId)).not.toContain(pack);
  });
});

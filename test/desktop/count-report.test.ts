import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DesktopCore } from '../../main/desktop/core.js';
import { demo } from '../support/fixtures.js';
import { demoRemote } from '../support/demo-remote.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { FAST_RETRY } from '../support/sync-harness.js';
import { openCore, until, value } from './helpers.js';

/**
 * The count report after Apply (issue 27): each line says what became of it, and only a cell that
 * really moved between its count and Apply is flagged (the cell after Apply shows the count itself,
 * which is no move). A replica of a real remote, offline while counting, then online.
 */
let remote: TestServer;
let c: Awaited<ReturnType<typeof openCore>>;
let api: DesktopCore['api'];
const { remoteQty, otherWrite } = demoRemote(() => remote);
const termo = demo.userProducts.termo;
const palermo = { userProductId: termo, type: 'seller_warehouse' as const, storeId: demo.stores.palermo };
const avellaneda = { ...palermo, storeId: demo.stores.avellaneda };

beforeEach(async () => {
  remote = await startTestServer();
  c = await openCore({ engine: { pollIntervalMs: 0, pullOnStart: false, retry: FAST_RETRY } });
  api = c.core.api;
  value(await api.settings.update({ baseUrl: remote.url, applicationId: demo.app, userId: demo.seller.id, accessToken: demo.seller.token, mode: 'online' }));
  value(await api.sync.pullNow());
  value(await api.settings.update({ mode: 'offline' }));
});
afterEach(async () => {
  await c.close();
  await remote.close();
});

const settled = () =>
  until(async () => {
    const s = value(await api.sync.status());
    return s.online && s.pending === 0 && s.inFlight === 0 ? s : false;
  }, 'the outbox sent');

describe('the count report after Apply', () => {
  it('an untouched cell is applied and sent, not "changed since counted"; only the cell edited in between is a conflict', async () => {
    const quiet = value(await api.counts.start({ storeId: demo.stores.palermo }));
    value(await api.counts.set({ sessionId: quiet.id, userProductId: termo, counted: 15 }));
    const moved = value(await api.counts.start({ storeId: demo.stores.avellaneda }));
    value(await api.counts.set({ sessionId: moved.id, userProductId: termo, counted: 25 }));
    // The Avellaneda cell moves after its count: a grid count of 28.
    value(await api.stock.count({ ...avellaneda, quantity: 28 }));

    const a = value(await api.counts.apply({ sessionId: quiet.id }));
    expect(a.lines).toEqual([expect.objectContaining({ counted: 15, expected: 12, current: 15, before: 12, moved: false, result: 'queued' })]);
    expect(a.totals.moved).toBe(0);
    const b = value(await api.counts.apply({ sessionId: moved.id }));
    expect(b.lines).toEqual([expect.objectContaining({ counted: 25, expected: 30, before: 28, moved: true, result: 'conflict' })]);
    expect(b.totals.moved).toBe(1);

    value(await api.settings.update({ mode: 'online' }));
    await settled();
    expect(value(await api.counts.review({ sessionId: quiet.id })).lines[0]).toMatchObject({ moved: false, result: 'sent' });
    expect(await remoteQty(termo, `seller_warehouse|${demo.stores.palermo}`)).toBe(15);
    // The conflict stays a conflict until resolved; take theirs drops the count, and the report says so.
    const after = value(await api.stock.cell(avellaneda));
    expect(after.conflict).not.toBeNull();
    value(await api.stock.resolveConflict({ entryId: after.conflict!.entryId, resolution: { action: 'take_theirs' } }));
    expect(value(await api.counts.review({ sessionId: moved.id })).lines[0]).toMatchObject({ moved: true, before: 28, result: 'dropped' });
  });

  it('a count whose cell the marketplace changed after Apply becomes a conflict when sent, with no move before Apply', async () => {
    const s = value(await api.counts.start({ storeId: demo.stores.palermo }));
    value(await api.counts.set({ sessionId: s.id, userProductId: termo, counted: 10 }));
    expect(value(await api.counts.apply({ sessionId: s.id })).lines[0]).toMatchObject({ moved: false, result: 'queued' });
    // Another workstation counts 9 at the marketplace before this one goes online.
    await otherWrite(demo.stores.palermo, 9);
    value(await api.settings.update({ mode: 'online' }));
    await until(async () => (value(await api.counts.review({ sessionId: s.id })).lines[0]!.result === 'conflict' ? true : false), 'the conflict');
    expect(value(await api.counts.review({ sessionId: s.id })).lines[0]).toMatchObject({ moved: false, before: 12, result: 'conflict' });
  });
});

describe('the count report where the app is the marketplace', () => {
  it('says applied, never queued, and flags only the line edited between its count and Apply', async () => {
    const local = await openCore();
    try {
      const l = local.core.api;
      const s = value(await l.counts.start({ storeId: demo.stores.palermo }));
      value(await l.counts.set({ sessionId: s.id, userProductId: termo, counted: 11 }));
      const r = value(await l.counts.apply({ sessionId: s.id }));
      expect(r.lines).toEqual([expect.objectContaining({ before: 12, current: 11, moved: false, result: 'applied' })]);
      const t = value(await l.counts.start({ storeId: demo.stores.avellaneda }));
      value(await l.counts.set({ sessionId: t.id, userProductId: termo, counted: 29 }));
      value(await l.stock.adjust({ ...avellaneda, delta: 3, reason: 'received' }));
      expect(value(await l.counts.apply({ sessionId: t.id })).lines).toEqual([expect.objectContaining({ before: 33, moved: true, result: 'applied' })]);
    } finally {
      await local.close();
    }
  });
});

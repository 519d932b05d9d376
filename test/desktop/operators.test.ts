import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { FAST_RETRY } from '../support/sync-harness.js';
import { type DesktopCore } from '../../main/desktop/core.js';
import { failure, openCore, value } from './helpers.js';

/**
 * Operators through the desktop core (issue 27), local-only on the demo data: the operators.*
 * calls, and every kind of edit naming the operator signed in beside the account.
 */
describe('operators through the core', () => {
  let core: DesktopCore;
  let close: () => Promise<void>;
  /** Who the history names without an operator: the marketplace account. */
  let account = '';
  const palermo = { userProductId: demo.userProducts.termo, type: 'seller_warehouse' as const, storeId: demo.stores.palermo };
  const newest = async (cell: { userProductId: string; type: 'seller_warehouse'; storeId: string } = palermo) =>
    value(await core.api.stock.history({ ...cell, limit: 1 }))[0]!;
  beforeAll(async () => {
    ({ core, close } = await openCore());
  });
  afterAll(() => close());

  it('starts with no operator: edits are the account’s alone, as before', async () => {
    expect(value(await core.api.operators.list())).toEqual({ operators: [], current: null });
    value(await core.api.stock.adjust({ ...palermo, delta: 1 }));
    const h = await newest();
    expect(h).toMatchObject({ kind: 'adjustment', operator_id: null, operator_name: null });
    account = h.author;
    expect(account).toMatch(/\S/);
  });

  it('adds operators with a PIN, refuses a wrong PIN without changing who is signed in, and switches with the right one', async () => {
    expect(failure(await core.api.operators.add({ name: 'Ana', pin: '12' })).code).toBe('bad_request');
    value(await core.api.operators.add({ name: 'Ana', pin: '2468' }));
    const added = value(await core.api.operators.add({ name: 'Bruno', pin: '1357' }));
    expect(added.operators.map((o) => o.name)).toEqual(['Ana', 'Bruno']);
    expect(added.current).toBeNull();
    const ana = added.operators[0]!;
    expect(failure(await core.api.operators.switch({ id: ana.id, pin: '1357' }))).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(value(await core.api.operators.list()).current).toBeNull();
    expect(value(await core.api.operators.switch({ id: ana.id, pin: '2468' })).current).toMatchObject({ id: ana.id, name: 'Ana' });
    // Asked again (a reload of the page): the core still knows.
    expect(value(await core.api.operators.list()).current?.name).toBe('Ana');
  });

  it('an edit, a transfer, an import and a count session record the operator; the account stays the author', async () => {
    value(await core.api.stock.count({ ...palermo, quantity: 20 }));
    expect(await newest()).toMatchObject({ kind: 'count', author: account, operator_name: 'Ana' });

    value(
      await core.api.stock.transfer({ userProductId: demo.userProducts.termo, fromStoreId: demo.stores.palermo, toStoreId: demo.stores.avellaneda, units: 2 }),
    );
    expect(await newest()).toMatchObject({ reason: 'transfer', operator_name: 'Ana' });
    expect(await newest({ ...palermo, storeId: demo.stores.avellaneda })).toMatchObject({ reason: 'transfer', operator_name: 'Ana' });

    value(await core.api.stock.importApply({ name: 'stock.csv', changes: [{ ...palermo, line: 2, kind: 'adjust', delta: 5 }] }));
    expect(await newest()).toMatchObject({ ref: 'stock.csv line 2', operator_name: 'Ana' });

    const session = value(await core.api.counts.start({ storeId: demo.stores.palermo }));
    expect(session.operator).toBe('Ana');
    // Bruno takes over the count half-way: each line says who counted it.
    const bruno = value(await core.api.operators.list()).operators.find((o) => o.name === 'Bruno')!;
    value(await core.api.operators.switch({ id: bruno.id, pin: '1357' }));
    const line = value(await core.api.counts.set({ sessionId: session.id, userProductId: demo.userProducts.termo, counted: 9 }));
    expect(line.countedBy).toBe('Bruno');
    const review = value(await core.api.counts.apply({ sessionId: session.id }));
    expect(review.session.operator).toBe('Ana');
    expect(review.lines[0]).toMatchObject({ counted: 9, countedBy: 'Bruno' });
    expect(await newest()).toMatchObject({ kind: 'count', to_quantity: 9, ref: `count session ${session.id}`, operator_name: 'Bruno' });

    // Undo is the account's last edit, done now by whoever is signed in.
    value(await core.api.stock.undo());
    expect(await newest()).toMatchObject({ reason: 'correction', operator_name: 'Bruno' });
  });

  it('signing out, or removing the operator signed in, goes back to the account alone; the history keeps the names', async () => {
    expect(value(await core.api.operators.signOut()).current).toBeNull();
    value(await core.api.stock.adjust({ ...palermo, delta: 1 }));
    expect((await newest()).operator_name).toBeNull();

    const { operators } = value(await core.api.operators.list());
    const bruno = operators.find((o) => o.name === 'Bruno')!;
    value(await core.api.operators.switch({ id: bruno.id, pin: '1357' }));
    const after = value(await core.api.operators.remove({ id: bruno.id }));
    expect(after).toEqual({ operators: [expect.objectContaining({ name: 'Ana' })], current: null });
    value(await core.api.stock.adjust({ ...palermo, delta: 1 }));
    expect((await newest()).operator_name).toBeNull();
    const all = value(await core.api.stock.history({ ...palermo, limit: 50 }));
    const names = all.map((h) => h.operator_name);
    expect(names).toContain('Bruno');
    expect(failure(await core.api.operators.switch({ id: bruno.id, pin: '1357' })).code).toBe('not_found');
  });

  it('locks an operator after repeated wrong PINs and says how long to wait', async () => {
    const ana = value(await core.api.operators.list()).operators[0]!;
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) codes.push(failure(await core.api.operators.switch({ id: ana.id, pin: '0000' })).code);
    expect(codes).toEqual(['unauthorized', 'unauthorized', 'unauthorized', 'unauthorized', 'too_many_requests']);
    const locked = failure(await core.api.operators.switch({ id: ana.id, pin: '2468' }));
    expect(locked).toMatchObject({ code: 'too_many_requests', status: 429, cause: [{ code: 'retry_after', seconds: expect.any(Number) }] });
    expect(value(await core.api.operators.list()).current).toBeNull();
  });
});

describe('operators on a replica of a remote marketplace', () => {
  let remote: TestServer;
  beforeAll(async () => {
    remote = await startTestServer();
  });
  afterAll(() => remote.close());

  it('queued edits, transfers, imports and a count session’s counts carry the operator; another account starts with none of the first one’s', async () => {
    const c = await openCore({ engine: { pollIntervalMs: 0, pullOnStart: false, retry: FAST_RETRY } });
    const api = c.core.api;
    try {
      // An operator of the demo data, signed in there.
      const local = value(await api.operators.add({ name: 'Ana', pin: '2468' }));
      value(await api.operators.switch({ id: local.operators[0]!.id, pin: '2468' }));
      value(
        await api.settings.update({ baseUrl: remote.url, applicationId: demo.app, userId: demo.seller.id, accessToken: demo.seller.token, mode: 'offline' }),
      );
      // The replica is another database: its own operators, nobody signed in.
      expect(value(await api.operators.list())).toEqual({ operators: [], current: null });
      value(await api.settings.update({ mode: 'online' }));
      value(await api.sync.pullNow());

      const carla = value(await api.operators.add({ name: 'Carla', pin: '9876' })).operators[0]!;
      value(await api.operators.switch({ id: carla.id, pin: '9876' }));
      const palermo = { userProductId: demo.userProducts.termo, type: 'seller_warehouse' as const, storeId: demo.stores.palermo };
      const rows = async () => value(await api.stock.history({ ...palermo, limit: 50 })).filter((h) => h.kind !== 'synced');
      value(await api.stock.adjust({ ...palermo, delta: 2, reason: 'received' }));
      value(
        await api.stock.transfer({ userProductId: demo.userProducts.termo, fromStoreId: demo.stores.palermo, toStoreId: demo.stores.avellaneda, units: 1 }),
      );
      value(await api.stock.importApply({ name: 'replica.csv', changes: [{ ...palermo, line: 3, kind: 'adjust', delta: 4 }] }));
      const session = value(await api.counts.start({ storeId: demo.stores.palermo }));
      value(await api.counts.set({ sessionId: session.id, userProductId: demo.userProducts.termo, counted: 30 }));
      const review = value(await api.counts.apply({ sessionId: session.id }));
      expect(review.lines[0]).toMatchObject({ countedBy: 'Carla' });
      const mine = await rows();
      expect(mine.map((h) => [h.kind, h.reason, h.operator_name])).toEqual([
        ['count', 'count', 'Carla'],
        // The import's adjustment (no reason picked: a correction).
        ['adjustment', 'correction', 'Carla'],
        ['adjustment', 'transfer', 'Carla'],
        ['adjustment', 'received', 'Carla'],
      ]);
      expect(new Set(mine.map((h) => h.author)).size).toBe(1);
      expect(mine[0]!.author).not.toBe('Carla');
    } finally {
      await c.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { RATE_LIMITED_RESOURCES, resourceOf } from '../../main/http/rate-limit.js';
import { BUDGET_RESOURCES, TokenBudget, budgetResourceOf } from '../../main/sync/budget.js';

/** A clock the test moves by hand: the budget waits on it, never on real time. */
function fakeClock(start = 1_000_000) {
  const c = { t: start, now: () => c.t };
  return c;
}

/** Which of `promises` have settled, after the microtasks queued so far have run. */
async function settled(promises: Promise<unknown>[]): Promise<boolean[]> {
  const state = promises.map(() => false);
  promises.forEach((p, i) =>
    p.then(
      () => (state[i] = true),
      () => (state[i] = true),
    ),
  );
  await new Promise((r) => setImmediate(r));
  return state;
}

describe('request budget (issue 29)', () => {
  it('lets a burst of a few seconds go at once, then exactly the rate', async () => {
    const clock = fakeClock();
    const budget = new TokenBudget({ clock, rates: { stock: 60 }, burstSeconds: 3, headroom: 0 });
    // 60 a minute, 3 s of burst: 3 go at once, the 4th waits one second.
    const first = [0, 1, 2].map(() => budget.acquire('stock', 'push'));
    const fourth = budget.acquire('stock', 'push');
    expect(await settled([...first, fourth])).toEqual([true, true, true, false]);
    clock.t += 999;
    budget.tick();
    expect(await settled([fourth])).toEqual([false]);
    clock.t += 1;
    budget.tick();
    expect(await settled([fourth])).toEqual([true]);
    // Over a minute, no more than the rate (plus the burst) is granted.
    const many = Array.from({ length: 100 }, () => budget.acquire('stock', 'pull'));
    for (let s = 0; s < 60; s++) {
      clock.t += 1000;
      budget.tick();
    }
    const done = await settled(many);
    expect(done.filter(Boolean).length).toBe(60);
    expect(done.indexOf(false)).toBe(60);
  });

  it('spends a token there now without waiting, never ahead of a waiter, a pause or an empty bucket', async () => {
    const clock = fakeClock();
    const budget = new TokenBudget({ clock, rates: { stock: 60 }, burstSeconds: 2, headroom: 0 });
    // Unlimited resources always have one.
    expect(budget.take('messages-read')).toBe(true);
    // Two in the bucket: two taken at once, then none until a second has passed.
    expect([budget.take('stock'), budget.take('stock'), budget.take('stock')]).toEqual([true, true, false]);
    const waiting = budget.acquire('stock', 'pull');
    clock.t += 1000;
    // The token of that second goes to the request that waited for it, not to a newcomer.
    expect(budget.take('stock')).toBe(false);
    budget.tick();
    expect(await settled([waiting])).toEqual([true]);
    clock.t += 1000;
    expect(budget.take('stock')).toBe(true);
    // After a 429 nothing is taken before Retry-After, even with time passing within it.
    clock.t += 5000;
    budget.throttled('stock', 2000);
    clock.t += 1999;
    expect(budget.take('stock')).toBe(false);
    clock.t += 1;
    expect(budget.take('stock')).toBe(true);
  });

  it('serves waiting pushes before any waiting pull, each in order', async () => {
    const clock = fakeClock();
    const budget = new TokenBudget({ clock, rates: { stock: 60 }, burstSeconds: 1, headroom: 0 });
    await budget.acquire('stock', 'pull');
    const order: string[] = [];
    const pulls = [1, 2].map((i) => budget.acquire('stock', 'pull').then(() => order.push(`pull${i}`)));
    const pushes = [1, 2].map((i) => budget.acquire('stock', 'push').then(() => order.push(`push${i}`)));
    for (let s = 0; s < 4; s++) {
      clock.t += 1000;
      budget.tick();
      await settled([...pulls, ...pushes]);
    }
    expect(order).toEqual(['push1', 'push2', 'pull1', 'pull2']);
  });

  it('keeps resources apart and lets unlimited ones through at once', async () => {
    const clock = fakeClock();
    const budget = new TokenBudget({ clock, rates: { stock: 60, 'messages-read': 'unlimited' }, burstSeconds: 1, headroom: 0 });
    await budget.acquire('stock', 'push');
    const stock = budget.acquire('stock', 'push');
    const reads = Array.from({ length: 1000 }, () => budget.acquire('messages-read', 'pull'));
    const write = budget.acquire('messages-write', 'push');
    expect(await settled([stock, ...reads, write])).toEqual([false, ...reads.map(() => true), true]);
    expect(budget.perMinute('messages-read')).toBe(Infinity);
    expect(budget.perMinute('messages-write')).toBe(500);
    expect(budget.perMinute('stock')).toBe(60);
  });

  it('after a 429 shrinks the rate, pauses until Retry-After, and recovers over quiet minutes', async () => {
    const clock = fakeClock();
    const budget = new TokenBudget({ clock, rates: { stock: 100 }, burstSeconds: 3, headroom: 0 });
    budget.throttled('stock', 5000);
    expect(budget.perMinute('stock')).toBeLessThan(100);
    const next = budget.acquire('stock', 'push');
    clock.t += 4999;
    budget.tick();
    expect(await settled([next])).toEqual([false]);
    clock.t += 1;
    budget.tick();
    // One request at Retry-After, the next only at the shrunk rate (the remote's bucket was empty).
    const after = budget.acquire('stock', 'push');
    expect(await settled([next, after])).toEqual([true, false]);
    clock.t += Math.ceil(60_000 / budget.perMinute('stock'));
    budget.tick();
    expect(await settled([after])).toEqual([true]);
    const shrunk = budget.perMinute('stock');
    clock.t += 60_000;
    budget.tick();
    expect(budget.perMinute('stock')).toBeGreaterThan(shrunk);
    clock.t += 10 * 60_000;
    budget.tick();
    expect(budget.perMinute('stock')).toBe(100);
  });

  it('a waiter whose signal aborts leaves the queue and rejects with the reason', async () => {
    const clock = fakeClock();
    const budget = new TokenBudget({ clock, rates: { stock: 60 }, burstSeconds: 1, headroom: 0 });
    await budget.acquire('stock', 'push');
    const abort = new AbortController();
    const gone = budget.acquire('stock', 'pull', abort.signal);
    const kept = budget.acquire('stock', 'pull');
    abort.abort(new Error('pull stopped'));
    await expect(gone).rejects.toThrow('pull stopped');
    clock.t += 1000;
    budget.tick();
    expect(await settled([kept])).toEqual([true]);
  });

  it('keeps a tenth of the burst back by default, for requests delayed on the way', async () => {
    const clock = fakeClock();
    const budget = new TokenBudget({ clock, rates: { stock: 100 } });
    // A minute's worth is 100: 90 go at once, the 91st waits for the rate (0.6 s).
    const burst = Array.from({ length: 91 }, () => budget.acquire('stock', 'push'));
    const done = await settled(burst);
    expect(done.filter(Boolean).length).toBe(90);
    clock.t += 600;
    budget.tick();
    expect((await settled(burst)).every(Boolean)).toBe(true);
  });

  it('refuses a rate that is not a positive number', () => {
    expect(() => new TokenBudget({ clock: fakeClock(), rates: { stock: 0 } })).toThrow(/stock/);
  });

  it('classifies requests as the rate-limit double does', () => {
    expect([...BUDGET_RESOURCES]).toEqual([...RATE_LIMITED_RESOURCES]);
    const cases: [string, string, string][] = [
      ['GET', '/user-products/MLBU1/stock', '/user-products/:id/stock'],
      ['PUT', '/user-products/MLBU1/stock/type/seller_warehouse', '/user-products/:id/stock/type/:type'],
      ['GET', '/messages/packs/1/sellers/2?mark_as_read=false', '/messages/packs/:pack/sellers/:seller'],
      ['POST', '/messages/packs/1/sellers/2', '/messages/packs/:pack/sellers/:seller'],
      ['GET', '/users/1/items/search', '/users/:id/items/search'],
      ['GET', '/user-products/MLBU1', '/user-products/:id'],
      ['GET', '/orders/search', '/orders/search'],
    ];
    for (const [method, path, route] of cases) expect(budgetResourceOf(method, path), `${method} ${path}`).toBe(resourceOf(method, route));
  });
});

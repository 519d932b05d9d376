import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../main/service/clock.js';
import { demo, demoFixtures } from '../support/fixtures.js';
import { failure, openCore, value } from './helpers.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-25T12:00:00Z');

/**
 * Stock you can see (issue 28) through the desktop core on a real SQLite file: a product's stock
 * per store over time from its cell history, its units sold per day from the orders, and the
 * grid's days of cover per store.
 */
describe('stock insight: history series, sales per day, days of cover', () => {
  const clock: Clock & { at: number } = { at: NOW - 40 * DAY, now: () => clock.at };
  let c: Awaited<ReturnType<typeof openCore>>;
  let dir: string;

  beforeAll(async () => {
    // The demo's termo (64712 = 12, 64713 = 30) sold 1 on Nov 18; these orders add to it.
    const f = demoFixtures();
    const base = f.orders![0]!;
    const order = (id: number, date: string, quantity: number, status: 'paid' | 'cancelled' = 'paid') => ({
      ...base,
      id,
      pack_id: null,
      status,
      date_created: date,
      order_items: [{ item_id: demo.items.termo, quantity, unit_price: 100 }],
    });
    f.orders!.push(
      order(2000009000101, '2026-11-24T10:00:00Z', 30),
      // 23:30 in Buenos Aires on the 20th is the 21st in UTC.
      order(2000009000102, '2026-11-20T23:30:00-03:00', 2),
      order(2000009000103, '2026-11-22T10:00:00Z', 5, 'cancelled'),
      order(2000009000104, '2026-10-01T10:00:00Z', 7),
    );
    dir = mkdtempSync(join(tmpdir(), 'stockroom-insight-'));
    const fixturesFile = join(dir, 'fixtures.json');
    writeFileSync(fixturesFile, JSON.stringify(f));
    c = await openCore({ clock, fixturesFile });
    const stock = c.core.api.stock;
    const palermo = { userProductId: demo.userProducts.termo, type: 'seller_warehouse' as const, storeId: demo.stores.palermo };
    const avellaneda = { ...palermo, storeId: demo.stores.avellaneda };
    value(await stock.adjust({ ...palermo, delta: 1 })); // 40 days ago: 12 → 13, before the window
    clock.at = NOW - 10 * DAY;
    value(await stock.count({ ...palermo, quantity: 20 })); // 13 → 20
    clock.at = NOW - 2 * DAY;
    value(await stock.adjust({ ...avellaneda, delta: -5 })); // 30 → 25
    clock.at = NOW;
  });

  afterAll(async () => {
    await c?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws each store from its history: where it stood when the window opened, then each change', async () => {
    const v = value(await c.core.api.stock.insight({ userProductId: demo.userProducts.termo }));
    expect(v.now).toBe(NOW);
    expect(v.since).toBe(NOW - 30 * DAY);
    expect(v.stores).toEqual([
      {
        storeId: demo.stores.palermo,
        points: [
          { at: NOW - 30 * DAY, quantity: 13 },
          { at: NOW - 10 * DAY, quantity: 20 },
        ],
      },
      {
        storeId: demo.stores.avellaneda,
        points: [
          { at: NOW - 30 * DAY, quantity: 30 },
          { at: NOW - 2 * DAY, quantity: 25 },
        ],
      },
    ]);
  });

  it('is bounded: the last N days and the last M changes of a store', async () => {
    const week = value(await c.core.api.stock.insight({ userProductId: demo.userProducts.termo, days: 7 }));
    expect(week.stores.map((s) => s.points)).toEqual([
      [],
      [
        { at: NOW - 7 * DAY, quantity: 30 },
        { at: NOW - 2 * DAY, quantity: 25 },
      ],
    ]);
    const last = value(await c.core.api.stock.insight({ userProductId: demo.userProducts.termo, days: 60, points: 1 }));
    expect(last.stores[0]!.points).toEqual([
      { at: NOW - 60 * DAY, quantity: 13 },
      { at: NOW - 10 * DAY, quantity: 20 },
    ]);
  });

  it('sums units sold per day over the last 30 days in the screen’s time zone, leaving out cancelled and older orders', async () => {
    const local = value(await c.core.api.stock.insight({ userProductId: demo.userProducts.termo, utcOffsetMinutes: -180 }));
    expect(local.sales).toHaveLength(30);
    expect(local.sales.at(-1)!.day).toBe('2026-11-25');
    expect(local.sales[0]!.day).toBe('2026-10-27');
    expect(local.sales.filter((d) => d.units > 0)).toEqual([
      { day: '2026-11-18', units: 1 },
      { day: '2026-11-20', units: 2 },
      { day: '2026-11-24', units: 30 },
    ]);
    const utc = value(await c.core.api.stock.insight({ userProductId: demo.userProducts.termo }));
    expect(utc.sales.filter((d) => d.units > 0).map((d) => d.day)).toEqual(['2026-11-18', '2026-11-21', '2026-11-24']);
  });

  it('gives the grid days of cover per store (stock ÷ average daily units over 30 days), "no sales" as null', async () => {
    const page = value(await c.core.api.stock.grid({ cover: true }));
    const termo = page.rows.find((r) => r.userProductId === demo.userProducts.termo)!;
    // 33 units in 30 days: 1.1 a day; 20 and 25 on the shelves.
    expect(termo.cover).toEqual({ [demo.stores.palermo]: 18.2, [demo.stores.avellaneda]: 22.7 });
    // Products whose stores sold nothing say so; a page asked without it has none.
    for (const row of page.rows.filter((r) => r.userProductId !== demo.userProducts.termo)) {
      expect(Object.values(row.cover ?? {}).every((d) => d === null)).toBe(true);
    }
    expect(value(await c.core.api.stock.grid({})).rows.some((r) => r.cover !== undefined)).toBe(false);
    // Two months on, the sales are out of the window: no sales, not "zero days".
    clock.at = NOW + 60 * DAY;
    try {
      const later = value(await c.core.api.stock.grid({ cover: true }));
      expect(later.rows.find((r) => r.userProductId === demo.userProducts.termo)!.cover).toEqual({
        [demo.stores.palermo]: null,
        [demo.stores.avellaneda]: null,
      });
    } finally {
      clock.at = NOW;
    }
  });

  it('keeps days of cover with a saved view, and refuses another seller’s product', async () => {
    const query = { search: '', filter: 'all' as const, store: null, lowStock: null, belowReorder: false, sort: null, cover: true };
    const views = value(await c.core.api.stock.saveView({ name: 'Cover', query }));
    expect(views.find((v) => v.name === 'Cover')!.query.cover).toBe(true);
    expect(failure(await c.core.api.stock.insight({ userProductId: demo.userProducts.otherSellers })).status).toBeGreaterThanOrEqual(400);
    expect(failure(await c.core.api.stock.insight({ userProductId: demo.userProducts.termo, days: 0 })).code).toBe('bad_request');
  });
});

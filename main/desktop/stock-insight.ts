/**
 * Stock you can see (issue 28): a product's stock per store over time and its recent sales (the
 * history panel's chart), and days of cover per store for a grid page. Both read the profile's
 * database only (the history it keeps and the orders it holds), local-only and replica alike.
 */
import type { GridView, InputOf, StockInsightView } from '../../common/contract/contract.js';
import type { Db } from '../db/open.js';
import { type StockInsightRepo, stockInsightRepo } from '../db/repos/stock-insight.js';

const DAY_MS = 86_400_000;
/** The chart's window and its bound per store: a busy cell's history never makes the answer big. */
export const INSIGHT_DAYS = 30;
export const INSIGHT_POINTS = 200;
/** Sales are averaged over this many days, for the bars and for days of cover. */
export const SALES_DAYS = 30;

const repos = new WeakMap<Db, StockInsightRepo>();
function repoOf(db: Db): StockInsightRepo {
  let repo = repos.get(db);
  if (!repo) repos.set(db, (repo = stockInsightRepo(db)));
  return repo;
}

/** `YYYY-MM-DD` of an instant seen at `offsetMinutes` east of UTC. */
const dayAt = (ms: number, offsetMinutes: number) => new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 10);

/** A product's stock per store over the last days and units sold per day (the product is the seller's: checked by the caller). */
export function stockInsight(db: Db, sellerId: number, input: InputOf<'stock', 'insight'>, now: number): StockInsightView {
  const repo = repoOf(db);
  const since = now - (input.days ?? INSIGHT_DAYS) * DAY_MS;
  const limit = input.points ?? INSIGHT_POINTS;
  const stores = repo.storesOf(input.userProductId).map((storeId) => {
    const rows = repo.pointsOf(input.userProductId, storeId, since, limit);
    const points = rows.map((r) => ({ at: r.at, quantity: r.to_quantity }));
    // Where the line stood when the window opened: the first change's starting quantity.
    const first = rows[0];
    if (first && first.from_quantity !== null && first.at > since) points.unshift({ at: since, quantity: first.from_quantity });
    return { storeId, points };
  });
  const offset = input.utcOffsetMinutes ?? 0;
  const salesDays = input.salesDays ?? SALES_DAYS;
  // Today and the days before it: the window starts at the first of them, in the screen's zone.
  const firstDay = dayAt(now - (salesDays - 1) * DAY_MS, offset);
  const salesSince = new Date(Date.parse(`${firstDay}T00:00:00Z`) - offset * 60_000).toISOString();
  const sold = new Map(repo.salesPerDay(input.userProductId, sellerId, salesSince, offset).map((r) => [r.day, r.units]));
  const sales = Array.from({ length: salesDays }, (_, i) => {
    const day = dayAt(now - (salesDays - 1 - i) * DAY_MS, offset);
    return { day, units: sold.get(day) ?? 0 };
  });
  return { userProductId: input.userProductId, since, now, stores, sales };
}

/**
 * Days of cover of every seller_warehouse cell of a grid page: what the cell shows ÷ the
 * product's average daily units sold over the last SALES_DAYS days. Orders do not say which
 * store a sale left from, so each store's cover is how long that store alone would last at the
 * product's pace. One query for the whole page, never one per row (the scroll reads pages).
 */
export function withCover(db: Db, sellerId: number, page: GridView, now: number): GridView {
  const stores = page.columns.filter((c) => c.type === 'seller_warehouse').map((c) => c.key);
  const units = repoOf(db).unitsSince(
    page.rows.map((r) => r.userProductId),
    sellerId,
    new Date(now - SALES_DAYS * DAY_MS).toISOString(),
  );
  return {
    ...page,
    rows: page.rows.map((row) => {
      const perDay = (units.get(row.userProductId) ?? 0) / SALES_DAYS;
      const cover: Record<string, number | null> = {};
      for (const key of stores) {
        const cell = row.cells[key];
        if (cell) cover[key] = perDay === 0 ? null : Math.round((cell.shown / perDay) * 10) / 10;
      }
      return { ...row, cover };
    }),
  };
}

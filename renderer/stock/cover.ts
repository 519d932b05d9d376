/**
 * Days of cover in a store cell (issue 28): what the cell holds ÷ the product's average daily
 * units sold over the last 30 days (the core answers it with the page, `stock.grid { cover }`).
 * The scale: short under a week, low under three weeks, enough above; the number is always
 * shown and said, so the colour is never the only sign.
 */
import type { StockWords } from './words.js';

export const COVER_SHORT_DAYS = 7;
export const COVER_LOW_DAYS = 21;

export type CoverTone = 'none' | 'short' | 'low' | 'ok';

/** Null: nothing sold in the window (no pace to divide by). */
export function coverTone(days: number | null): CoverTone {
  if (days === null) return 'none';
  if (days < COVER_SHORT_DAYS) return 'short';
  if (days < COVER_LOW_DAYS) return 'low';
  return 'ok';
}

/** What the cell shows under its quantity: "18.2 d", or "no sales". */
export function coverShort(w: StockWords, days: number | null): string {
  return days === null ? w.t('cover.noSales') : w.t('cover.short', { days: w.formatNumber(days) });
}

/** What the cell's accessible name adds: "18.2 days of cover (low)", or "no sales in the last 30 days". */
export function coverWords(w: StockWords, days: number | null): string {
  const tone = coverTone(days);
  return days === null ? w.t('cover.none') : w.t(`cover.days.${tone as 'short' | 'low' | 'ok'}`, { days: w.formatNumber(days) });
}

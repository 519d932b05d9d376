/**
 * Why stock changed (issue 14 §6). Every adjustment carries one; a count is 'count', a transfer
 * between the seller's stores 'transfer', an undo 'correction'. The person picks among
 * `PICKABLE_REASONS` for a +/- adjustment.
 */
export const STOCK_REASONS = ['received', 'damaged', 'returned', 'sold_elsewhere', 'correction', 'transfer', 'count'] as const;
export type StockReason = (typeof STOCK_REASONS)[number];

/** The reasons a person chooses for an adjustment (the others are given by what the edit is). */
export const PICKABLE_REASONS = ['received', 'damaged', 'returned', 'sold_elsewhere', 'correction'] as const satisfies readonly StockReason[];

export const isStockReason = (s: unknown): s is StockReason => typeof s === 'string' && (STOCK_REASONS as readonly string[]).includes(s);

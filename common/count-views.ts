/**
 * The shapes of count sessions (cycle counts, issue 14 §4) as the core answers them (`counts.*`),
 * shared by main and the renderer like common/views.ts.
 */

export type CountSessionState = 'open' | 'applied' | 'cancelled';
/** What applying did with a line: queued (or merged into, or resolved) an outbox entry on a replica, applied where the app is the marketplace, nothing to change, or not counted. */
export type CountOutcomeView = 'queued' | 'merged' | 'resolved' | 'applied' | 'unchanged' | 'skipped';

export interface CountSessionView {
  id: number;
  storeId: string;
  /** The store's name, when the store is still known. */
  storeLabel: string | null;
  /** The products' filter at the start (null: all the store's products). */
  filter: { search?: string; lowStock?: number } | null;
  /** Expected quantities are hidden from the counting screens (the review shows them). */
  blind: boolean;
  state: CountSessionState;
  author: string;
  createdAt: number;
  updatedAt: number;
  appliedAt: number | null;
  /** Lines in the session, and how many of them are counted. */
  lines: number;
  counted: number;
}

export interface CountLineView {
  userProductId: string;
  title: string | null;
  position: number;
  counted: number | null;
  /** The quantity the count is compared with; null in a blind session that is still open. */
  expected: number | null;
  countedAt: number | null;
  outcome: CountOutcomeView | null;
}

/** A page of a session's lines (`counts.get`). */
export interface CountSessionPageView {
  session: CountSessionView;
  total: number;
  lines: CountLineView[];
}

/** What a scan did (`counts.scan`): the line it counted, and whether the product was new to the session. */
export interface CountScanView {
  line: CountLineView;
  added: boolean;
  /** The line's count before this scan (for undo). */
  previous: number | null;
}

export interface CountVarianceView {
  userProductId: string;
  title: string | null;
  counted: number;
  /** The quantity shown when the line was counted (the count's base). */
  expected: number;
  difference: number;
  /** The quantity shown now; differs from `expected` when the cell changed since it was counted. */
  current: number;
  moved: boolean;
  outcome: CountOutcomeView | null;
}

/** The variances of a session's counted lines (`counts.review`, `counts.apply`). */
export interface CountReviewView {
  session: CountSessionView;
  lines: CountVarianceView[];
  /** Lines not counted (not applied). */
  uncounted: number;
  totals: { over: number; under: number; matched: number; moved: number };
}

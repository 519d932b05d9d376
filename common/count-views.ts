/**
 * The shapes of count sessions (cycle counts, issue 14 §4) as the core answers them (`counts.*`),
 * shared by main and the renderer like common/views.ts.
 */

export type CountSessionState = 'open' | 'applied' | 'cancelled';
/** What applying did with a line: queued (or merged into, or resolved) an outbox entry on a replica, applied where the app is the marketplace, nothing to change, or not counted. */
export type CountOutcomeView = 'queued' | 'merged' | 'resolved' | 'applied' | 'unchanged' | 'skipped';
/**
 * What became of an applied line, read when the report is asked for (an outbox entry moves on
 * after Apply): applied where the app is the marketplace; on a replica queued (not sent yet),
 * sending, sent, a conflict (the cell moved: before Apply, or on the marketplace when it was sent),
 * failed, or dropped (discarded, or "take theirs"); unchanged (counted as expected) or skipped.
 */
export type CountLineResultView = 'applied' | 'queued' | 'sending' | 'sent' | 'conflict' | 'failed' | 'dropped' | 'unchanged' | 'skipped';

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
  /** The workstation's operator who started it (issue 27); null or absent: the account (`author`). */
  operator?: string | null;
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
  /** The operator who counted it (issue 27); null or absent: the account. */
  countedBy?: string | null;
  outcome: CountOutcomeView | null;
}

/** A page of a session's lines (`counts.get`). */
export interface CountSessionPageView {
  session: CountSessionView;
  total: number;
  lines: CountLineView[];
}

/**
 * A scan of a product the session does not list (`counts.scan` without `addOutside`): nothing was
 * counted; the person chooses whether to add it. `why`: the product has no cell in the session's
 * store yet, or the store has it but the session's filter left it out.
 */
export interface CountOutsideView {
  outside: { userProductId: string; title: string | null; why: 'not_in_store' | 'filtered_out' };
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
  /** The quantity shown now. */
  current: number;
  /** The quantity the cell showed just before Apply (null until applied, or for a line Apply did not change). */
  before: number | null;
  /**
   * The cell changed since the line was counted: while open, `current` differs from `expected`;
   * once applied, `before` did (what the cell shows after Apply is the count itself).
   */
  moved: boolean;
  /** The operator who counted it (issue 27); null or absent: the account (the session's `author`). */
  countedBy?: string | null;
  outcome: CountOutcomeView | null;
  /** What became of it since Apply (null while the session is open). */
  result: CountLineResultView | null;
}

/** The variances of a session's counted lines (`counts.review`, `counts.apply`). */
export interface CountReviewView {
  session: CountSessionView;
  lines: CountVarianceView[];
  /** Lines not counted (not applied). */
  uncounted: number;
  totals: { over: number; under: number; matched: number; moved: number };
}

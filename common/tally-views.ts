/**
 * Scan to count's tally (issue 27) as the core answers it (`tally.*`), shared by main and the
 * renderer like common/views.ts. The tally is kept in the profile's database per station store, so
 * a reload or a restart shows it again.
 */

/** What became of a scan: counted, a code nothing matches, or a product stocked at another store only. */
export type TallyOutcome = 'ok' | 'unknown' | 'other';

/** One scan, as it came. */
export interface TallyScanView {
  seq: number;
  code: string;
  userProductId: string | null;
  title: string | null;
  picture: string | null;
  /** Units the scan adds (the units per scan when it came). */
  delta: number;
  outcome: TallyOutcome;
  /** The operator signed in when it was scanned (null: the account alone). */
  operator: string | null;
}

/** One line of the list: a product (or an unknown code) and what its scans add up to. */
export interface TallyLineView {
  /** The product's id, or the code of an unknown one (prefixed, so the two never meet). */
  key: string;
  /** Its first scan's code. */
  code: string;
  userProductId: string | null;
  title: string | null;
  picture: string | null;
  outcome: TallyOutcome;
  scans: number;
  units: number;
  /** The newest scan of this line (the list marks the line the last scan went to). */
  lastSeq: number;
}

/** A store's tally: its lines, oldest first, and its newest scan. */
export interface TallyView {
  storeId: string;
  lines: TallyLineView[];
  last: TallyScanView | null;
  /** Scans kept (every line's scans). */
  scans: number;
}

export interface TallyAddView {
  scan: TallyScanView;
  tally: TallyView;
}

export interface TallyUndoView {
  /** The scan taken out; null: the tally was empty. */
  undone: TallyScanView | null;
  tally: TallyView;
}

export interface TallyApplyView {
  /** Products applied (one adjustment each) and their units. */
  products: number;
  units: number;
  tally: TallyView;
}

import type { Db } from '../open.js';

export type TallyOutcome = 'ok' | 'unknown' | 'other';

/** One scan as kept (migration 032). */
export interface TallyScanRow {
  seq: number;
  code: string;
  user_product_id: string | null;
  outcome: TallyOutcome;
  delta: number;
  title: string | null;
  picture: string | null;
  operator_name: string | null;
}

/** The scans of one product (or one unknown code) added up; `code` is its first scan's code. */
export interface TallyLineRow {
  user_product_id: string | null;
  outcome: TallyOutcome;
  code: string;
  title: string | null;
  picture: string | null;
  scans: number;
  units: number;
  first_seq: number;
  last_seq: number;
}

interface NewScan {
  seller_id: number;
  store_id: string;
  code: string;
  user_product_id: string | null;
  outcome: TallyOutcome;
  delta: number;
  title: string | null;
  picture: string | null;
  operator_id: number | null;
  operator_name: string | null;
  scanned_at: number;
}

const SCAN_COLUMNS = 'seq, code, user_product_id, outcome, delta, title, picture, operator_name';

/** Scan to count's tallies, one per seller and store (migration 032); the only SQL of them. */
export function scanTallyRepo(db: Db) {
  const insert = db.prepare<[NewScan]>(
    `INSERT INTO scan_tally (seller_id, store_id, code, user_product_id, outcome, delta, title, picture, operator_id, operator_name, scanned_at)
     VALUES (@seller_id, @store_id, @code, @user_product_id, @outcome, @delta, @title, @picture, @operator_id, @operator_name, @scanned_at)`,
  );
  const bySeq = db.prepare<[number], TallyScanRow>(`SELECT ${SCAN_COLUMNS} FROM scan_tally WHERE seq = ?`);
  const last = db.prepare<[number, string], TallyScanRow>(
    `SELECT ${SCAN_COLUMNS} FROM scan_tally WHERE seller_id = ? AND store_id = ? ORDER BY seq DESC LIMIT 1`,
  );
  // A product's line takes its first scan's code and its newest scan's title and picture.
  const lines = db.prepare<[number, string], TallyLineRow>(
    `SELECT g.user_product_id, g.outcome, g.first_seq, g.last_seq, g.scans, g.units, f.code, l.title, l.picture
     FROM (SELECT user_product_id, outcome, min(seq) AS first_seq, max(seq) AS last_seq, count(*) AS scans, sum(delta) AS units
           FROM scan_tally WHERE seller_id = ? AND store_id = ?
           GROUP BY outcome, coalesce(user_product_id, 'code:' || code)) g
     JOIN scan_tally f ON f.seq = g.first_seq
     JOIN scan_tally l ON l.seq = g.last_seq
     ORDER BY g.first_seq`,
  );
  const size = db.prepare<[number, string], { scans: number; unknown: number }>(
    `SELECT count(*) AS scans, count(DISTINCT CASE WHEN outcome = 'unknown' THEN code END) AS unknown FROM scan_tally WHERE seller_id = ? AND store_id = ?`,
  );
  const unknownKept = db
    .prepare<[number, string, string], 1>(`SELECT 1 FROM scan_tally WHERE seller_id = ? AND store_id = ? AND outcome = 'unknown' AND code = ? LIMIT 1`)
    .pluck(true);
  const remove = db.prepare<[number]>('DELETE FROM scan_tally WHERE seq = ?');
  const clearUpTo = db.prepare<[number, string, number]>('DELETE FROM scan_tally WHERE seller_id = ? AND store_id = ? AND seq <= ?');
  return {
    /** Keeps one scan; its seq (the order of scans, never reused). */
    add: (s: NewScan) => Number(insert.run(s).lastInsertRowid),
    scan: (seq: number) => bySeq.get(seq),
    /** The newest scan of a tally. */
    last: (sellerId: number, storeId: string) => last.get(sellerId, storeId),
    /** One line per product (per code for unknown ones), in the order each was first scanned. */
    lines: (sellerId: number, storeId: string) => lines.all(sellerId, storeId),
    /** How many scans the tally keeps, and how many different unknown codes. */
    size: (sellerId: number, storeId: string) => size.get(sellerId, storeId)!,
    hasUnknown: (sellerId: number, storeId: string, code: string) => unknownKept.get(sellerId, storeId, code) === 1,
    remove: (seq: number) => remove.run(seq).changes === 1,
    /** Deletes the scans up to `seq` (those read for an Apply; a later scan stays). */
    clearUpTo: (sellerId: number, storeId: string, seq: number) => clearUpTo.run(sellerId, storeId, seq).changes,
  };
}
export type ScanTallyRepo = ReturnType<typeof scanTallyRepo>;

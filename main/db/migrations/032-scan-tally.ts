import type { Migration } from './index.js';

/**
 * Scan to count's tally, kept durably (issue 27): every scan is one small row written before the
 * scan is confirmed, so a reload, a crash or a restart before Apply loses nothing the person saw
 * counted. One tally per station store of the profile's seller; Apply turns the rows into one
 * adjustment per product and deletes them in the same transaction. 031 was taken by
 * order_items_by_item, so this is 032.
 */
export const scanTallyMigration: Migration = {
  version: 32,
  name: 'scan-tally',
  sql: `
CREATE TABLE scan_tally (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  seller_id INTEGER NOT NULL,
  store_id TEXT NOT NULL,
  code TEXT NOT NULL,
  user_product_id TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'unknown', 'other')),
  delta INTEGER NOT NULL CHECK (delta BETWEEN 1 AND 1000000),
  title TEXT,
  picture TEXT,
  operator_id INTEGER,
  operator_name TEXT,
  scanned_at INTEGER NOT NULL,
  CHECK ((outcome = 'unknown') = (user_product_id IS NULL))
);
CREATE INDEX scan_tally_by_store ON scan_tally (seller_id, store_id, seq);
`,
};

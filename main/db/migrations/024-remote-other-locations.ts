import type { Migration } from './index.js';

/**
 * Stock locations of a kind the app has no rules for (the marketplace adds kinds over time, issue
 * 25): kept as the remote sent them and shown read-only as "other" with the raw type. They live
 * beside `stock_locations`, not in it: that table's cells are the places the app edits, each
 * kind with its own rules (SPEC 7.3), and its closed list of kinds is what those rules check.
 * Written only by a stock snapshot of the remote (a pull, a re-read); a snapshot replaces them.
 */
export const remoteOtherLocationsMigration: Migration = {
  version: 24,
  name: 'remote-other-locations',
  sql: `
CREATE TABLE remote_other_locations (
  user_product_id TEXT NOT NULL REFERENCES user_products(id) ON DELETE CASCADE,
  type            TEXT NOT NULL CHECK (length(type) BETWEEN 1 AND 100),
  store_key       TEXT NOT NULL DEFAULT '' CHECK (length(store_key) <= 100),
  network_node_id TEXT CHECK (length(network_node_id) <= 100),
  quantity        INTEGER NOT NULL CHECK (quantity >= 0),
  position        INTEGER NOT NULL,
  PRIMARY KEY (user_product_id, type, store_key)
) WITHOUT ROWID;
`,
};

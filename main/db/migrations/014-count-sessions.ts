import type { Migration } from './index.js';

/**
 * Count sessions (cycle counts): a count of one store's products, kept here until it is applied,
 * so a count left half-done survives a restart. A line holds what was counted and the base it was
 * counted against (the product's version and the quantity then shown): applied, the count is
 * queued at that base, so a cell that moved since becomes a conflict as any count does.
 */
export const countSessionsMigration: Migration = {
  version: 14,
  name: 'count-sessions',
  sql: `
CREATE TABLE count_sessions (
  id          INTEGER PRIMARY KEY,
  seller_id   INTEGER NOT NULL,
  store_id    TEXT NOT NULL,
  -- The products' filter at the start (JSON: search, lowStock), null for all the store's products.
  filter      TEXT,
  blind       INTEGER NOT NULL DEFAULT 0 CHECK (blind IN (0, 1)),
  state       TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'applied', 'cancelled')),
  author      TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  applied_at  INTEGER
);
CREATE INDEX count_sessions_seller ON count_sessions (seller_id, state, id);

CREATE TABLE count_lines (
  session_id      INTEGER NOT NULL REFERENCES count_sessions (id) ON DELETE CASCADE,
  user_product_id TEXT NOT NULL,
  -- The order of the lines: the grid's order at the start, then scanned additions.
  position        INTEGER NOT NULL,
  title           TEXT,
  -- The quantity shown when the session started (a line's expectation until it is counted).
  start_quantity  INTEGER NOT NULL,
  counted         INTEGER CHECK (counted IS NULL OR counted >= 0),
  counted_at      INTEGER,
  -- The base of the count: the product's version and the quantity shown when it was counted.
  base_version    TEXT,
  base_quantity   INTEGER,
  -- After the apply: the outbox entry (a replica) or history row (local-only) and how it went.
  entry_id        INTEGER,
  history_id      INTEGER,
  outcome         TEXT CHECK (outcome IS NULL OR outcome IN ('queued', 'merged', 'resolved', 'applied', 'unchanged', 'skipped')),
  PRIMARY KEY (session_id, user_product_id)
) WITHOUT ROWID;
CREATE UNIQUE INDEX count_lines_position ON count_lines (session_id, position);
`,
};

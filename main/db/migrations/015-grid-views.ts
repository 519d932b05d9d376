import type { Migration } from './index.js';

/**
 * The grid's own settings that belong to the data, not to the window: reorder points per product
 * and store (a cell at or under its point is low), and saved views (a name and the grid's query as
 * JSON, parsed with the contract's schema when read). Local to this database: never sent anywhere.
 */
export const gridViewsMigration: Migration = {
  version: 15,
  name: 'grid-views',
  sql: `
CREATE TABLE reorder_points (
  user_product_id TEXT NOT NULL REFERENCES user_products(id) ON DELETE CASCADE,
  cell_type       TEXT NOT NULL CHECK (cell_type IN ('seller_warehouse', 'selling_address')),
  store_key       TEXT NOT NULL DEFAULT '',
  point           INTEGER NOT NULL CHECK (point BETWEEN 0 AND 1000000),
  PRIMARY KEY (user_product_id, cell_type, store_key)
) WITHOUT ROWID;

CREATE TABLE grid_views (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  query      TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
`,
};

import type { Migration } from './index.js';

/**
 * A progressive first pull (issue 29): the grid shows a product as soon as its listing is known,
 * before its stock was read. `stock_read` is 0 for such a product (its cells say "not read yet" and
 * refuse edits) and 1 once a stock answer was written; every product before this migration was
 * read with its stock (1). The partial index is the pull's work list: what is left to read, in id
 * order, so a restart (or a SIGKILL) goes on where it stopped without reading anything again.
 */
export const stockReadMigration: Migration = {
  version: 29,
  name: 'stock-read',
  sql: `
ALTER TABLE user_products ADD COLUMN stock_read INTEGER NOT NULL DEFAULT 1 CHECK (stock_read IN (0, 1));
CREATE INDEX user_products_unread ON user_products (user_id, id) WHERE stock_read = 0;
`,
};

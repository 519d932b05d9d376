import type { Migration } from './index.js';

/**
 * Order lines by item (issue 28): a product's sales (the history panel's bars, the grid's days of
 * cover) go from its items to their order lines. Lines were keyed by order only, so finding an
 * item's lines scanned every line; the grid asks for a page of 50 products at a time while it
 * scrolls.
 */
export const orderItemsByItemMigration: Migration = {
  version: 31,
  name: 'order-items-by-item',
  sql: `
CREATE INDEX order_items_by_item ON order_items (item_id, order_id);
`,
};

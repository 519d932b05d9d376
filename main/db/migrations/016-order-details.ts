import type { Migration } from './index.js';

/**
 * What an order says beyond the messaging rules (issue 15 §1, FIXTURES.md's optional order
 * fields): when it was made, its amount and currency, its shipment, and the items sold. The
 * columns are nullable: orders written before this migration (and fixture orders without the
 * fields) have none, and the order's answer fills them in (main/service/orders/order-view.ts).
 *
 * `order_items` keeps each line's title as it was sold (the marketplace's order does the same),
 * so a replica shows the product even when the item is not in its mirror. No foreign key to
 * `items` for that reason.
 */
export const orderDetailsMigration: Migration = {
  version: 16,
  name: 'order-details',
  sql: `
ALTER TABLE orders ADD COLUMN date_created TEXT;
ALTER TABLE orders ADD COLUMN total_amount REAL;
ALTER TABLE orders ADD COLUMN currency_id TEXT;
ALTER TABLE orders ADD COLUMN shipping_id INTEGER;

CREATE TABLE order_items (
  order_id    INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  position    INTEGER NOT NULL,
  item_id     TEXT NOT NULL,
  title       TEXT NOT NULL,
  quantity    INTEGER NOT NULL CHECK (quantity > 0),
  unit_price  REAL NOT NULL CHECK (unit_price >= 0),
  currency_id TEXT NOT NULL,
  PRIMARY KEY (order_id, position)
) WITHOUT ROWID;
`,
};

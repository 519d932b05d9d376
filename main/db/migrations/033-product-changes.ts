import type { Migration } from './index.js';

/**
 * A number per seller that moves whenever a user product of theirs comes or goes (issue 29), kept
 * by migration 008's triggers beside the count. The grid keeps every 256th product's place in
 * memory to find a scanned product's place without counting the rows before it (a walk of the
 * index, up to 100,000 entries); the number says when those places may have moved. An edit of a
 * cell never moves it.
 */
export const productChangesMigration: Migration = {
  version: 33,
  name: 'product-changes',
  sql: `
ALTER TABLE user_product_counts ADD COLUMN changes INTEGER NOT NULL DEFAULT 0;

DROP TRIGGER user_product_counts_insert;
DROP TRIGGER user_product_counts_delete;
DROP TRIGGER user_product_counts_move;
CREATE TRIGGER user_product_counts_insert AFTER INSERT ON user_products BEGIN
  INSERT INTO user_product_counts (user_id, n) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET n = n + 1, changes = changes + 1;
END;
CREATE TRIGGER user_product_counts_delete AFTER DELETE ON user_products BEGIN
  UPDATE user_product_counts SET n = n - 1, changes = changes + 1 WHERE user_id = OLD.user_id;
END;
CREATE TRIGGER user_product_counts_move AFTER UPDATE OF user_id ON user_products WHEN NEW.user_id IS NOT OLD.user_id BEGIN
  UPDATE user_product_counts SET n = n - 1, changes = changes + 1 WHERE user_id = OLD.user_id;
  INSERT INTO user_product_counts (user_id, n) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET n = n + 1, changes = changes + 1;
END;
`,
};

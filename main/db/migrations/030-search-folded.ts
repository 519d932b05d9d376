import type { Migration } from './index.js';

/**
 * Folded search columns (issue 27): the inbox's search compares buyer names, nicknames and product
 * titles with accents and case folded (common/search-fold.ts). Folding every row in each search
 * made it several times slower (a JS call per row); the folded text is now stored beside the text
 * by the repositories that write it (users, mirror, orders) and read as it is.
 *
 * Filled here by `stockroom_fold`, the fold registered on every connection migrate() runs on.
 * A writer that changes a name or title without its folded copy (a raw UPDATE, another tool)
 * leaves NULL through the triggers below, never a stale copy: the search folds a NULL row on the
 * spot (main/db/repos/inbox-search.ts), so it stays right and only that row is slower.
 */
export const searchFoldedMigration: Migration = {
  version: 30,
  name: 'search-folded',
  sql: `
ALTER TABLE users ADD COLUMN nickname_folded TEXT;
ALTER TABLE users ADD COLUMN name_folded TEXT;
ALTER TABLE order_items ADD COLUMN title_folded TEXT;

UPDATE users SET nickname_folded = stockroom_fold(nickname), name_folded = stockroom_fold(coalesce(first_name, '') || ' ' || coalesce(last_name, ''));
UPDATE order_items SET title_folded = stockroom_fold(title);

CREATE TRIGGER users_folded_stale AFTER UPDATE OF nickname, first_name, last_name ON users
  WHEN (NEW.nickname IS NOT OLD.nickname OR NEW.first_name IS NOT OLD.first_name OR NEW.last_name IS NOT OLD.last_name)
    AND NEW.nickname_folded IS OLD.nickname_folded AND NEW.name_folded IS OLD.name_folded
BEGIN
  UPDATE users SET nickname_folded = NULL, name_folded = NULL WHERE id = NEW.id;
END;

CREATE TRIGGER order_items_folded_stale AFTER UPDATE OF title ON order_items
  WHEN NEW.title IS NOT OLD.title AND NEW.title_folded IS OLD.title_folded
BEGIN
  UPDATE order_items SET title_folded = NULL WHERE order_id = NEW.order_id AND position = NEW.position;
END;

-- The search's look at a conversation's lines reads the index alone.
CREATE INDEX order_items_title_folded ON order_items (order_id, title_folded);
`,
};

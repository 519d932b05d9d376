import type { Migration } from './index.js';

/**
 * Operators on a shared workstation (issue 27): the people who work under the one marketplace
 * account, each switching in with a short PIN. They are local to this database (never sent to the
 * marketplace: the account stays the author there).
 *
 * - `operators`: the PIN is kept only as a scrypt hash with its own random salt; a removed operator
 *   is disabled, not deleted, so the history rows naming them keep their reference.
 * - History, count sessions and count lines say which operator did it. The name is copied as it was
 *   then (`operator_name`, `counted_by`): a history row is a record and never changes afterwards.
 *   Null everywhere when no operator was signed in (rows older than this migration included).
 */
export const operatorsMigration: Migration = {
  version: 25,
  name: 'operators',
  sql: `
CREATE TABLE operators (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
  pin_salt    BLOB NOT NULL,
  pin_hash    BLOB NOT NULL,
  created_at  INTEGER NOT NULL,
  disabled    INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1))
);
-- Two people with one name could not tell which of them to pick.
CREATE UNIQUE INDEX operators_active_name ON operators (name COLLATE NOCASE) WHERE disabled = 0;

ALTER TABLE sync_cell_history ADD COLUMN operator_id INTEGER REFERENCES operators (id);
ALTER TABLE sync_cell_history ADD COLUMN operator_name TEXT;
ALTER TABLE count_sessions ADD COLUMN operator_id INTEGER REFERENCES operators (id);
ALTER TABLE count_sessions ADD COLUMN operator_name TEXT;
ALTER TABLE count_lines ADD COLUMN counted_by TEXT;
`,
};

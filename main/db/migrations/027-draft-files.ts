import type { Migration } from './index.js';

/**
 * Files attached to a draft (issue 27): a draft keeps its files across a reload and a restart, as
 * it keeps its text (message_drafts, migration 017). One row per file, in the order attached; the
 * bytes stay in the data folder's staging/kept/ under `file_id` (`path` null), or, for a file
 * picked in the desktop's open dialog, where the person has it (`path`). Never sent anywhere: the
 * files go with the message when it is sent.
 */
export const draftFilesMigration: Migration = {
  version: 27,
  name: 'draft-files',
  sql: `
CREATE TABLE message_draft_files (
  file_id  TEXT PRIMARY KEY,
  pack_key INTEGER NOT NULL,
  position INTEGER NOT NULL,
  name     TEXT NOT NULL,
  type     TEXT,
  size     INTEGER NOT NULL,
  path     TEXT
);
CREATE INDEX message_draft_files_by_pack ON message_draft_files (pack_key, position);
`,
};

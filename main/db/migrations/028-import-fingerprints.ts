import type { Migration } from './index.js';

/**
 * What was imported (issue 27): one row per applied file, so applying the same file again is asked
 * first. A file is known by two digests (SHA-256): of its bytes, and of its changes as applied (the
 * rows: product, location, line, count or adjustment), so the same rows saved again under another
 * name or re-exported with other notes are still recognised. Who: the account, and the workstation's
 * operator when one was signed in (migration 025). Written in the import's own transaction.
 *
 * (The issue reserved 026 for this; 026 went to workstation_prefs first, 027 to draft files.)
 */
export const importFingerprintsMigration: Migration = {
  version: 28,
  name: 'import-fingerprints',
  sql: `
CREATE TABLE import_fingerprints (
  id            INTEGER PRIMARY KEY,
  seller_id     INTEGER NOT NULL,
  name          TEXT NOT NULL,
  -- SHA-256 (hex) of the file's bytes, when the screen could read them; of its changes, always.
  file_digest   TEXT CHECK (file_digest IS NULL OR length(file_digest) = 64),
  rows_digest   TEXT NOT NULL CHECK (length(rows_digest) = 64),
  changes       INTEGER NOT NULL,
  author        TEXT NOT NULL,
  operator_id   INTEGER,
  operator_name TEXT,
  applied_at    INTEGER NOT NULL
);
CREATE INDEX import_fingerprints_file ON import_fingerprints (seller_id, file_digest) WHERE file_digest IS NOT NULL;
CREATE INDEX import_fingerprints_rows ON import_fingerprints (seller_id, rows_digest);
`,
};

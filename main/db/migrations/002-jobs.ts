import type { Migration } from './index.js';

/**
 * Durable background jobs: inserted in the same transaction as the change they belong to, so a
 * crash between "saved" and "propagated" cannot lose the propagation.
 */
export const jobsMigration: Migration = {
  version: 2,
  name: 'jobs',
  sql: `
CREATE TABLE jobs (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  kind        TEXT NOT NULL,
  payload     TEXT NOT NULL,
  state       TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'failed')),
  attempts    INTEGER NOT NULL DEFAULT 0,
  run_at      INTEGER NOT NULL,
  last_error  TEXT,
  created_at  INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX jobs_due ON jobs(state, run_at);
`,
};

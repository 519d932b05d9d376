import { ENTRY_STATES, OUTBOX_KINDS } from '../../../common/outbox.js';
import type { Migration } from './index.js';

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * The outbox as one explicit model (issue 24, main/sync/model.ts).
 *
 * - `undoes_entry`: an undo's inverse edit names the entry it takes back while that entry's fate
 *   is open (on the wire, outcome unknown, in conflict): the inverse follows it (withdrawn with
 *   it, never sent alone, not shown while it is failed or in conflict).
 * - `sealed`: the entry never coalesces with later edits (a count session's count is an
 *   observation at its own base; an inverse is the undo of one edit only).
 * - `withdraw`: the person asked to take back an entry whose outcome is unknown; the engine learns
 *   the outcome first (a read of the remote, a resend under the same key) and then drops it or
 *   records it done.
 * The table is rebuilt so its kind and state CHECKs are the lists of common/outbox.ts (SQLite
 * cannot alter a CHECK); every row, id, index and the id counter are kept.
 */
export const outboxModelMigration: Migration = {
  version: 22,
  name: 'outbox-model',
  sql: `
CREATE TABLE sync_outbox_new (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  kind            TEXT NOT NULL CHECK (kind IN (${list(OUTBOX_KINDS)})),
  lane            TEXT NOT NULL,
  state           TEXT NOT NULL CHECK (state IN (${list(ENTRY_STATES)})),
  idempotency_key TEXT NOT NULL,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  user_product_id TEXT,
  cell_type       TEXT CHECK (cell_type IS NULL OR cell_type IN ('seller_warehouse', 'selling_address')),
  store_key       TEXT,
  cell            TEXT,
  op              TEXT CHECK (op IS NULL OR op IN ('adjust', 'count')),
  delta           INTEGER,
  quantity        INTEGER,
  base_version    INTEGER,
  base_quantity   INTEGER,
  sent_version    INTEGER,
  sent_quantity   INTEGER,
  sent_at         INTEGER,
  remote_version  INTEGER,
  remote_quantity INTEGER,
  result_version  INTEGER,
  payload         TEXT,
  result          TEXT,
  last_status     INTEGER,
  last_error      TEXT,
  key_used        INTEGER NOT NULL DEFAULT 0,
  needs_read      INTEGER NOT NULL DEFAULT 0,
  reason          TEXT,
  cell2           TEXT,
  store_key2      TEXT,
  sent_quantity2  INTEGER,
  undoes_entry    INTEGER,
  sealed          INTEGER NOT NULL DEFAULT 0,
  withdraw        INTEGER NOT NULL DEFAULT 0,
  CHECK ((kind = 'stock') = (cell IS NOT NULL))
);
INSERT INTO sync_outbox_new (id, kind, lane, state, idempotency_key, attempts, next_attempt_at, created_at, updated_at,
  user_product_id, cell_type, store_key, cell, op, delta, quantity, base_version, base_quantity, sent_version, sent_quantity,
  sent_at, remote_version, remote_quantity, result_version, payload, result, last_status, last_error, key_used, needs_read,
  reason, cell2, store_key2, sent_quantity2)
SELECT id, kind, lane, state, idempotency_key, attempts, next_attempt_at, created_at, updated_at,
  user_product_id, cell_type, store_key, cell, op, delta, quantity, base_version, base_quantity, sent_version, sent_quantity,
  sent_at, remote_version, remote_quantity, result_version, payload, result, last_status, last_error, key_used, needs_read,
  reason, cell2, store_key2, sent_quantity2 FROM sync_outbox;
-- Ids are never reused (history rows name their entry): the AUTOINCREMENT counter carries over.
CREATE TEMP TABLE outbox_seq AS SELECT seq FROM sqlite_sequence WHERE name = 'sync_outbox';
DROP TABLE sync_outbox;
ALTER TABLE sync_outbox_new RENAME TO sync_outbox;
UPDATE sqlite_sequence SET seq = max(seq, (SELECT seq FROM outbox_seq)) WHERE name = 'sync_outbox' AND EXISTS (SELECT 1 FROM outbox_seq);
INSERT INTO sqlite_sequence (name, seq) SELECT 'sync_outbox', seq FROM outbox_seq WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'sync_outbox');
DROP TABLE outbox_seq;
CREATE INDEX sync_outbox_active ON sync_outbox(lane, cell, id) WHERE state <> 'done';
CREATE INDEX sync_outbox_active_cell2 ON sync_outbox(lane, cell2, id) WHERE state <> 'done' AND cell2 IS NOT NULL;
-- An entry's inverses (they follow its fate).
CREATE INDEX sync_outbox_undoes ON sync_outbox(undoes_entry) WHERE undoes_entry IS NOT NULL;
`,
};

import type { Migration } from './index.js';

/**
 * Offline-first sync (main/sync) and server-side idempotency (main/service/idempotency).
 *
 * Server side (the marketplace service, also when it plays the remote):
 * - `idempotency_keys`: the successful (2xx) response to a request that carried
 *   `X-Idempotency-Key`, per (user, key), written in the same transaction as the change itself;
 *   a retry with the same key gets it back instead of applying the change again. `route` is the
 *   method and path the key was first used on (a key reused on another resource is refused).
 *   Rows older than 24 h are ignored and swept by a durable job.
 *
 * Client side (the desktop app's replica of a remote marketplace): the service tables hold the
 * MIRROR of the remote (last known quantities and versions); what the person meant lives here:
 * - `sync_outbox`: one row per pending intent (a stock adjustment or count, an outgoing message),
 *   written in the same transaction as its history row. `lane` orders entries (one user product,
 *   one conversation); `cell` names the stock cell. `sent_*` is the request last put on the wire,
 *   resent byte for byte after a transient failure (same idempotency key). A `conflict` row keeps
 *   base, local and remote values until the user resolves it.
 * - `sync_cell_history`: who changed which stock cell, when, how (adjustment, count, synced from
 *   the marketplace, conflict resolution, discarded) and from what to what (as shown in the grid).
 * - `sync_state`: small key/value facts of the sync (last pull, pull cursor).
 */
export const syncMigration: Migration = {
  version: 7,
  name: 'sync',
  sql: `
CREATE TABLE idempotency_keys (
  user_id    INTEGER NOT NULL,
  key        TEXT NOT NULL,
  route      TEXT NOT NULL,
  status     INTEGER NOT NULL,
  body       TEXT,
  x_version  TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at);

CREATE TABLE sync_outbox (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  kind            TEXT NOT NULL CHECK (kind IN ('stock', 'message')),
  lane            TEXT NOT NULL,
  state           TEXT NOT NULL CHECK (state IN ('pending', 'in_flight', 'done', 'conflict', 'failed')),
  -- A random UUID (no index: nothing looks entries up by key, and a random-order index costs a page per edit).
  idempotency_key TEXT NOT NULL,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  -- stock: the cell and what the person meant
  user_product_id TEXT,
  cell_type       TEXT CHECK (cell_type IS NULL OR cell_type IN ('seller_warehouse', 'selling_address')),
  store_key       TEXT,
  cell            TEXT,
  op              TEXT CHECK (op IS NULL OR op IN ('adjust', 'count')),
  delta           INTEGER,
  quantity        INTEGER,
  base_version    INTEGER,
  base_quantity   INTEGER,
  -- stock: the request on the wire (NULL when none is outstanding)
  sent_version    INTEGER,
  sent_quantity   INTEGER,
  sent_at         INTEGER,
  -- stock: the remote as seen when a count became a conflict, and the outcome of a done entry
  remote_version  INTEGER,
  remote_quantity INTEGER,
  result_version  INTEGER,
  -- message: JSON (pack, recipient, text, attachments with their local and remote ids)
  payload         TEXT,
  result          TEXT,
  last_status     INTEGER,
  last_error      TEXT,
  CHECK ((kind = 'stock') = (cell IS NOT NULL))
);
-- One index serves both the lane (scheduler) and the cell (coalescing) lookups of active entries.
CREATE INDEX sync_outbox_active ON sync_outbox(lane, cell, id) WHERE state <> 'done';

CREATE TABLE sync_cell_history (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  cell            TEXT NOT NULL,
  user_product_id TEXT NOT NULL,
  cell_type       TEXT NOT NULL,
  store_key       TEXT NOT NULL,
  kind            TEXT NOT NULL CHECK (kind IN ('adjustment', 'count', 'synced', 'conflict_resolution', 'discarded')),
  author          TEXT NOT NULL,
  at              INTEGER NOT NULL,
  from_quantity   INTEGER,
  to_quantity     INTEGER,
  delta           INTEGER,
  entry_id        INTEGER,
  ref             TEXT,
  note            TEXT
);
CREATE INDEX sync_cell_history_by_cell ON sync_cell_history(cell, id);
CREATE INDEX sync_cell_history_by_ref ON sync_cell_history(ref) WHERE ref IS NOT NULL;

CREATE TABLE sync_state (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
`,
};

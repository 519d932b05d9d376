import type { Migration } from './index.js';

/**
 * Two facts the outbox needs to reuse an idempotency key only for the very request it was first
 * sent with:
 * - `key_used`: a request under the entry's current key may have reached the remote. The next
 *   request with other content (a rebase after 409, a new count merged into a failed entry, a
 *   conflict resolved) gets a fresh key; a plain resend of the same request keeps it.
 * - `needs_read`: the remote refused the last request (409) and its stock could not be re-read:
 *   the next attempt reads first instead of resending an x-version that can never match.
 */
export const outboxKeysMigration: Migration = {
  version: 10,
  name: 'outbox-keys',
  sql: `
ALTER TABLE sync_outbox ADD COLUMN key_used INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_outbox ADD COLUMN needs_read INTEGER NOT NULL DEFAULT 0;
-- Rows written before this migration: a request kept on the row was put on the wire.
UPDATE sync_outbox SET key_used = 1 WHERE sent_version IS NOT NULL OR state IN ('failed', 'conflict');
`,
};

import type { Migration } from './index.js';

/**
 * The inbox counts each conversation's unread messages for the seller on every read of the list.
 * Without this the count visits every message of every pack (date_read is not in messages_by_pack):
 * 100,000 rows for 2,000 conversations of 50. The partial index holds only unread, visible ones.
 */
export const unreadIndexMigration: Migration = {
  version: 9,
  name: 'unread-index',
  sql: `
CREATE INDEX messages_unread ON messages(pack_key, to_user_id)
  WHERE date_read IS NULL AND moderation_status IN ('clean', 'non_moderated');
`,
};

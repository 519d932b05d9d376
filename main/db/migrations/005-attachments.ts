import type { Migration } from './index.js';

/**
 * Message attachments (SPEC 2.8 Attachment, 4.11-4.13). One row per upload; the bytes live on disk,
 * content-addressed by `sha256` (several rows may share one file). `sha256` is NULL for attachment
 * metadata seeded from fixtures without bytes (downloading those answers 500, "not accessible").
 * `message_id` is NULL until a send links the upload to its message (in the send's transaction);
 * unattached rows are deleted 48 hours after the upload by a durable job.
 */
export const attachmentsMigration: Migration = {
  version: 5,
  name: 'attachments',
  sql: `
CREATE TABLE attachments (
  id                        TEXT PRIMARY KEY,
  uploader_id               INTEGER NOT NULL REFERENCES users(id),
  site_id                   TEXT NOT NULL,
  original_filename         TEXT NOT NULL,
  media_type                TEXT NOT NULL,
  size                      INTEGER NOT NULL CHECK (size >= 0),
  sha256                    TEXT CHECK (sha256 IS NULL OR length(sha256) = 64),
  potential_security_threat INTEGER NOT NULL DEFAULT 0 CHECK (potential_security_threat IN (0, 1)),
  created_at                INTEGER NOT NULL,
  message_id                TEXT REFERENCES messages(id),
  position                  INTEGER,
  CHECK ((message_id IS NULL) = (position IS NULL))
) WITHOUT ROWID;
CREATE INDEX attachments_by_message ON attachments(message_id, position) WHERE message_id IS NOT NULL;
CREATE INDEX attachments_by_sha256 ON attachments(sha256) WHERE sha256 IS NOT NULL;
`,
};

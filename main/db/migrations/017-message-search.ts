import type { Migration } from './index.js';

/**
 * Finding and answering fast (issue 15 §2).
 *
 * `messages_fts`: a full-text index over messages.text, so the inbox's search reads an index
 * instead of scanning 100,000 texts with LIKE. External content (the text lives once, in
 * messages); the triggers keep the index in step with every insert, text change and delete
 * (the pull's mirror writes and the service's sends alike). `remove_diacritics 2` lets "envio"
 * find "envío" (Spanish, Portuguese). It is keyed by messages' implicit rowid: a VACUUM may
 * renumber those, so anything that ever vacuums must follow with `('rebuild')`.
 *
 * `message_drafts`: what the seller was writing in each conversation, kept across restarts
 * (per profile, since pack ids belong to one marketplace). Staged files are not kept.
 */
export const messageSearchMigration: Migration = {
  version: 17,
  name: 'message-search',
  sql: `
CREATE VIRTUAL TABLE messages_fts USING fts5(
  text,
  content = 'messages',
  content_rowid = 'rowid',
  tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');

CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts(rowid, text) VALUES (NEW.rowid, NEW.text);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', OLD.rowid, OLD.text);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF text ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', OLD.rowid, OLD.text);
  INSERT INTO messages_fts(rowid, text) VALUES (NEW.rowid, NEW.text);
END;

CREATE TABLE message_drafts (
  pack_key   INTEGER PRIMARY KEY,
  text       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
`,
};

import type { Migration } from './index.js';

/** Messages past the mark that make the index catch up (in the statement that inserts the last of them). */
export const SEARCH_BATCH = 64;

/**
 * The full-text index of migration 017 written in batches, not a message at a time (issue 17).
 *
 * FTS5 writes what a statement added to its index as a new segment when the next statement or
 * savepoint of the transaction starts. Indexed by a trigger per message, every send wrote a
 * segment of one message (B-tree writes, the index's structure record rewritten, merges after):
 * about 60 µs of CPU per send, a sixth of storing it. Now the rows past a mark are indexed
 * together, in one statement, once SEARCH_BATCH of them have come: one segment per batch.
 *
 * The invariant the triggers keep, in every transaction, for every writer (the service's sends,
 * the pull's mirror writes, raw SQL): `messages_fts` holds exactly the messages whose rowid is at
 * or below `message_search_state.indexed_rowid`, each with its current text. So:
 * - a row inserted at or below the mark (its rowid given, or used again after the newest rows
 *   were deleted) is indexed at once; one that takes the mark SEARCH_BATCH or more past the mark
 *   indexes every row past it and moves the mark to the greatest rowid;
 * - deleting a row, or changing its text, touches the index only for a row at or below the mark.
 * A search matches the index and the rows past the mark (fewer than SEARCH_BATCH), in one snapshot
 * (main/db/repos/inbox-search.ts): the same answer as an index of every row.
 *
 * Anything that rebuilds the index (`('rebuild')`, after a VACUUM: see 017) must then set the mark
 * to max(rowid). The statements of the insert trigger run in order, so the catch-up never indexes
 * a row the first statement indexed.
 */
export const messageSearchMarkMigration: Migration = {
  version: 19,
  name: 'message-search-mark',
  sql: `
CREATE TABLE message_search_state (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  indexed_rowid INTEGER NOT NULL
);
INSERT INTO message_search_state (id, indexed_rowid) SELECT 1, coalesce(max(rowid), 0) FROM messages;

DROP TRIGGER messages_fts_insert;
DROP TRIGGER messages_fts_delete;
DROP TRIGGER messages_fts_update;

CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
WHEN NEW.rowid <= (SELECT indexed_rowid FROM message_search_state)
  OR NEW.rowid >= (SELECT indexed_rowid FROM message_search_state) + ${SEARCH_BATCH}
BEGIN
  INSERT INTO messages_fts(rowid, text)
    SELECT NEW.rowid, NEW.text WHERE NEW.rowid <= (SELECT indexed_rowid FROM message_search_state);
  INSERT INTO messages_fts(rowid, text)
    SELECT rowid, text FROM messages
     WHERE rowid > (SELECT indexed_rowid FROM message_search_state)
       AND NEW.rowid >= (SELECT indexed_rowid FROM message_search_state) + ${SEARCH_BATCH};
  UPDATE message_search_state SET indexed_rowid = (SELECT max(rowid) FROM messages)
   WHERE NEW.rowid >= indexed_rowid + ${SEARCH_BATCH};
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages
WHEN OLD.rowid <= (SELECT indexed_rowid FROM message_search_state)
BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', OLD.rowid, OLD.text);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF text ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, text)
    SELECT 'delete', OLD.rowid, OLD.text WHERE OLD.rowid <= (SELECT indexed_rowid FROM message_search_state);
  INSERT INTO messages_fts(rowid, text)
    SELECT NEW.rowid, NEW.text WHERE NEW.rowid <= (SELECT indexed_rowid FROM message_search_state);
END;
`,
};

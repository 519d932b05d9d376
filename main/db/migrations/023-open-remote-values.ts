import type { Migration } from './index.js';

/**
 * Values the marketplace adds over time are stored as sent (issue 25): an order status other than
 * paid/cancelled, a moderation status or reason this app does not know. Each of them was a CHECK
 * on a closed list, so one new moderation reason failed every later pull of the inbox for good.
 * The screens show such a value as "other" with the raw text.
 *
 * SQLite cannot alter a CHECK: `orders` and `messages` are rebuilt with the same columns, rows,
 * rowids (the full-text index of messages is keyed by rowid), indexes and triggers, the closed
 * lists replaced by a bound on length. The rebuild drops tables other tables reference, so it runs
 * with foreign keys off (`foreignKeysOff`); open.ts checks no reference broke before committing.
 * legacy_alter_table keeps the RENAME from re-checking triggers of other tables that name the
 * table while it is gone.
 */
export const openRemoteValuesMigration: Migration = {
  version: 23,
  name: 'open-remote-values',
  foreignKeysOff: true,
  sql: `
PRAGMA legacy_alter_table = ON;

CREATE TABLE orders_new (
  id                   INTEGER PRIMARY KEY,
  pack_id              INTEGER,
  seller_id            INTEGER NOT NULL REFERENCES users(id),
  buyer_id             INTEGER NOT NULL REFERENCES users(id),
  site_id              TEXT NOT NULL,
  -- paid, cancelled, or a newer status as the marketplace sent it.
  status               TEXT NOT NULL CHECK (length(status) BETWEEN 1 AND 100),
  logistic_type        TEXT NOT NULL,
  delivered            INTEGER NOT NULL DEFAULT 0,
  mediation_in_process INTEGER NOT NULL DEFAULT 0,
  -- When the order reached its current status (fixtures: when they were loaded); the
  -- conversation's status_date (SPEC 2.9).
  status_date          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  date_created TEXT,
  total_amount REAL,
  currency_id TEXT,
  shipping_id INTEGER
);
INSERT INTO orders_new (id, pack_id, seller_id, buyer_id, site_id, status, logistic_type, delivered, mediation_in_process, status_date,
                        date_created, total_amount, currency_id, shipping_id)
  SELECT id, pack_id, seller_id, buyer_id, site_id, status, logistic_type, delivered, mediation_in_process, status_date,
         date_created, total_amount, currency_id, shipping_id FROM orders;
DROP TABLE orders;
ALTER TABLE orders_new RENAME TO orders;
CREATE INDEX orders_by_pack ON orders(pack_id);
CREATE TRIGGER message_pack_versions_order_insert AFTER INSERT ON orders BEGIN
  INSERT INTO message_pack_versions (pack_key, version) SELECT coalesce(NEW.pack_id, NEW.id), random() WHERE coalesce(NEW.pack_id, NEW.id) IS NOT NULL
    ON CONFLICT (pack_key) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER message_pack_versions_order_delete AFTER DELETE ON orders BEGIN
  INSERT INTO message_pack_versions (pack_key, version) SELECT coalesce(OLD.pack_id, OLD.id), random() WHERE coalesce(OLD.pack_id, OLD.id) IS NOT NULL
    ON CONFLICT (pack_key) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER message_pack_versions_order_update AFTER UPDATE ON orders BEGIN
  INSERT INTO message_pack_versions (pack_key, version) SELECT coalesce(OLD.pack_id, OLD.id), random() WHERE coalesce(OLD.pack_id, OLD.id) IS NOT NULL
    ON CONFLICT (pack_key) DO UPDATE SET version = excluded.version;
  INSERT INTO message_pack_versions (pack_key, version) SELECT coalesce(NEW.pack_id, NEW.id), random() WHERE coalesce(NEW.pack_id, NEW.id) IS NOT NULL
    ON CONFLICT (pack_key) DO UPDATE SET version = excluded.version;
END;

CREATE TABLE messages_new (
  id           TEXT PRIMARY KEY,
  order_id     INTEGER NOT NULL REFERENCES orders(id),
  from_user_id INTEGER NOT NULL REFERENCES users(id),
  to_user_id   INTEGER NOT NULL REFERENCES users(id),
  -- The conversation: the order's pack_id, or the order id where pack_id is null (SPEC 4.9).
  pack_key     INTEGER,
  site_id      TEXT,
  -- Application that sent it (SPEC 2.8 client_id); NULL for fixture messages.
  client_id    INTEGER,
  subject      TEXT,
  text         TEXT NOT NULL DEFAULT '',
  status       TEXT NOT NULL DEFAULT 'available' CHECK (status IN ('available')),
  -- The five dates of SPEC 2.8 / 4.10 (see migration 004).
  date_created   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  date_received  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  date_available TEXT,
  date_notified  TEXT,
  date_read      TEXT,
  -- clean, rejected, pending, non_moderated, or a newer status as the marketplace sent it.
  moderation_status TEXT NOT NULL DEFAULT 'pending' CHECK (length(moderation_status) BETWEEN 1 AND 100),
  -- One of common/messages/moderation's reasons, or a newer one as the marketplace sent it.
  moderation_reason TEXT CHECK (moderation_reason IS NULL OR length(moderation_reason) <= 1000),
  moderation_source TEXT,
  moderation_date   TEXT,
  conversation_first_message INTEGER NOT NULL DEFAULT 0 CHECK (conversation_first_message IN (0, 1)),
  -- sha256 of normalizeForRepetition(text): finds the same text sent to other packs (AUTOMATIC_MESSAGE).
  text_hash    TEXT,
  -- Insertion order: the tie-break between messages created in the same millisecond.
  seq          INTEGER
);
INSERT INTO messages_new (rowid, id, order_id, from_user_id, to_user_id, pack_key, site_id, client_id, subject, text, status,
                          date_created, date_received, date_available, date_notified, date_read,
                          moderation_status, moderation_reason, moderation_source, moderation_date,
                          conversation_first_message, text_hash, seq)
  SELECT rowid, id, order_id, from_user_id, to_user_id, pack_key, site_id, client_id, subject, text, status,
         date_created, date_received, date_available, date_notified, date_read,
         moderation_status, moderation_reason, moderation_source, moderation_date,
         conversation_first_message, text_hash, seq FROM messages;
DROP TABLE messages;
ALTER TABLE messages_new RENAME TO messages;
CREATE INDEX messages_by_pack ON messages(pack_key, date_created, seq, from_user_id, to_user_id, moderation_status);
CREATE INDEX messages_by_sender_text ON messages(from_user_id, text_hash, date_created);
CREATE UNIQUE INDEX messages_by_seq ON messages(seq);
CREATE INDEX messages_unread ON messages(pack_key, to_user_id)
  WHERE date_read IS NULL AND moderation_status IN ('clean', 'non_moderated');
CREATE TRIGGER messages_fill_defaults AFTER INSERT ON messages
WHEN NEW.pack_key IS NULL OR NEW.site_id IS NULL OR NEW.seq IS NULL
BEGIN
  UPDATE messages SET
    pack_key = coalesce(NEW.pack_key, (SELECT coalesce(pack_id, id) FROM orders WHERE id = NEW.order_id)),
    site_id  = coalesce(NEW.site_id, (SELECT site_id FROM orders WHERE id = NEW.order_id)),
    seq      = coalesce(NEW.seq, (SELECT coalesce(max(seq), 0) + 1 FROM messages))
  WHERE id = NEW.id;
END;
CREATE TRIGGER message_pack_versions_insert AFTER INSERT ON messages BEGIN
  INSERT INTO message_pack_versions (pack_key, version) SELECT NEW.pack_key, random() WHERE NEW.pack_key IS NOT NULL
    ON CONFLICT (pack_key) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER message_pack_versions_delete AFTER DELETE ON messages BEGIN
  INSERT INTO message_pack_versions (pack_key, version) SELECT OLD.pack_key, random() WHERE OLD.pack_key IS NOT NULL
    ON CONFLICT (pack_key) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER message_pack_versions_update AFTER UPDATE ON messages BEGIN
  INSERT INTO message_pack_versions (pack_key, version) SELECT OLD.pack_key, random() WHERE OLD.pack_key IS NOT NULL
    ON CONFLICT (pack_key) DO UPDATE SET version = excluded.version;
  INSERT INTO message_pack_versions (pack_key, version) SELECT NEW.pack_key, random() WHERE NEW.pack_key IS NOT NULL
    ON CONFLICT (pack_key) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
WHEN NEW.rowid <= (SELECT indexed_rowid FROM message_search_state)
  OR NEW.rowid >= (SELECT indexed_rowid FROM message_search_state) + 64
BEGIN
  INSERT INTO messages_fts(rowid, text)
    SELECT NEW.rowid, NEW.text WHERE NEW.rowid <= (SELECT indexed_rowid FROM message_search_state);
  INSERT INTO messages_fts(rowid, text)
    SELECT rowid, text FROM messages
     WHERE rowid > (SELECT indexed_rowid FROM message_search_state)
       AND NEW.rowid >= (SELECT indexed_rowid FROM message_search_state) + 64;
  UPDATE message_search_state SET indexed_rowid = (SELECT max(rowid) FROM messages)
   WHERE NEW.rowid >= indexed_rowid + 64;
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

PRAGMA legacy_alter_table = OFF;
`,
};

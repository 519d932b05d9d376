import type { Migration } from './index.js';

/**
 * Orders and post-sale messages (SPEC 2.8-2.10, 4.9-4.11). The columns listed in the contract
 * comment are relied upon by the attachments area; the messages area owns the rest of this file.
 * Contract: orders(id INTEGER PK, pack_id INTEGER NULL, seller_id INTEGER, buyer_id INTEGER, site_id TEXT)
 *           messages(id TEXT PK, order_id INTEGER REFERENCES orders(id), from_user_id INTEGER, to_user_id INTEGER)
 *
 * Every column beyond the contract has a default (or is filled by the trigger below), so a row
 * inserted with the contract columns only is still a well-formed (pending) message.
 *
 * Timestamps are ISO 8601 UTC text with milliseconds (`2026-11-18T13:05:00.000Z`, the format of
 * `Date.toISOString()`), so text order is time order.
 */
export const messagesMigration: Migration = {
  version: 4,
  name: 'messages',
  sql: `
CREATE TABLE orders (
  id                   INTEGER PRIMARY KEY,
  pack_id              INTEGER,
  seller_id            INTEGER NOT NULL REFERENCES users(id),
  buyer_id             INTEGER NOT NULL REFERENCES users(id),
  site_id              TEXT NOT NULL,
  status               TEXT NOT NULL CHECK (status IN ('paid', 'cancelled')),
  logistic_type        TEXT NOT NULL,
  delivered            INTEGER NOT NULL DEFAULT 0,
  mediation_in_process INTEGER NOT NULL DEFAULT 0,
  -- When the order reached its current status (fixtures: when they were loaded); the
  -- conversation's status_date (SPEC 2.9).
  status_date          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX orders_by_pack ON orders(pack_id);

CREATE TABLE messages (
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
  -- The five dates of SPEC 2.8 / 4.10: created (= "date", saved) and received are set on send;
  -- available when moderation passed (NULL while pending or when rejected); notified when the
  -- message was delivered to the recipient's inbox (= available, or on first read for data that
  -- has none); read when the recipient read the pack.
  date_created   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  date_received  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  date_available TEXT,
  date_notified  TEXT,
  date_read      TEXT,
  moderation_status TEXT NOT NULL DEFAULT 'pending'
    CHECK (moderation_status IN ('clean', 'rejected', 'pending', 'non_moderated')),
  moderation_reason TEXT CHECK (moderation_reason IN ('OUT_OF_PLACE_LANGUAGE', 'SOCIAL_NETWORK_LINK',
    'LINK_SHORT_URL', 'AUTOMATIC_MESSAGE', 'PERSONAL_DATA', 'LINK_PAYMENT', 'EVASION_CLAIM_SELLER')),
  moderation_source TEXT,
  moderation_date   TEXT,
  conversation_first_message INTEGER NOT NULL DEFAULT 0 CHECK (conversation_first_message IN (0, 1)),
  -- sha256 of normalizeForRepetition(text): finds the same text sent to other packs (AUTOMATIC_MESSAGE).
  text_hash    TEXT,
  -- Insertion order: the tie-break between messages created in the same millisecond.
  seq          INTEGER
);
CREATE INDEX messages_by_order ON messages(order_id);
-- Covering for the visibility filter, so counting a pack and skipping to an offset never touch rows.
CREATE INDEX messages_by_pack ON messages(pack_key, date_created, seq, from_user_id, to_user_id, moderation_status);
CREATE INDEX messages_by_sender_text ON messages(from_user_id, text_hash, date_created);
-- One sequence number per message; the index also makes max(seq) (the next number) a lookup.
CREATE UNIQUE INDEX messages_by_seq ON messages(seq);

-- A row inserted with the contract columns only gets its pack, site and sequence from its order.
CREATE TRIGGER messages_fill_defaults AFTER INSERT ON messages
WHEN NEW.pack_key IS NULL OR NEW.site_id IS NULL OR NEW.seq IS NULL
BEGIN
  UPDATE messages SET
    pack_key = coalesce(NEW.pack_key, (SELECT coalesce(pack_id, id) FROM orders WHERE id = NEW.order_id)),
    site_id  = coalesce(NEW.site_id, (SELECT site_id FROM orders WHERE id = NEW.order_id)),
    seq      = coalesce(NEW.seq, (SELECT coalesce(max(seq), 0) + 1 FROM messages))
  WHERE id = NEW.id;
END;
`,
};

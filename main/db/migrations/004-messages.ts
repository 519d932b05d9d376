import type { Migration } from './index.js';

/**
 * Orders and post-sale messages (SPEC 2.8-2.10, 4.9-4.11). The columns listed in the contract
 * comment are relied upon by the attachments area; the messages area owns the rest of this file.
 * Contract: orders(id INTEGER PK, pack_id INTEGER NULL, seller_id INTEGER, buyer_id INTEGER, site_id TEXT)
 *           messages(id TEXT PK, order_id INTEGER REFERENCES orders(id), from_user_id INTEGER, to_user_id INTEGER)
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
  mediation_in_process INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX orders_by_pack ON orders(pack_id);

CREATE TABLE messages (
  id           TEXT PRIMARY KEY,
  order_id     INTEGER NOT NULL REFERENCES orders(id),
  from_user_id INTEGER NOT NULL REFERENCES users(id),
  to_user_id   INTEGER NOT NULL REFERENCES users(id)
);
CREATE INDEX messages_by_order ON messages(order_id);
`,
};

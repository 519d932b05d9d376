import type { Migration } from './index.js';

/** Accounts, stores, items and stock per location (SPEC 2.1-2.6). */
export const stockMigration: Migration = {
  version: 1,
  name: 'stock',
  sql: `
CREATE TABLE applications (
  id            INTEGER PRIMARY KEY,
  name          TEXT NOT NULL,
  secret        TEXT,
  redirect_uris TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE users (
  id                INTEGER PRIMARY KEY,
  nickname          TEXT NOT NULL,
  registration_date TEXT NOT NULL,
  first_name        TEXT NOT NULL,
  last_name         TEXT NOT NULL,
  gender            TEXT NOT NULL DEFAULT '',
  country_id        TEXT NOT NULL,
  site_id           TEXT NOT NULL,
  user_type         TEXT,
  tags              TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE tokens (
  access_token   TEXT PRIMARY KEY,
  user_id        INTEGER NOT NULL REFERENCES users(id),
  application_id INTEGER NOT NULL REFERENCES applications(id),
  expires_at     INTEGER
) WITHOUT ROWID;

CREATE TABLE stores (
  id              TEXT PRIMARY KEY,
  user_id         TEXT NOT NULL,
  description     TEXT NOT NULL,
  status          TEXT NOT NULL,
  tags            TEXT NOT NULL DEFAULT '[]',
  network_node_id TEXT NOT NULL,
  location        TEXT NOT NULL
);
CREATE INDEX stores_by_user ON stores(user_id, id);

CREATE TABLE user_products (
  id                   TEXT PRIMARY KEY,
  user_id              INTEGER NOT NULL REFERENCES users(id),
  version              INTEGER NOT NULL DEFAULT 1,
  product_release_date TEXT
) WITHOUT ROWID;
CREATE INDEX user_products_by_user ON user_products(user_id);

-- store_key is '' for selling_address and platform_facility, the store id for seller_warehouse,
-- so that (user product, type, store) is one key without NULL-distinctness surprises.
CREATE TABLE stock_locations (
  user_product_id TEXT NOT NULL REFERENCES user_products(id) ON DELETE CASCADE,
  type            TEXT NOT NULL CHECK (type IN ('seller_warehouse', 'selling_address', 'platform_facility')),
  store_key       TEXT NOT NULL DEFAULT '',
  network_node_id TEXT,
  quantity        INTEGER NOT NULL CHECK (quantity >= 0),
  position        INTEGER NOT NULL,
  PRIMARY KEY (user_product_id, type, store_key)
) WITHOUT ROWID;

CREATE TABLE items (
  id                 TEXT PRIMARY KEY,
  site_id            TEXT NOT NULL,
  title              TEXT NOT NULL,
  seller_id          INTEGER NOT NULL REFERENCES users(id),
  category_id        TEXT NOT NULL,
  user_product_id    TEXT NOT NULL REFERENCES user_products(id),
  price              REAL NOT NULL,
  base_price         REAL NOT NULL,
  currency_id        TEXT NOT NULL,
  listing_type_id    TEXT NOT NULL,
  channels           TEXT NOT NULL DEFAULT '["marketplace"]',
  official_store_id  INTEGER,
  logistic_type      TEXT NOT NULL,
  local_delivery     INTEGER NOT NULL DEFAULT 0,
  inventory_id       TEXT,
  full_inbound_done  INTEGER NOT NULL DEFAULT 0,
  available_quantity INTEGER,
  attributes         TEXT NOT NULL DEFAULT '{}',
  date_created       TEXT NOT NULL
);
CREATE INDEX items_by_user_product ON items(user_product_id);
CREATE INDEX items_by_seller ON items(seller_id);

-- Monotonic counters for generated identifiers (item and user product ids).
CREATE TABLE counters (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
`,
};

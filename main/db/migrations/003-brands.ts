import type { Migration } from './index.js';

/**
 * Brands (official stores) and their links to users (SPEC 2.7, 4.7, 4.8, 7.4).
 * Lists (pictures, tags, categories, main categories) keep the order they were given in through
 * `position`; `normalized_name` is stored, computed when the source does not give it.
 */
export const brandsMigration: Migration = {
  version: 3,
  name: 'brands',
  sql: `
CREATE TABLE brands (
  official_store_id  INTEGER PRIMARY KEY,
  site_id            TEXT NOT NULL,
  name               TEXT NOT NULL,
  normalized_name    TEXT NOT NULL,
  fantasy_name       TEXT NOT NULL,
  type               TEXT NOT NULL,
  status             TEXT NOT NULL,
  relevance_position INTEGER NOT NULL,
  date_created       TEXT NOT NULL,
  last_updated       TEXT NOT NULL,
  -- JSON text of the value; NULL when the store has no return policy.
  return_policy      TEXT,
  landing_permalink  TEXT NOT NULL,
  permalink          TEXT NOT NULL
);
CREATE INDEX brands_by_site ON brands(site_id, official_store_id);
CREATE INDEX brands_by_normalized_name ON brands(site_id, normalized_name);

CREATE TABLE brand_boosts (
  official_store_id INTEGER PRIMARY KEY REFERENCES brands(official_store_id) ON DELETE CASCADE,
  is_active         INTEGER NOT NULL CHECK (is_active IN (0, 1)),
  last_update       TEXT NOT NULL
);

CREATE TABLE brand_pictures (
  official_store_id INTEGER NOT NULL REFERENCES brands(official_store_id) ON DELETE CASCADE,
  position          INTEGER NOT NULL,
  id                INTEGER NOT NULL,
  name              TEXT NOT NULL,
  secure_url        TEXT,
  url               TEXT NOT NULL,
  size              TEXT NOT NULL,
  PRIMARY KEY (official_store_id, position)
) WITHOUT ROWID;

CREATE TABLE brand_tags (
  official_store_id INTEGER NOT NULL REFERENCES brands(official_store_id) ON DELETE CASCADE,
  position          INTEGER NOT NULL,
  tag               TEXT NOT NULL,
  PRIMARY KEY (official_store_id, position)
) WITHOUT ROWID;

CREATE TABLE brand_categories (
  official_store_id INTEGER NOT NULL REFERENCES brands(official_store_id) ON DELETE CASCADE,
  position          INTEGER NOT NULL,
  category_id       TEXT NOT NULL,
  PRIMARY KEY (official_store_id, position)
) WITHOUT ROWID;

CREATE TABLE brand_main_categories (
  official_store_id INTEGER NOT NULL REFERENCES brands(official_store_id) ON DELETE CASCADE,
  position          INTEGER NOT NULL,
  category_id       TEXT NOT NULL,
  PRIMARY KEY (official_store_id, position)
) WITHOUT ROWID;

-- A user linked to an official store: status LINKED in the brand list; tags and user_type as the
-- store reports them (they may differ from the user record).
CREATE TABLE brand_users (
  official_store_id INTEGER NOT NULL REFERENCES brands(official_store_id) ON DELETE CASCADE,
  cust_id           INTEGER NOT NULL REFERENCES users(id),
  site_id           TEXT NOT NULL,
  user_type         TEXT NOT NULL,
  tags              TEXT NOT NULL DEFAULT '[]',
  status            TEXT NOT NULL DEFAULT 'LINKED',
  position          INTEGER NOT NULL,
  PRIMARY KEY (official_store_id, cust_id)
) WITHOUT ROWID;
CREATE INDEX brand_users_by_user ON brand_users(cust_id, site_id, official_store_id);
`,
};

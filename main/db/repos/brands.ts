import type { Db } from '../open.js';

export interface BrandRow {
  official_store_id: number;
  site_id: string;
  name: string;
  normalized_name: string;
  fantasy_name: string;
  type: string;
  status: string;
  relevance_position: number;
  date_created: string;
  last_updated: string;
  /** JSON text, or null. */
  return_policy: string | null;
  landing_permalink: string;
  permalink: string;
  boost_is_active: number | null;
  boost_last_update: string | null;
}

export interface PictureRow {
  id: number;
  name: string;
  secure_url: string | null;
  url: string;
  size: string;
}

export interface BrandUserRow {
  official_store_id: number;
  cust_id: number;
  site_id: string;
  user_type: string;
  /** JSON array text. */
  tags: string;
  status: string;
}

export interface NewBrand {
  official_store_id: number;
  site_id: string;
  name: string;
  normalized_name: string;
  fantasy_name: string;
  type: string;
  status: string;
  relevance_position: number;
  date_created: string;
  last_updated: string;
  return_policy: unknown;
  landing_permalink: string;
  permalink: string;
  tags: string[];
  categories_ids: string[];
  main_categories: { id: string }[];
  boost: { is_active: boolean; last_update: string } | null;
  pictures: PictureRow[];
  users: { cust_id: number; tags: string[]; site_id: string; user_type: string; status?: string }[];
}

const BRAND_COLUMNS = `b.official_store_id, b.site_id, b.name, b.normalized_name, b.fantasy_name, b.type, b.status,
  b.relevance_position, b.date_created, b.last_updated, b.return_policy, b.landing_permalink, b.permalink,
  bb.is_active AS boost_is_active, bb.last_update AS boost_last_update`;

/** Official stores, their lists and their linked users (migration 003). */
export function brandsRepo(db: Db) {
  const byId = db.prepare<[number], BrandRow>(
    `SELECT ${BRAND_COLUMNS} FROM brands b LEFT JOIN brand_boosts bb USING (official_store_id)
      WHERE b.official_store_id = ?`,
  );
  /** Brands the user is linked to on `site`, where the store itself is on that site too. */
  const linkedTo = db.prepare<[number, string], BrandRow & { link_tags: string; link_user_type: string; link_status: string }>(
    `SELECT ${BRAND_COLUMNS}, l.tags AS link_tags, l.user_type AS link_user_type, l.status AS link_status
       FROM brand_users l
       JOIN brands b ON b.official_store_id = l.official_store_id AND b.site_id = l.site_id
       LEFT JOIN brand_boosts bb ON bb.official_store_id = b.official_store_id
      WHERE l.cust_id = ? AND l.site_id = ?
      ORDER BY b.official_store_id`,
  );
  const linkedIds = db.prepare<[number, string], { official_store_id: number }>(
    `SELECT l.official_store_id FROM brand_users l
       JOIN brands b ON b.official_store_id = l.official_store_id AND b.site_id = l.site_id
      WHERE l.cust_id = ? AND l.site_id = ?
      ORDER BY l.official_store_id`,
  );
  const picturesOf = db.prepare<[number], PictureRow>(
    'SELECT id, name, secure_url, url, size FROM brand_pictures WHERE official_store_id = ? ORDER BY position',
  );
  const tagsOf = db.prepare<[number], { tag: string }>('SELECT tag FROM brand_tags WHERE official_store_id = ? ORDER BY position');
  const categoriesOf = db.prepare<[number], { category_id: string }>('SELECT category_id FROM brand_categories WHERE official_store_id = ? ORDER BY position');
  const mainCategoriesOf = db.prepare<[number], { category_id: string }>(
    'SELECT category_id FROM brand_main_categories WHERE official_store_id = ? ORDER BY position',
  );
  const usersOf = db.prepare<[number], BrandUserRow>(
    `SELECT official_store_id, cust_id, site_id, user_type, tags, status FROM brand_users
      WHERE official_store_id = ? ORDER BY position`,
  );

  const insertBrand = db.prepare(
    `INSERT INTO brands (official_store_id, site_id, name, normalized_name, fantasy_name, type, status, relevance_position,
       date_created, last_updated, return_policy, landing_permalink, permalink)
     VALUES (@official_store_id, @site_id, @name, @normalized_name, @fantasy_name, @type, @status, @relevance_position,
       @date_created, @last_updated, @return_policy, @landing_permalink, @permalink)`,
  );
  const insertBoost = db.prepare<[number, number, string]>('INSERT INTO brand_boosts (official_store_id, is_active, last_update) VALUES (?, ?, ?)');
  const insertPicture = db.prepare(
    `INSERT INTO brand_pictures (official_store_id, position, id, name, secure_url, url, size)
     VALUES (@official_store_id, @position, @id, @name, @secure_url, @url, @size)`,
  );
  const insertTag = db.prepare<[number, number, string]>('INSERT INTO brand_tags (official_store_id, position, tag) VALUES (?, ?, ?)');
  const insertCategory = db.prepare<[number, number, string]>('INSERT INTO brand_categories (official_store_id, position, category_id) VALUES (?, ?, ?)');
  const insertMainCategory = db.prepare<[number, number, string]>(
    'INSERT INTO brand_main_categories (official_store_id, position, category_id) VALUES (?, ?, ?)',
  );
  const insertUser = db.prepare(
    `INSERT INTO brand_users (official_store_id, cust_id, site_id, user_type, tags, status, position)
     VALUES (@official_store_id, @cust_id, @site_id, @user_type, @tags, @status, @position)`,
  );

  return {
    byId: (id: number) => byId.get(id),
    linkedTo: (custId: number, siteId: string) => linkedTo.all(custId, siteId),
    linkedIds: (custId: number, siteId: string) => linkedIds.all(custId, siteId).map((r) => r.official_store_id),
    picturesOf: (id: number) => picturesOf.all(id),
    tagsOf: (id: number) => tagsOf.all(id).map((r) => r.tag),
    categoriesOf: (id: number) => categoriesOf.all(id).map((r) => r.category_id),
    mainCategoriesOf: (id: number) => mainCategoriesOf.all(id).map((r) => r.category_id),
    usersOf: (id: number) => usersOf.all(id),

    /** Inserts a brand with all its lists; call inside a transaction. */
    insert(b: NewBrand): void {
      const id = b.official_store_id;
      insertBrand.run({
        official_store_id: id,
        site_id: b.site_id,
        name: b.name,
        normalized_name: b.normalized_name,
        fantasy_name: b.fantasy_name,
        type: b.type,
        status: b.status,
        relevance_position: b.relevance_position,
        date_created: b.date_created,
        last_updated: b.last_updated,
        return_policy: b.return_policy === null || b.return_policy === undefined ? null : JSON.stringify(b.return_policy),
        landing_permalink: b.landing_permalink,
        permalink: b.permalink,
      });
      if (b.boost) insertBoost.run(id, b.boost.is_active ? 1 : 0, b.boost.last_update);
      b.pictures.forEach((p, position) => insertPicture.run({ official_store_id: id, position, ...p }));
      b.tags.forEach((t, position) => insertTag.run(id, position, t));
      b.categories_ids.forEach((c, position) => insertCategory.run(id, position, c));
      b.main_categories.forEach((c, position) => insertMainCategory.run(id, position, c.id));
      b.users.forEach((u, position) =>
        insertUser.run({
          official_store_id: id,
          cust_id: u.cust_id,
          site_id: u.site_id,
          user_type: u.user_type,
          tags: JSON.stringify(u.tags),
          status: u.status ?? 'LINKED',
          position,
        }),
      );
    },
  };
}
export type BrandsRepo = ReturnType<typeof brandsRepo>;

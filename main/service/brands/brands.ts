import type { Db } from '../../db/open.js';
import { anyJsonColumn, stringListColumn, parseColumn } from '../../db/json-columns.js';
import type { BrandRow, BrandsRepo, NewBrand } from '../../db/repos/brands.js';
import type { BrandDetailView, BrandListEntryView, BrandListView, PictureView } from '../../../common/views.js';
import type { UserRow, UsersRepo } from '../../db/repos/users.js';
import type { Principal } from '../auth/auth.js';
import { ServiceError } from '../errors.js';
import type { ListingCheck } from '../stock/items.js';
import { normalizeName } from './normalize.js';

// The shapes of SPEC 2.7 are defined once, in common/views.ts: the HTTP API answers them
// and the screens receive them as they are.
export type Picture = PictureView;
/** Brand, list form (SPEC 2.7), fields in the spec's order. */
export type BrandListEntry = BrandListEntryView;
/** Brand list of a user (SPEC 2.7, 4.7). */
export type BrandList = NonNullable<BrandListView['list']>;
export type BrandUser = BrandDetailView['users'][number];
/** Brand, detail form (SPEC 2.7, 4.8), fields in the spec's order. */
export type BrandDetail = BrandDetailView;

/** SPEC 7.4, in the order the brand calls check them. */
export const brandErrors = {
  invalidUserId: () => new ServiceError(400, 'invalid_parameter', 'The userId must contain only digits'),
  invalidOfficialStoreId: () => new ServiceError(400, 'invalid_parameter', 'The officialStoreId must contain only digits'),
  userNotFound: (rawUserId: string) => new ServiceError(404, 'U00002', `U00002 - The user '${rawUserId}' was not found`),
  noBrands: (rawUserId: string, site: string) => new ServiceError(404, 'B00001', `B00001 - No brands were found for the user '${rawUserId}' on site '${site}'`),
  brandNotFound: (rawOfficialStoreId: string, rawUserId: string, site: string) =>
    new ServiceError(404, 'B00001', `B00001 - The brand '${rawOfficialStoreId}' was not found for the user '${rawUserId}' on site '${site}'`),
  officialStoreRequired: (userId: number, site: string, allowed: number[]) =>
    new ServiceError(
      400,
      'validation_error',
      `The field official_store_id is required: user ${userId} is a brand with more than one official store on site ${site}`,
      [
        {
          code: 'item.official_store_id.invalid',
          message: `official_store_id is required for this seller; allowed official store ids: [${allowed.join(', ')}]`,
        },
      ],
    ),
  officialStoreNotAllowed: (userId: number, site: string, officialStoreId: number) =>
    new ServiceError(
      403,
      'body.invalid_official_store_id',
      `User ${userId} is not allowed to list items in official store ${officialStoreId} on site ${site}`,
      [],
    ),
};

const DIGITS = /^[0-9]+$/;

/**
 * A path id that must hold digits only. Letters (or anything else) → the given 400. A string of
 * digits too long to be an id cannot name anything: null, which the caller answers as not found.
 */
function digitsId(raw: string, invalid: () => ServiceError): number | null {
  if (!DIGITS.test(raw)) throw invalid();
  const n = Number(raw);
  return raw.length > 15 || !Number.isSafeInteger(n) ? null : n;
}

const UTC_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
/** Timestamps of 2.7 are UTC: one given with an offset is converted, one already in UTC is kept as is. */
export const toUtcTimestamp = (s: string): string => (UTC_ISO.test(s) ? s : new Date(s).toISOString());

/** A brand as the fixture file describes it (FIXTURES.md `brands`). */
export type BrandInput = Omit<NewBrand, 'normalized_name' | 'boost'> & {
  normalized_name?: string | undefined;
  boost: { is_active: boolean; last_update: string };
};

/** Stores one brand from a fixture entry: `normalized_name` is computed when absent. */
export function insertBrandFixture(repo: BrandsRepo, b: BrandInput): void {
  repo.insert({
    ...b,
    normalized_name: b.normalized_name ?? normalizeName(b.name),
    date_created: toUtcTimestamp(b.date_created),
    last_updated: toUtcTimestamp(b.last_updated),
    boost: { is_active: b.boost.is_active, last_update: toUtcTimestamp(b.boost.last_update) },
  });
}

/**
 * Brands (official stores), SPEC 4.7, 4.8, and the official-store rules of 7.4 for item listing.
 *
 * Decisions where the spec is silent:
 * - both calls need a valid bearer token (401 otherwise, like every other endpoint); any
 *   authenticated user may read any user's brands: official stores are public store pages;
 * - checks in this order: path ids (400 invalid_parameter), the user (404 U00002), the brand
 *   (404 B00001);
 * - a user's brands are the stores linked to the user on the user's site (a store on another
 *   site does not count), ordered by official_store_id;
 * - a user with no linked brand on the site: 404 B00001 on the list (there is no LINKED status
 *   to report);
 * - the detail of a store that exists but is not linked to that user, or is on another site:
 *   404 B00001 (the path scopes the store to the user);
 * - the list's `user_type` and `tags` describe the user as an official-store user: they come
 *   from the user's links (tags merged over the user's brands, first seen first), like the spec's
 *   example (`large_seller`, `messages_as_seller`, `brand`), not from the user record.
 */
export function brandsService(db: Db, repo: BrandsRepo, users: UsersRepo) {
  const pictures = (id: number) => repo.picturesOf(id);

  function listEntry(b: BrandRow): BrandListEntry {
    const id = b.official_store_id;
    return {
      site_id: b.site_id,
      official_store_id: id,
      name: b.name,
      type: b.type,
      relevance_position: b.relevance_position,
      status: b.status,
      fantasy_name: b.fantasy_name,
      date_created: b.date_created,
      return_policy: b.return_policy === null ? null : parseColumn(anyJsonColumn, b.return_policy, 'brands.return_policy'),
      landing_permalink: b.landing_permalink,
      pictures: pictures(id),
      tags: repo.tagsOf(id),
      categories_ids: repo.categoriesOf(id),
      main_categories: repo.mainCategoriesOf(id).map((c) => ({ id: c })),
      permalink: b.permalink,
      normalized_name: b.normalized_name,
      last_updated: b.last_updated,
    };
  }

  function detail(b: BrandRow): BrandDetail {
    const id = b.official_store_id;
    return {
      tags: repo.tagsOf(id),
      official_store_id: id,
      categories_ids: repo.categoriesOf(id),
      fantasy_name: b.fantasy_name,
      users: repo.usersOf(id).map((u) => ({
        cust_id: u.cust_id,
        tags: parseColumn(stringListColumn, u.tags, 'users.tags'),
        site_id: u.site_id,
        user_type: u.user_type,
      })),
      site_id: b.site_id,
      status: b.status,
      name: b.name,
      date_created: b.date_created,
      pictures: pictures(id),
      boost: { is_active: b.boost_is_active === 1, last_update: b.boost_last_update },
      relevance_position: b.relevance_position,
    };
  }

  function requireUser(rawUserId: string, userId: number | null): UserRow {
    const user = userId === null ? undefined : users.byId(userId);
    if (!user) throw brandErrors.userNotFound(rawUserId);
    return user;
  }

  /** Official stores the seller may list items in: those linked to the seller on the seller's site. */
  const allowedOfficialStores = (seller: { id: number; site_id: string }) => repo.linkedIds(seller.id, seller.site_id);

  /**
   * The official-store rules of SPEC 7.4 for every item listing (POST /items and
   * POST /items/multiwarehouse):
   * - an `official_store_id` the seller is not linked to on the seller's site: 403
   *   `body.invalid_official_store_id` (any seller, brand or not);
   * - no `official_store_id` from a user of type brand linked to more than one official store on
   *   the site: 400 `validation_error`, cause `item.official_store_id.invalid` listing the allowed ids;
   * - no `official_store_id` from a brand user with one official store (or none): accepted, the
   *   item is listed without an official store (the spec requires the field only for multi-brand
   *   stores, 4.8).
   */
  const listingCheck: ListingCheck = (seller, officialStoreId) => {
    const allowed = allowedOfficialStores(seller);
    if (officialStoreId !== undefined) {
      if (!allowed.includes(officialStoreId)) throw brandErrors.officialStoreNotAllowed(seller.id, seller.site_id, officialStoreId);
      return;
    }
    if (seller.user_type === 'brand' && allowed.length > 1) {
      throw brandErrors.officialStoreRequired(seller.id, seller.site_id, allowed);
    }
  };

  return {
    listingCheck,
    allowedOfficialStores,

    /** SPEC 4.7: GET /users/{user_id}/brands. */
    list(_principal: Principal, rawUserId: string): BrandList {
      const userId = digitsId(rawUserId, brandErrors.invalidUserId);
      return db.transaction(() => {
        const user = requireUser(rawUserId, userId);
        const rows = repo.linkedTo(user.id, user.site_id);
        const first = rows[0];
        if (!first) throw brandErrors.noBrands(rawUserId, user.site_id);
        const tags: string[] = [];
        for (const r of rows) for (const t of parseColumn(stringListColumn, r.link_tags, 'brand_users.tags')) if (!tags.includes(t)) tags.push(t);
        return {
          status: first.link_status,
          cust_id: user.id,
          site_id: user.site_id,
          user_type: first.link_user_type,
          brands: rows.map(listEntry),
          tags,
        };
      })();
    },

    /** SPEC 4.8: GET /users/{user_id}/brands/{official_store_id}. */
    get(_principal: Principal, rawUserId: string, rawOfficialStoreId: string): BrandDetail {
      const userId = digitsId(rawUserId, brandErrors.invalidUserId);
      const officialStoreId = digitsId(rawOfficialStoreId, brandErrors.invalidOfficialStoreId);
      return db.transaction(() => {
        const user = requireUser(rawUserId, userId);
        const brand = officialStoreId === null ? undefined : repo.byId(officialStoreId);
        if (!brand || !allowedOfficialStores(user).includes(brand.official_store_id)) {
          throw brandErrors.brandNotFound(rawOfficialStoreId, rawUserId, user.site_id);
        }
        return detail(brand);
      })();
    },
  };
}
export type BrandsService = ReturnType<typeof brandsService>;

import type { Db } from '../open.js';

export interface BrandAccountRow {
  id: number;
  nickname: string;
  first_name: string;
  last_name: string;
  user_type: string | null;
  self: number;
}

/**
 * A user's type: a replica's users come from GET /users/{id}, which does not tell it, so a user
 * linked to an official store as a brand user counts as one.
 */
const TYPE = `CASE WHEN u.user_type = 'brand' OR EXISTS (SELECT 1 FROM brand_users b WHERE b.cust_id = u.id AND b.user_type = 'brand')
  THEN 'brand' ELSE u.user_type END`;

/**
 * The accounts the brands screen offers (issue 15 §4): the seller, the users linked to the
 * seller's official stores, and the brand users known here (the demo data's, or a replica's
 * linked users that the pull mirrored). The seller first, then by nickname.
 */
export function brandAccountsRepo(db: Db) {
  const accounts = db.prepare<[{ me: number }], BrandAccountRow>(
    `SELECT u.id, u.nickname, u.first_name, u.last_name, ${TYPE} AS user_type, (u.id = @me) AS self
       FROM users u
      WHERE u.id = @me
         OR u.user_type = 'brand'
         OR u.id IN (SELECT cust_id FROM brand_users)
      ORDER BY self DESC, u.nickname, u.id`,
  );
  const byIds = db.prepare<[string], BrandAccountRow>(
    `SELECT u.id, u.nickname, u.first_name, u.last_name, ${TYPE} AS user_type, 0 AS self FROM users u
      WHERE u.id IN (SELECT value FROM json_each(?)) ORDER BY u.id`,
  );
  return {
    accountsOf: (me: number) => accounts.all({ me }),
    /** Users by id (the names of a brand's linked users); unknown ids are left out. */
    users: (ids: readonly number[]) => (ids.length === 0 ? [] : byIds.all(JSON.stringify(ids))),
  };
}
export type BrandAccountsRepo = ReturnType<typeof brandAccountsRepo>;

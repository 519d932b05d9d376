import type { UserView } from '../../../common/views.js';
import type { UserRow, UsersRepo } from '../../db/repos/users.js';
import { stringListColumn, parseColumn } from '../../db/json-columns.js';
import type { Principal } from '../auth/auth.js';
import { ServiceError } from '../errors.js';
import { parseUserId } from '../params.js';

/** User record of SPEC 2.1 (partial), plus its site. */
export type User = UserView;

export const toUser = (r: UserRow): User => ({
  id: r.id,
  nickname: r.nickname,
  registration_date: r.registration_date,
  first_name: r.first_name,
  last_name: r.last_name,
  gender: r.gender,
  country_id: r.country_id,
  site_id: r.site_id,
  tags: parseColumn(stringListColumn, r.tags, 'users.tags'),
});

export const userNotFound = (id: number | string) => new ServiceError(404, 'not_found', `The user '${id}' was not found`);

export function usersService(repo: UsersRepo) {
  return {
    /** SPEC 4.1. Any authenticated caller may read the partial (public) user record. */
    get(_principal: Principal, rawId: string): User {
      const id = parseUserId(rawId);
      const row = repo.byId(id);
      if (!row) throw userNotFound(id);
      return toUser(row);
    },

    /** GET /users/me: the record of the token's user, in the shape of SPEC 4.1. */
    me(principal: Principal): User {
      const row = repo.byId(principal.userId);
      if (!row) throw userNotFound(principal.userId);
      return toUser(row);
    },

    /** The caller's own record; it exists because its token does. */
    self(principal: Principal): UserRow {
      const row = repo.byId(principal.userId);
      if (!row) throw userNotFound(principal.userId);
      return row;
    },
  };
}
export type UsersService = ReturnType<typeof usersService>;

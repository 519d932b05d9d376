import type { AuthRepo } from '../../db/repos/auth.js';
import type { Clock } from '../clock.js';
import { ServiceError } from '../errors.js';

/** Who is calling: resolved from the bearer token. */
export interface Principal {
  userId: number;
  applicationId: number;
}

/**
 * Bearer authentication (SPEC 5). Design for the endpoints where the spec names no status:
 * - no `Authorization` header, or not a Bearer one: 401 `unauthorized` "Access token is required";
 * - a token that is unknown or expired: 401 `invalid_token`;
 * - a valid token acting on another user's resource: 403 with the area's error.
 * The message-send path (SPEC 7.6) answers 400 instead, as the spec's table says.
 */
export function authService(repo: AuthRepo, clock: Clock) {
  return {
    /** Extracts the token from an `Authorization` header value; undefined when absent. */
    bearerToken(header: string | undefined): string | undefined {
      if (!header) return undefined;
      const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
      return match?.[1];
    },

    authenticate(token: string | undefined): Principal {
      if (!token) throw new ServiceError(401, 'unauthorized', 'Access token is required');
      const row = repo.tokenByValue(token);
      if (!row) throw new ServiceError(401, 'invalid_token', 'Invalid access token');
      if (row.expires_at !== null && row.expires_at <= clock.now()) {
        throw new ServiceError(401, 'invalid_token', 'Access token expired');
      }
      return { userId: row.user_id, applicationId: row.application_id };
    },

    applicationExists(id: number): boolean {
      return repo.applicationById(id) !== undefined;
    },
  };
}
export type AuthService = ReturnType<typeof authService>;

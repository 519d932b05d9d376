import type { Db } from '../open.js';

export interface CodeRow {
  code_hash: string;
  client_id: number;
  user_id: number;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: string;
  created_at: number;
  expires_at: number;
  used: number;
}

export interface GrantRow {
  id: string;
  client_id: number;
  user_id: number;
  code_hash: string;
  current_refresh_hash: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  revoked_reason: string | null;
}

export interface RefreshTokenRow {
  token_hash: string;
  family_id: string;
  rotated_from: string | null;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
  revoked: number;
}

/** A user as the sign-in page sees it: who, and the stored password hash (null: no password). */
export interface SignInUser {
  id: number;
  password_hash: string | null;
}

/** Server-side OAuth state: codes, grants (refresh-token families), refresh tokens, issued access tokens. */
export function oauthRepo(db: Db) {
  const insertCode = db.prepare<[string, number, number, string, string, number, number]>(
    `INSERT INTO oauth_codes (code_hash, client_id, user_id, redirect_uri, code_challenge, code_challenge_method, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, 'S256', ?, ?)`,
  );
  const codeByHash = db.prepare<[string], CodeRow>('SELECT * FROM oauth_codes WHERE code_hash = ?');
  const markCodeUsed = db.prepare<[string]>('UPDATE oauth_codes SET used = 1 WHERE code_hash = ?');
  // Used codes are kept until they expire so that a replay is recognised (and revokes its grant).
  const deleteExpiredCodes = db.prepare<[number]>('DELETE FROM oauth_codes WHERE expires_at < ?');

  const insertGrant = db.prepare<[string, number, number, string, string, number, number]>(
    `INSERT INTO oauth_grants (id, client_id, user_id, code_hash, current_refresh_hash, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const grantById = db.prepare<[string], GrantRow>('SELECT * FROM oauth_grants WHERE id = ?');
  const grantByCode = db.prepare<[string], GrantRow>('SELECT * FROM oauth_grants WHERE code_hash = ?');
  const advanceGrant = db.prepare<[string, number, string, string]>(
    'UPDATE oauth_grants SET current_refresh_hash = ?, expires_at = ? WHERE id = ? AND current_refresh_hash = ? AND revoked_at IS NULL',
  );
  const revokeGrant = db.prepare<[number, string, string]>('UPDATE oauth_grants SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND revoked_at IS NULL');
  const revokeFamilyTokens = db.prepare<[string]>('UPDATE oauth_refresh_tokens SET revoked = 1 WHERE family_id = ?');
  const deleteFamilyAccessTokens = db.prepare<[string]>('DELETE FROM tokens WHERE grant_id = ?');
  // A family whose newest refresh token expired is over; its rows go (refresh tokens cascade).
  const deleteExpiredGrantTokens = db.prepare<[number]>('DELETE FROM tokens WHERE grant_id IN (SELECT id FROM oauth_grants WHERE expires_at < ?)');
  const deleteExpiredGrants = db.prepare<[number]>('DELETE FROM oauth_grants WHERE expires_at < ?');

  const insertRefresh = db.prepare<[string, string, string | null, number, number]>(
    'INSERT INTO oauth_refresh_tokens (token_hash, family_id, rotated_from, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
  );
  const refreshByHash = db.prepare<[string], RefreshTokenRow>('SELECT * FROM oauth_refresh_tokens WHERE token_hash = ?');
  const markRotated = db.prepare<[number, string]>('UPDATE oauth_refresh_tokens SET rotated_at = ? WHERE token_hash = ?');

  const insertAccessToken = db.prepare<[string, number, number, number, string]>(
    'INSERT INTO tokens (access_token, user_id, application_id, expires_at, grant_id) VALUES (?, ?, ?, ?, ?)',
  );
  // Expired OAuth access tokens are answered "expired" for a day, then forgotten.
  const deleteExpiredAccessTokens = db.prepare<[number]>('DELETE FROM tokens WHERE expires_at IS NOT NULL AND expires_at < ? AND grant_id IS NOT NULL');

  const userById = db.prepare<[number], SignInUser>('SELECT id, password_hash FROM users WHERE id = ?');
  const userByNickname = db.prepare<[string], SignInUser>('SELECT id, password_hash FROM users WHERE nickname = ? COLLATE NOCASE ORDER BY id LIMIT 1');

  return {
    insertCode: (c: { codeHash: string; clientId: number; userId: number; redirectUri: string; challenge: string; createdAt: number; expiresAt: number }) =>
      insertCode.run(c.codeHash, c.clientId, c.userId, c.redirectUri, c.challenge, c.createdAt, c.expiresAt),
    codeByHash: (hash: string) => codeByHash.get(hash),
    markCodeUsed: (hash: string) => markCodeUsed.run(hash),

    insertGrant: (g: { id: string; clientId: number; userId: number; codeHash: string; refreshHash: string; createdAt: number; expiresAt: number }) =>
      insertGrant.run(g.id, g.clientId, g.userId, g.codeHash, g.refreshHash, g.createdAt, g.expiresAt),
    grantById: (id: string) => grantById.get(id),
    grantByCode: (codeHash: string) => grantByCode.get(codeHash),
    /** Moves the family to its new newest token; false when `expectedCurrent` is no longer the newest. */
    advanceGrant: (id: string, expectedCurrent: string, newHash: string, expiresAt: number) =>
      advanceGrant.run(newHash, expiresAt, id, expectedCurrent).changes === 1,
    /** Revokes a family: its refresh tokens stop working and its access tokens are deleted. */
    revokeGrant(id: string, now: number, reason: string): void {
      revokeGrant.run(now, reason, id);
      revokeFamilyTokens.run(id);
      deleteFamilyAccessTokens.run(id);
    },

    insertRefreshToken: (r: { hash: string; familyId: string; rotatedFrom: string | null; createdAt: number; expiresAt: number }) =>
      insertRefresh.run(r.hash, r.familyId, r.rotatedFrom, r.createdAt, r.expiresAt),
    refreshByHash: (hash: string) => refreshByHash.get(hash),
    markRotated: (hash: string, now: number) => markRotated.run(now, hash),

    insertAccessToken: (t: { token: string; userId: number; clientId: number; expiresAt: number; grantId: string }) =>
      insertAccessToken.run(t.token, t.userId, t.clientId, t.expiresAt, t.grantId),

    /** Forgets what can no longer be used; cheap (indexed) and run with each issuance. */
    purgeExpired(now: number): void {
      deleteExpiredCodes.run(now);
      deleteExpiredGrantTokens.run(now);
      deleteExpiredGrants.run(now);
      deleteExpiredAccessTokens.run(now - 24 * 3600 * 1000);
    },

    /** The user a sign-in names: digits are an id first, anything else (or no such id) a nickname, case-insensitive. */
    signInUser(name: string): SignInUser | undefined {
      const byId = /^[0-9]{1,15}$/.test(name) ? userById.get(Number(name)) : undefined;
      return byId ?? userByNickname.get(name);
    },
  };
}
export type OAuthRepo = ReturnType<typeof oauthRepo>;

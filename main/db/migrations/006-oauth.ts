import type { Migration } from './index.js';

/**
 * OAuth 2.0 sign-in (authorization code + PKCE, rotating refresh tokens).
 *
 * Server side (the embedded marketplace service):
 * - `oauth_codes`: authorization codes, stored only as the sha256 of the code; single-use, 10 min.
 * - `oauth_grants`: one row per successful code exchange, the "family" of the refresh tokens that
 *   descend from it. `current_refresh_hash` is the newest refresh token of the family, the only one
 *   that works; presenting an older one (a reuse) revokes the whole family.
 * - `oauth_refresh_tokens`: every refresh token ever issued (sha256 only), with the token it
 *   replaced. `rotated_from` is unique: a token can be rotated once, even by racing requests.
 * - `tokens.grant_id`: issued access tokens live in the existing `tokens` table with an
 *   `expires_at`; `grant_id` links them to their family so that revoking it kills them too.
 *   Fixture tokens have no grant and no expiry.
 *
 * Client side (the desktop app's own credentials for a remote marketplace):
 * - `client_credentials`: one row per profile. Token values are blobs produced by the app's cipher
 *   (the OS keychain through Electron `safeStorage`; a pass-through outside Electron).
 */
export const oauthMigration: Migration = {
  version: 6,
  name: 'oauth',
  sql: `
ALTER TABLE tokens ADD COLUMN grant_id TEXT;
CREATE INDEX tokens_by_grant ON tokens(grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX tokens_by_expiry ON tokens(expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE oauth_codes (
  code_hash             TEXT PRIMARY KEY CHECK (length(code_hash) = 64),
  client_id             INTEGER NOT NULL REFERENCES applications(id),
  user_id               INTEGER NOT NULL REFERENCES users(id),
  redirect_uri          TEXT NOT NULL,
  code_challenge        TEXT NOT NULL,
  code_challenge_method TEXT NOT NULL CHECK (code_challenge_method = 'S256'),
  created_at            INTEGER NOT NULL,
  expires_at            INTEGER NOT NULL,
  used                  INTEGER NOT NULL DEFAULT 0 CHECK (used IN (0, 1))
) WITHOUT ROWID;
CREATE INDEX oauth_codes_by_expiry ON oauth_codes(expires_at);

CREATE TABLE oauth_grants (
  id                   TEXT PRIMARY KEY,
  client_id            INTEGER NOT NULL REFERENCES applications(id),
  user_id              INTEGER NOT NULL REFERENCES users(id),
  code_hash            TEXT NOT NULL UNIQUE,
  current_refresh_hash TEXT NOT NULL,
  created_at           INTEGER NOT NULL,
  expires_at           INTEGER NOT NULL,
  revoked_at           INTEGER,
  revoked_reason       TEXT
) WITHOUT ROWID;
CREATE INDEX oauth_grants_by_expiry ON oauth_grants(expires_at);

CREATE TABLE oauth_refresh_tokens (
  token_hash   TEXT PRIMARY KEY CHECK (length(token_hash) = 64),
  family_id    TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  rotated_from TEXT UNIQUE,
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  rotated_at   INTEGER,
  revoked      INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1))
) WITHOUT ROWID;
CREATE INDEX oauth_refresh_tokens_by_family ON oauth_refresh_tokens(family_id);

CREATE TABLE client_credentials (
  profile           TEXT PRIMARY KEY,
  base_url          TEXT NOT NULL,
  application_id    INTEGER NOT NULL,
  user_id           INTEGER NOT NULL,
  access_token      BLOB NOT NULL,
  access_issued_at  INTEGER NOT NULL,
  access_expires_at INTEGER NOT NULL,
  refresh_token     BLOB NOT NULL,
  scope             TEXT NOT NULL DEFAULT '',
  generation        INTEGER NOT NULL DEFAULT 1,
  updated_at        INTEGER NOT NULL
) WITHOUT ROWID;
`,
};

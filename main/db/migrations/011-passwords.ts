import type { Migration } from './index.js';

/**
 * Sign-in passwords of the marketplace's users (issue 16): only the scrypt hash, in the form
 * `scrypt$N$r$p$salt$hash` (main/service/auth/passwords.ts); the plaintext is never stored. NULL
 * means the user has no password and cannot sign in on the authorization page. The column is never
 * selected by the user endpoints (main/db/repos/users.ts lists its columns).
 */
export const passwordsMigration: Migration = {
  version: 11,
  name: 'passwords',
  sql: `
ALTER TABLE users ADD COLUMN password_hash TEXT CHECK (password_hash IS NULL OR password_hash LIKE 'scrypt$%');
`,
};

import type { Db } from '../open.js';

/** A stored OAuth session (migration 006's `client_credentials`); the tokens are ciphertext. */
export interface CredentialsRow {
  profile: string;
  base_url: string;
  application_id: number;
  user_id: number;
  access_token: Buffer;
  access_issued_at: number;
  access_expires_at: number;
  refresh_token: Buffer;
  scope: string;
  generation: number;
  updated_at: number;
}

/**
 * The credentials database's statements, and its write lock taken without waiting: the store
 * (main/sync/auth/credential-store.ts) holds that lock across a network round-trip, so it polls
 * for it rather than block the event loop in SQLite's busy handler.
 */
export function credentialsRepo(db: Db) {
  const select = db.prepare<[string], CredentialsRow>('SELECT * FROM client_credentials WHERE profile = ?');
  const upsert = db.prepare<[Omit<CredentialsRow, 'generation'>]>(
    `INSERT INTO client_credentials
       (profile, base_url, application_id, user_id, access_token, access_issued_at, access_expires_at, refresh_token, scope, generation, updated_at)
     VALUES (@profile, @base_url, @application_id, @user_id, @access_token, @access_issued_at, @access_expires_at, @refresh_token, @scope, 1, @updated_at)
     ON CONFLICT (profile) DO UPDATE SET
       base_url = excluded.base_url, application_id = excluded.application_id, user_id = excluded.user_id,
       access_token = excluded.access_token, access_issued_at = excluded.access_issued_at,
       access_expires_at = excluded.access_expires_at, refresh_token = excluded.refresh_token,
       scope = excluded.scope, generation = client_credentials.generation + 1, updated_at = excluded.updated_at`,
  );
  const del = db.prepare<[string]>('DELETE FROM client_credentials WHERE profile = ?');
  return {
    get: (profile: string) => select.get(profile),
    upsert: (row: Omit<CredentialsRow, 'generation'>) => void upsert.run(row),
    remove: (profile: string) => void del.run(profile),
    /** BEGIN IMMEDIATE at once: true when the write lock was taken, false when another connection holds it. */
    tryBegin(): boolean {
      db.pragma('busy_timeout = 0');
      try {
        db.exec('BEGIN IMMEDIATE');
        return true;
      } catch (e) {
        if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
        return false;
      } finally {
        db.pragma('busy_timeout = 2000');
      }
    },
    commit: () => db.exec('COMMIT'),
    rollback: () => {
      if (db.inTransaction) db.exec('ROLLBACK');
    },
  };
}
export type CredentialsRepo = ReturnType<typeof credentialsRepo>;

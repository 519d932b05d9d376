import type { Db } from '../open.js';

export interface TokenRow {
  access_token: string;
  user_id: number;
  application_id: number;
  expires_at: number | null;
}

export interface ApplicationRow {
  id: number;
  name: string;
  secret: string | null;
  redirect_uris: string;
}

/** Applications and access tokens (SPEC 5). */
export function authRepo(db: Db) {
  const tokenByValue = db.prepare<[string], TokenRow>(
    'SELECT access_token, user_id, application_id, expires_at FROM tokens WHERE access_token = ?',
  );
  const applicationById = db.prepare<[number], ApplicationRow>(
    'SELECT id, name, secret, redirect_uris FROM applications WHERE id = ?',
  );
  const insertApplication = db.prepare<[number, string, string | null, string]>(
    'INSERT INTO applications (id, name, secret, redirect_uris) VALUES (?, ?, ?, ?)',
  );
  const insertToken = db.prepare<[string, number, number, number | null]>(
    'INSERT INTO tokens (access_token, user_id, application_id, expires_at) VALUES (?, ?, ?, ?)',
  );
  return {
    tokenByValue: (token: string) => tokenByValue.get(token),
    applicationById: (id: number) => applicationById.get(id),
    insertApplication: (a: { id: number; name: string; secret?: string | undefined; redirect_uris?: string[] | undefined }) =>
      insertApplication.run(a.id, a.name, a.secret ?? null, JSON.stringify(a.redirect_uris ?? [])),
    insertToken: (t: { access_token: string; user_id: number; application_id: number; expires_at?: number | null }) =>
      insertToken.run(t.access_token, t.user_id, t.application_id, t.expires_at ?? null),
  };
}
export type AuthRepo = ReturnType<typeof authRepo>;

import type { UserView } from '../../../common/views.js';
import type { Db } from '../open.js';
import { userFolded } from './folded.js';

/** A user as stored: the record, its tags as JSON text, and its type. */
export interface UserRow extends Omit<UserView, 'tags'> {
  user_type: string | null;
  tags: string;
}

export interface NewUser extends UserView {
  user_type?: string | undefined;
}

export function usersRepo(db: Db) {
  const byId = db.prepare<[number], UserRow>(
    `SELECT id, nickname, registration_date, first_name, last_name, gender, country_id, site_id, user_type, tags
       FROM users WHERE id = ?`,
  );
  const nickname = db.prepare<[number], { nickname: string }>('SELECT nickname FROM users WHERE id = ?');
  const insert = db.prepare(
    `INSERT INTO users (id, nickname, registration_date, first_name, last_name, gender, country_id, site_id, user_type, tags,
       nickname_folded, name_folded)
     VALUES (@id, @nickname, @registration_date, @first_name, @last_name, @gender, @country_id, @site_id, @user_type, @tags,
       @nickname_folded, @name_folded)`,
  );
  const setPasswordHash = db.prepare<[string, number]>('UPDATE users SET password_hash = ? WHERE id = ?');
  return {
    byId: (id: number) => byId.get(id),
    /** Stores a password as its scrypt hash (never the plaintext: see main/service/auth/passwords.ts). */
    setPasswordHash: (id: number, hash: string) => setPasswordHash.run(hash, id),
    /** The user's nickname; null for a user this database does not have. */
    nickname: (id: number) => nickname.get(id)?.nickname ?? null,
    insert: (u: NewUser) => insert.run({ ...u, ...userFolded(u), user_type: u.user_type ?? null, tags: JSON.stringify(u.tags) }),
  };
}
export type UsersRepo = ReturnType<typeof usersRepo>;

import type { Db } from '../open.js';

export interface IdempotencyRow {
  user_id: number;
  key: string;
  route: string;
  status: number;
  body: string | null;
  x_version: string | null;
  created_at: number;
}

/** Stored responses of idempotent requests (migration 007). */
export function idempotencyRepo(db: Db) {
  const find = db.prepare<[number, string, number], IdempotencyRow>('SELECT * FROM idempotency_keys WHERE user_id = ? AND key = ? AND created_at > ?');
  // A row that is there but expired (not yet swept) is replaced: the key is free again after 24 h.
  const upsert = db.prepare<[IdempotencyRow]>(
    `INSERT INTO idempotency_keys (user_id, key, route, status, body, x_version, created_at)
     VALUES (@user_id, @key, @route, @status, @body, @x_version, @created_at)
     ON CONFLICT (user_id, key) DO UPDATE SET route = excluded.route, status = excluded.status, body = excluded.body,
       x_version = excluded.x_version, created_at = excluded.created_at`,
  );
  const insertIfAbsent = db.prepare<[IdempotencyRow & { live_after: number }]>(
    `INSERT INTO idempotency_keys (user_id, key, route, status, body, x_version, created_at)
     VALUES (@user_id, @key, @route, @status, @body, @x_version, @created_at)
     ON CONFLICT (user_id, key) DO UPDATE SET route = excluded.route, status = excluded.status, body = excluded.body,
       x_version = excluded.x_version, created_at = excluded.created_at
     WHERE idempotency_keys.created_at <= @live_after`,
  );
  // The table is WITHOUT ROWID: the oldest rows are found through the age index, then deleted by key.
  const oldest = db.prepare<[number, number], { user_id: number; key: string }>(
    'SELECT user_id, key FROM idempotency_keys WHERE created_at <= ? ORDER BY created_at LIMIT ?',
  );
  const deleteOne = db.prepare<[number, string]>('DELETE FROM idempotency_keys WHERE user_id = ? AND key = ?');
  const pendingJobs = db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM jobs WHERE kind = ? AND state IN ('pending', 'running')");

  return {
    /** The live (not expired) stored response for (user, key). */
    find: (userId: number, key: string, liveAfter: number) => find.get(userId, key, liveAfter),
    store: (row: IdempotencyRow) => upsert.run(row),
    /** Stores unless a live row exists; true when this row was written. */
    storeIfAbsent: (row: IdempotencyRow, liveAfter: number) => insertIfAbsent.run({ ...row, live_after: liveAfter }).changes === 1,
    /** Deletes up to `limit` rows created at or before `before`; returns how many. */
    sweep: (before: number, limit: number): number => {
      const rows = oldest.all(before, limit);
      for (const r of rows) deleteOne.run(r.user_id, r.key);
      return rows.length;
    },
    pendingJobs: (kind: string) => pendingJobs.get(kind)!.n,
  };
}
export type IdempotencyRepo = ReturnType<typeof idempotencyRepo>;

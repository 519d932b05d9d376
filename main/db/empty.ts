import type { Db } from './open.js';

/** Whether nothing was ever loaded into the database (no user, no application): fixtures may be. */
export function isEmptyDatabase(db: Db): boolean {
  const row = db.prepare<[], { n: number }>('SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM applications) AS n').get();
  return (row?.n ?? 0) === 0;
}

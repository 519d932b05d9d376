import type { Db } from '../open.js';

export interface JobRow {
  id: number;
  kind: string;
  payload: string;
  state: 'pending' | 'running' | 'done' | 'failed';
  attempts: number;
  run_at: number;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

/** The durable job table (see migration 002). */
export function jobsRepo(db: Db) {
  const insert = db.prepare<[string, string, number, number]>('INSERT INTO jobs (kind, payload, run_at, created_at) VALUES (?, ?, ?, ?)');
  const claimDue = db.prepare<[number], JobRow>(
    `UPDATE jobs SET state = 'running', attempts = attempts + 1
      WHERE id = (SELECT id FROM jobs WHERE state = 'pending' AND run_at <= ? ORDER BY run_at, id LIMIT 1)
      RETURNING *`,
  );
  const markDone = db.prepare<[number, number]>(`UPDATE jobs SET state = 'done', finished_at = ?, last_error = NULL WHERE id = ?`);
  const reschedule = db.prepare<[number, string, number]>(`UPDATE jobs SET state = 'pending', run_at = ?, last_error = ? WHERE id = ?`);
  const markFailed = db.prepare<[string, number, number]>(`UPDATE jobs SET state = 'failed', last_error = ?, finished_at = ? WHERE id = ?`);
  const recoverRunning = db.prepare(`UPDATE jobs SET state = 'pending' WHERE state = 'running'`);
  const nextRunAt = db.prepare<[], { run_at: number | null }>(`SELECT min(run_at) AS run_at FROM jobs WHERE state = 'pending'`);
  const pruneDone = db.prepare<[number]>(`DELETE FROM jobs WHERE state = 'done' AND finished_at < ?`);
  const byState = db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE state = ? ORDER BY id');
  return {
    insert: (kind: string, payload: unknown, runAt: number, now: number) => Number(insert.run(kind, JSON.stringify(payload), runAt, now).lastInsertRowid),
    claimDue: (now: number) => claimDue.get(now),
    markDone: (id: number, now: number) => markDone.run(now, id),
    reschedule: (id: number, runAt: number, error: string) => reschedule.run(runAt, error, id),
    markFailed: (id: number, error: string, now: number) => markFailed.run(error, now, id),
    recoverRunning: () => recoverRunning.run().changes,
    nextRunAt: () => nextRunAt.get()?.run_at ?? null,
    pruneDone: (before: number) => pruneDone.run(before).changes,
    byState: (state: JobRow['state']) => byState.all(state),
  };
}
export type JobsRepo = ReturnType<typeof jobsRepo>;

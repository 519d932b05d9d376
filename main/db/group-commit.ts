import type { Db } from './open.js';

interface Pending {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit. Every acknowledged write is fsynced (synchronous=FULL), and an fsync costs far
 * more than the write itself; so the writes that arrive within one turn of the event loop share one
 * transaction and one fsync. Each write runs in its own savepoint, in arrival order, so one that
 * fails (a 409, a 400) rolls back alone; every caller is answered only after the commit.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly db: Db) {}

  run<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    const results: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.db
        .transaction(() => {
          for (const op of batch) {
            try {
              // A nested better-sqlite3 transaction is a SAVEPOINT: a throw undoes only this op.
              results.push({ ok: true, value: this.db.transaction(op.fn)() });
            } catch (error) {
              results.push({ ok: false, error });
            }
          }
        })
        .immediate();
    } catch (error) {
      // The commit itself failed (disk full, I/O error): nothing of the batch was saved.
      for (const op of batch) op.reject(error);
      return;
    }
    batch.forEach((op, i) => {
      const r = results[i]!;
      if (r.ok) op.resolve(r.value);
      else op.reject(r.error);
    });
  }
}

import { close, fdatasync, open } from 'node:fs';
import type { Db } from './open.js';

/** fdatasync calls running at once (libuv's thread pool has 4 threads by default). */
const MAX_SYNCS = 2;

interface Pending {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Waiter {
  /** The commit this waiter needs on disk. */
  seq: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitOptions {
  /**
   * Makes every commit made before the call durable. By default an fdatasync of the database's
   * WAL file on libuv's thread pool; a seam for tests of the ordering, never needed by the app.
   */
  sync?: () => Promise<void>;
}

/**
 * Group commit with the fsync off the event loop (under load).
 *
 * Writes that arrive within one turn of the event loop share one transaction, each in its own
 * savepoint, in arrival order, so one that fails (a 409, a 400) rolls back alone. The transaction
 * commits without an fsync (synchronous=NORMAL for it alone: the WAL frames are written, not
 * flushed); then one fdatasync of the WAL file runs on the thread pool, and every caller is
 * answered only once the fdatasync that started after its commit has finished. Meanwhile the event
 * loop keeps parsing requests and committing the next batch, which the next fdatasync covers.
 *
 * Why this is as durable as synchronous=FULL for what is acknowledged: a WAL commit is its frames
 * in the -wal file; fdatasync of that file puts every frame written before it on disk (header
 * included after a WAL restart), and SQLite itself syncs the WAL before any checkpoint copies it.
 *
 * The one difference: a commit is visible to other readers before it is durable. `durable()` is
 * the barrier for that: an adapter awaits it before answering anything (main/http/app.ts), so no
 * response, read or write, can tell a client about a change a power cut could still undo.
 *
 * Every flush runs off the event loop, a write that comes alone too. Committing it with the
 * connection's own synchronous=FULL would save one trip to the thread pool (about 35 µs here) but
 * block the loop for the whole fsync: under load every other request waits for it (10% fewer PUTs
 * per second in `npm run bench`), and in the app the screens' reads wait for it (a flush on Windows
 * can take tens of milliseconds).
 *
 * An fdatasync that fails leaves the page cache in an unknown state (a later one may succeed
 * without the lost pages): every waiting and every later write is refused with that error, until
 * the process restarts and SQLite recovers from what is on disk.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;
  private committed = 0;
  private durableSeq = 0;
  /** The newest commit an fdatasync has been started for. */
  private requested = 0;
  private inFlight = 0;
  private waiters: Waiter[] = [];
  private broken: unknown = null;
  private closed = false;
  private walFd: number | null = null;
  private readonly sql;
  private readonly sync: () => Promise<void>;

  constructor(
    private readonly db: Db,
    options: GroupCommitOptions = {},
  ) {
    const durable = db.pragma('synchronous', { simple: true }) as number;
    this.sql = {
      relaxed: db.prepare('PRAGMA synchronous = NORMAL'),
      restore: db.prepare(`PRAGMA synchronous = ${durable}`),
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      savepoint: db.prepare('SAVEPOINT group_commit_op'),
      release: db.prepare('RELEASE group_commit_op'),
      rollbackTo: db.prepare('ROLLBACK TO group_commit_op'),
    };
    // An in-memory database has nothing to flush; a connection opened with synchronous=NORMAL or
    // OFF asked for no flush per commit, and gets none here either.
    const file = db.memory || db.name === '' ? null : `${db.name}-wal`;
    this.sync = options.sync ?? (file === null || durable < 2 ? () => Promise.resolve() : () => this.syncWal(file));
  }

  run<T>(fn: () => T): Promise<T> {
    if (this.broken !== null) return Promise.reject(this.broken as Error);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Whether every commit made so far is on disk (a cheap check before awaiting `durable()`). */
  get settled(): boolean {
    return this.durableSeq >= this.committed;
  }

  /** Resolves once every commit made so far (by this group) is on disk; at once when all are. */
  durable(): Promise<void> {
    if (this.broken !== null) return Promise.reject(this.broken as Error);
    if (this.durableSeq >= this.committed) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ seq: this.committed, resolve, reject });
      this.kick();
    });
  }

  /** Waits for the pending flushes and closes the WAL file handle (the caller closes the database). */
  async close(): Promise<void> {
    await this.durable().catch(() => undefined);
    this.closed = true;
    if (this.walFd !== null) {
      const fd = this.walFd;
      this.walFd = null;
      await new Promise<void>((resolve) => close(fd, () => resolve()));
    }
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (this.broken !== null) {
      for (const op of batch) op.reject(this.broken);
      return;
    }
    const results: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    const sql = this.sql;
    sql.relaxed.run();
    try {
      sql.begin.run();
      try {
        for (const op of batch) {
          // Each op in its own savepoint: a throw undoes only this op. Plain prepared statements:
          // a nested db.transaction() wrapper costs several times more, on every request.
          sql.savepoint.run();
          try {
            const value = op.fn();
            sql.release.run();
            results.push({ ok: true, value });
          } catch (error) {
            // SQLite rolled the whole transaction back itself (disk full, I/O error): the batch is lost.
            if (!this.db.inTransaction) throw error;
            sql.rollbackTo.run();
            sql.release.run();
            results.push({ ok: false, error });
          }
        }
        sql.commit.run();
      } catch (error) {
        if (this.db.inTransaction) sql.rollback.run();
        throw error;
      }
    } catch (error) {
      // The commit itself failed (disk full, I/O error): nothing of the batch was saved.
      for (const op of batch) op.reject(error);
      return;
    } finally {
      sql.restore.run();
    }
    // Every answer waits for the flush, a refusal too: a 409 is also news about the data.
    const seq = ++this.committed;
    batch.forEach((op, i) => {
      const r = results[i]!;
      this.waiters.push({
        seq,
        resolve: r.ok ? () => op.resolve(r.value) : () => op.reject(r.error),
        reject: op.reject,
      });
    });
    this.kick();
  }

  /**
   * Starts an fdatasync for the commits no running one covers. Up to MAX_SYNCS run at once: a
   * batch committed while one is running gets its own at once instead of waiting for that one to
   * end first. Any fdatasync that ends covers every commit made before it started.
   */
  private kick(): void {
    if (this.broken !== null || this.inFlight >= MAX_SYNCS) return;
    if (this.requested >= this.committed) return;
    const target = this.committed;
    this.requested = target;
    this.inFlight++;
    this.sync().then(
      () => {
        this.inFlight--;
        if (target > this.durableSeq) {
          this.durableSeq = target;
          const ready = this.waiters.filter((w) => w.seq <= target);
          this.waiters = this.waiters.filter((w) => w.seq > target);
          for (const w of ready) w.resolve();
        }
        this.kick();
      },
      (error: unknown) => {
        this.inFlight--;
        this.broken = error;
        const all = this.waiters;
        this.waiters = [];
        for (const w of all) w.reject(error);
      },
    );
  }

  private async syncWal(file: string): Promise<void> {
    if (this.closed) throw new Error('GroupCommit is closed');
    // Opened once, after the first commit (the WAL exists by then). SQLite never deletes the WAL
    // while a connection (this one) is open. r+: Windows flushes only a handle open for writing.
    this.walFd ??= await new Promise<number>((resolve, reject) => open(file, 'r+', (e, fd) => (e ? reject(e) : resolve(fd))));
    const fd = this.walFd;
    await new Promise<void>((resolve, reject) => fdatasync(fd, (e) => (e ? reject(e) : resolve())));
  }
}

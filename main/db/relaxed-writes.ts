import { open } from 'node:fs/promises';
import type { Db } from './open.js';

/** Where the engine's bookkeeping goes. */
export interface Writes {
  /** Runs `fn` in its own write transaction, now; resolves with its result once committed. */
  run<T>(fn: () => T): Promise<T>;
  /** The same, synchronously. */
  runNow<T>(fn: () => T): T;
  /** Puts every commit made so far on disk, before a request that must not be forgotten goes out. */
  durable(): Promise<void>;
}

/**
 * Transactions for the sync engine's own bookkeeping (claims, requests on the wire, outcomes,
 * mirror updates, pulls), committed WITHOUT an fsync: synchronous=NORMAL for that transaction
 * only. WAL mode keeps each one atomic and safe from a process crash (kill -9); they run at once
 * (no waiting for a batch), so an entry goes from its answer to the next request without a
 * detour through the event loop.
 *
 * Why that is enough: everything written here can be lost to a power cut without losing or
 * doubling an edit. A lost claim or outcome puts the entry back to pending; its resend carries
 * the same idempotency key, so the remote replays what it already applied; a lost mirror update
 * comes back with the next answer or pull. What the person typed (the queue calls, conflict
 * resolutions, retry, discard) is committed by the outbox with the connection's own setting
 * (synchronous=FULL), and that commit makes every earlier frame of the WAL durable too.
 */
export class RelaxedWrites implements Writes {
  private readonly relaxed;
  private readonly restore;

  constructor(private readonly db: Db) {
    const durable = db.pragma('synchronous', { simple: true }) as number;
    this.relaxed = db.prepare('PRAGMA synchronous = NORMAL');
    this.restore = db.prepare(`PRAGMA synchronous = ${durable}`);
  }

  runNow<T>(fn: () => T): T {
    if (!this.db.open) throw new Error('The database is closed');
    // Inside a caller's transaction: a savepoint of it, with its durability.
    if (this.db.inTransaction) return this.db.transaction(fn)();
    this.relaxed.run();
    try {
      return this.db.transaction(fn).immediate();
    } finally {
      this.restore.run();
    }
  }

  /**
   * An fdatasync of the WAL: every frame written before it is on disk. Used before a request goes
   * out under a fresh idempotency key: forgetting that key in a power cut would send the same
   * change again under another key.
   */
  async durable(): Promise<void> {
    if (!this.db.open || this.db.memory) return;
    let fh;
    try {
      fh = await open(`${this.db.name}-wal`, 'r+');
    } catch (e) {
      // No WAL file: nothing is waiting in it.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    try {
      await fh.datasync();
    } finally {
      await fh.close();
    }
  }

  run<T>(fn: () => T): Promise<T> {
    try {
      return Promise.resolve(this.runNow(fn));
    } catch (e) {
      return Promise.reject(e as Error);
    }
  }
}

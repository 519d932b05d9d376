import type { z } from 'zod';
import type { Db } from '../../db/open.js';
import { jobsRepo, type JobRow } from '../../db/repos/jobs.js';
import type { Clock } from '../clock.js';

/**
 * A job kind: its payload schema (the stored JSON is parsed with it before running, so a payload
 * written by an older version or corrupted on disk fails loudly instead of running half-parsed)
 * and its handler. Handlers must be idempotent: a crash after the work and before "done" runs it again.
 */
export interface JobKind<S extends z.ZodType = z.ZodType> {
  kind: string;
  schema: S;
  run: (payload: z.infer<S>) => void | Promise<void>;
  /** Attempts before the job is marked failed (default 8). */
  maxAttempts?: number;
}

export interface JobRunnerOptions {
  clock: Clock;
  /** How often to look for delayed jobs when nothing woke the runner (ms). */
  pollMs?: number;
  /** Base of the exponential backoff between attempts (ms). */
  backoffMs?: number;
  onError?: (job: JobRow, error: unknown) => void;
}

/** In-process runner over the durable `jobs` table: one job at a time, woken on enqueue. */
export class JobRunner {
  private readonly repo;
  private readonly kinds = new Map<
    string,
    { maxAttempts: number; parse: (payload: unknown) => { ok: true; run: () => void | Promise<void> } | { ok: false; error: string } }
  >();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = true;
  private current: Promise<void> = Promise.resolve();
  private readonly pollMs: number;
  private readonly backoffMs: number;

  constructor(
    db: Db,
    private readonly options: JobRunnerOptions,
  ) {
    this.repo = jobsRepo(db);
    this.pollMs = options.pollMs ?? 1000;
    this.backoffMs = options.backoffMs ?? 500;
  }

  register<S extends z.ZodType>(kind: JobKind<S>): void {
    // Kept as a closure over its own schema: the payload is parsed and run by the same kind's types.
    this.kinds.set(kind.kind, {
      maxAttempts: kind.maxAttempts ?? 8,
      parse: (payload) => {
        const parsed = kind.schema.safeParse(payload);
        return parsed.success ? { ok: true, run: () => kind.run(parsed.data) } : { ok: false, error: parsed.error.message };
      },
    });
  }

  /** Call inside the transaction of the change the job belongs to. */
  enqueue(kind: string, payload: unknown, delayMs = 0): number {
    const now = this.options.clock.now();
    const id = this.repo.insert(kind, payload, now + delayMs, now);
    // Wake after the surrounding transaction commits, never inside it.
    if (!this.stopped) setImmediate(() => this.kick());
    return id;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    // A job left "running" by a crash runs again: handlers are idempotent.
    this.repo.recoverRunning();
    this.repo.pruneDone(this.options.clock.now() - 7 * 24 * 3600_000);
    this.kick();
  }

  /** Stops taking new jobs and waits for the one in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.current;
  }

  /**
   * Runs every job that is due now, then resolves (tests, and shutdown flushes). A background loop
   * that a timer starts meanwhile is waited for too, so "drained" means no due job is left and none
   * is still running.
   */
  async drain(): Promise<void> {
    for (;;) {
      if (this.running) {
        await this.current;
        continue;
      }
      const ran = await this.runOne();
      if (!ran && !this.running) return;
    }
  }

  private kick(): void {
    if (this.stopped || this.running) return;
    this.running = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.current = this.loop().finally(() => {
      this.running = false;
      this.schedule();
    });
  }

  private async loop(): Promise<void> {
    while (!this.stopped && (await this.runOne()));
  }

  private schedule(): void {
    if (this.stopped) return;
    const next = this.repo.nextRunAt();
    const wait = next === null ? this.pollMs : Math.max(0, Math.min(this.pollMs, next - this.options.clock.now()));
    this.timer = setTimeout(() => this.kick(), wait);
    this.timer.unref();
  }

  private async runOne(): Promise<boolean> {
    const job = this.repo.claimDue(this.options.clock.now());
    if (!job) return false;
    const kind = this.kinds.get(job.kind);
    if (!kind) {
      this.repo.markFailed(job.id, `unknown job kind ${job.kind}`, this.options.clock.now());
      return true;
    }
    const parsed = kind.parse(JSON.parse(job.payload));
    if (!parsed.ok) {
      this.repo.markFailed(job.id, `invalid payload: ${parsed.error}`, this.options.clock.now());
      return true;
    }
    try {
      await parsed.run();
      this.repo.markDone(job.id, this.options.clock.now());
    } catch (error) {
      this.options.onError?.(job, error);
      const message = error instanceof Error ? error.message : String(error);
      if (job.attempts >= kind.maxAttempts) {
        this.repo.markFailed(job.id, message, this.options.clock.now());
      } else {
        // Exponential backoff with equal jitter: never immediate, never in lock-step.
        const base = this.backoffMs * 2 ** (job.attempts - 1);
        const delay = Math.max(1, Math.round(base / 2 + (Math.random() * base) / 2));
        this.repo.reschedule(job.id, this.options.clock.now() + delay, message);
      }
    }
    return true;
  }
}

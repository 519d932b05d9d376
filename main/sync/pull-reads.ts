import type { z } from 'zod';
import type { PullPhase, PullProgressView } from '../../common/views.js';
import type { Writes } from '../db/relaxed-writes.js';
import type { Clock } from '../service/clock.js';
import { type RemoteClient, RemoteError, type RemoteResponse, TOO_LARGE, classifyStatus, parseRetryAfter, serverMessage } from './client.js';
import type { Outbox } from './outbox.js';
import { DEFAULT_LISTING_LIMITS, type ListingLimits, PullError } from './paging.js';
import { BadAnswerError, parseAnswer, userAnswer } from './remote-answers.js';
import { type RetryPolicy, backoffDelay } from './retry.js';

/**
 * What every part of a pull reads with (pull.ts, pull-items.ts, pull-stock.ts, pull-sales.ts): a
 * GET repeated on transient failures, a 200 parsed with its schema, the users other rows point at,
 * and a step's progress. Reads are safe to repeat; anything else ends the pull before it writes
 * what it read.
 */

/**
 * Runs `fn` over `items` with at most `limit` at a time, in order of start. The first failure
 * rejects, and no item starts after it (a pull that failed does not go on reading the catalogue).
 */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length || failed) return;
      try {
        out[i] = await fn(items[i]!);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/** Counts one step of a pull and tells its progress, at most once per percent (a 100,000-product catalogue is 100 events, not 100,000). */
export class StepProgress {
  private done = 0;
  private total = 0;
  private told = -1;

  constructor(
    private readonly phase: PullPhase,
    private readonly plan: readonly PullPhase[],
    private readonly tell: ((p: PullProgressView) => void) | undefined,
  ) {
    this.emit(true);
  }

  setTotal(total: number): void {
    if (total === this.total) return;
    this.total = total;
    this.emit(true);
  }

  add(n = 1): void {
    this.done += n;
    this.emit(this.done >= this.total);
  }

  finish(): void {
    this.total = Math.max(this.total, this.done);
    this.done = this.total;
    this.emit(true);
  }

  private emit(always: boolean): void {
    if (!this.tell) return;
    const percent = this.total === 0 ? 0 : Math.floor((this.done * 100) / this.total);
    if (!always && percent === this.told) return;
    this.told = percent;
    this.tell({ phase: this.phase, step: this.plan.indexOf(this.phase) + 1, steps: this.plan.length, done: this.done, total: this.total });
  }
}

export interface PullReadOptions {
  sellerId: number;
  concurrency: number;
  /** Backoff between the attempts of one GET (reads are safe to repeat). */
  retry: RetryPolicy;
  /** Attempts of one GET before the pull gives up (default 5). */
  getAttempts?: number;
  random?: () => number;
  /** How far a pull is: at each step's start and end, and about every 1% of a step in between. */
  onProgress?: (progress: PullProgressView) => void;
  /** The most entries a pull reads of each listing (paging.ts; defaults far above a real seller). */
  listingLimits?: Partial<ListingLimits>;
}

export class PullReads {
  /** The steps the running pull tells (set at each pull's start). */
  plan: readonly PullPhase[] = [];

  constructor(
    readonly outbox: Outbox,
    readonly client: RemoteClient,
    readonly writes: Writes,
    readonly clock: Clock,
    readonly options: PullReadOptions,
  ) {}

  get limits(): ListingLimits {
    return { ...DEFAULT_LISTING_LIMITS, ...this.options.listingLimits };
  }

  step(phase: PullPhase): StepProgress {
    return new StepProgress(phase, this.plan, this.options.onProgress);
  }

  /** Waits before attempt `attempt + 1` of a read; false when the pull should give up. */
  async pause(attempt: number, retryAfterMs: number | undefined, signal?: AbortSignal): Promise<boolean> {
    if (attempt >= (this.options.getAttempts ?? 5) || signal?.aborted) return false;
    await sleep(backoffDelay(attempt, this.options.retry, this.options.random, retryAfterMs), signal);
    return !signal?.aborted;
  }

  /** A GET, repeated on transient failures (reads are safe to repeat); offline ends the pull at once. */
  async get(path: string, query: Record<string, string | number | undefined> = {}, signal?: AbortSignal): Promise<RemoteResponse> {
    for (let attempt = 1; ; attempt++) {
      let res: RemoteResponse;
      try {
        res = await this.client.request('GET', path, { query, ...(signal ? { signal } : {}) });
      } catch (e) {
        if (!(e instanceof RemoteError)) throw e;
        // An answer over the size cap will be as large again: not worth another attempt.
        if (e.kind === 'transient' && e.code !== TOO_LARGE && (await this.pause(attempt, undefined, signal))) continue;
        throw new PullError(`GET ${path}: ${e.message}`, e.kind === 'offline', null);
      }
      if (classifyStatus(res.status) === 'transient' && (await this.pause(attempt, parseRetryAfter(res.headers['retry-after'], this.clock.now()), signal)))
        continue;
      return res;
    }
  }

  /** A 200 answer parsed with `schema`; anything else ends the pull before it writes what it read. */
  async getOk<S extends z.ZodType>(
    path: string,
    schema: S,
    query: Record<string, string | number | undefined> = {},
    signal?: AbortSignal,
  ): Promise<z.infer<S>> {
    const res = await this.get(path, query, signal);
    if (res.status === 200 && res.body === null) throw new PullError(`GET ${path}: the marketplace's answer is not JSON (empty, cut or malformed)`, false, 200);
    if (res.status !== 200) throw new PullError(`GET ${path}: ${serverMessage(res)}`, false, res.status);
    return this.parse(schema, res.body, path);
  }

  parse<S extends z.ZodType>(schema: S, body: unknown, path: string): z.infer<S> {
    try {
      return parseAnswer(schema, body, `GET ${path}`);
    } catch (e) {
      if (e instanceof BadAnswerError) throw new PullError(e.message, false, 200);
      throw e;
    }
  }

  /** Makes sure users exist in the mirror (foreign keys of orders, messages, brand links). */
  async ensureUsers(ids: number[], signal?: AbortSignal): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.outbox.mirror.userExists(id));
    const users = await mapLimit(missing, this.options.concurrency, (id) => this.getOk(`/users/${id}`, userAnswer, {}, signal));
    if (users.length > 0) await this.writes.run(() => users.forEach((u) => this.outbox.mirror.upsertUser(u)));
  }
}

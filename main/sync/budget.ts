import type { Clock } from '../service/clock.js';

/**
 * The client's request budget (issue 29): the marketplace allows each application about 100
 * user-product stock requests a minute and 500 messaging reads and 500 writes, and answers 429
 * beyond that. One token bucket per resource, shared by push and pull, spends it on purpose:
 * pushes (what the person typed) before background reads, never faster than the rate, so the app
 * causes no 429 of its own; a 429 that comes anyway (another install of the same application)
 * shrinks the rate and pauses the resource until Retry-After.
 */

/** The limited resources, as the marketplace (and the double, main/http/rate-limit.ts) counts them. */
export const BUDGET_RESOURCES = ['stock', 'messages-read', 'messages-write'] as const;
export type BudgetResource = (typeof BUDGET_RESOURCES)[number];
export type BudgetPriority = 'push' | 'pull';

export interface RequestBudget {
  /** Resolves when one request of `resource` may go; pushes waiting go before any pull. Rejects with the signal's reason. */
  acquire(resource: BudgetResource, priority: BudgetPriority, signal?: AbortSignal): Promise<void>;
  /**
   * Spends one request of `resource` now when the bucket has it and nobody waits ahead; false:
   * wait in `acquire`. The common case of a flush within the limits then costs no promise or timer.
   */
  take(resource: BudgetResource): boolean;
  /** A 429 came: the rate shrinks and nothing of `resource` goes before Retry-After (null: none given). */
  throttled(resource: BudgetResource, retryAfterMs: number | null): void;
  /** Requests a minute allowed now (Infinity when unlimited), for estimates. */
  perMinute(resource: BudgetResource): number;
}

/** Requests a minute per resource; 'unlimited' for tests and the bench's floors. */
export type BudgetRates = Partial<Record<BudgetResource, number | 'unlimited'>>;

/** The marketplace's documented limits per application. */
export const DEFAULT_BUDGET: Readonly<Record<BudgetResource, number>> = { stock: 100, 'messages-read': 500, 'messages-write': 500 };

/** No limit at all (tests, the bench's floors). */
export const UNLIMITED_BUDGET: BudgetRates = { stock: 'unlimited', 'messages-read': 'unlimited', 'messages-write': 'unlimited' };

/**
 * Which budget a request spends, by the same rules as the double's resourceOf (on the concrete
 * path instead of the route pattern): user-product stock reads and PUTs, messaging reads and
 * writes; null for the rest.
 */
export function budgetResourceOf(method: string, path: string): BudgetResource | null {
  const p = path.split('?')[0]!;
  if (p.startsWith('/user-products/') && (p.endsWith('/stock') || p.includes('/stock/type/'))) return 'stock';
  if (p.startsWith('/messages/')) return method === 'GET' || method === 'HEAD' ? 'messages-read' : 'messages-write';
  return null;
}

export interface BudgetOptions {
  /** Requests a minute per resource (DEFAULT_BUDGET for those not given). */
  rates?: BudgetRates;
  clock: Clock;
  /**
   * Seconds of requests a bucket holds as a burst (default 60, a minute's worth, as the
   * marketplace's own bucket): up to the limit goes at once, a flood then goes at the rate.
   */
  burstSeconds?: number;
  /**
   * The part of the burst kept back (default 0.1): the marketplace counts requests when they
   * arrive, so a request delayed on the way and the next one not would meet an empty bucket
   * there; a tenth of it covers seconds of jitter at 100 a minute.
   */
  headroom?: number;
}

interface Waiter {
  resolve: () => void;
  reject: (e: unknown) => void;
  unlisten: () => void;
}

/** After a 429 the rate is multiplied by this, and grows back by RECOVER of the configured rate each quiet minute. */
const SHRINK = 0.7;
const RECOVER = 0.1;
/** Never below one request a minute, so a resource is never stuck. */
const FLOOR_PER_MINUTE = 1;
/** The pause after a 429 without Retry-After. */
const DEFAULT_PAUSE_MS = 1000;

/** One resource's bucket: fractional tokens refilled at `rate` a minute, waiters pushes first. */
class Bucket {
  private tokens: number;
  private at: number;
  private rate: number;
  private pausedUntil = 0;
  private lastThrottleAt = -Infinity;
  private readonly pushes: Waiter[] = [];
  private readonly pulls: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;

  constructor(
    private readonly configured: number,
    private readonly burstSeconds: number,
    private readonly headroom: number,
    private readonly clock: Clock,
  ) {
    this.rate = configured;
    this.tokens = this.capacity();
    this.at = clock.now();
  }

  get perMinute(): number {
    return this.rate;
  }

  private capacity(): number {
    return Math.max(1, ((this.rate * this.burstSeconds) / 60) * (1 - this.headroom));
  }

  take(): boolean {
    // Waiters go first (pushes before pulls): a request that did not wait never overtakes one that does.
    if (this.pushes.length + this.pulls.length > 0) return false;
    const now = this.clock.now();
    if (now < this.pausedUntil) return false;
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  acquire(priority: BudgetPriority, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const queue = priority === 'push' ? this.pushes : this.pulls;
      const onAbort = () => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        reject(signal!.reason);
        this.grant();
      };
      const waiter: Waiter = { resolve, reject, unlisten: () => signal?.removeEventListener('abort', onAbort) };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
      this.grant();
    });
  }

  throttled(retryAfterMs: number | null): void {
    const now = this.clock.now();
    this.refill(now);
    this.rate = Math.max(FLOOR_PER_MINUTE, this.rate * SHRINK);
    this.lastThrottleAt = now;
    // The remote's bucket is empty: nothing goes before it said, then one request, then the rate.
    this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(0, retryAfterMs ?? DEFAULT_PAUSE_MS));
    this.tokens = 1;
    this.at = this.pausedUntil;
    this.grant();
  }

  /** Gives tokens to the waiters (pushes first) and arms one timer for the next. */
  grant(): void {
    const now = this.clock.now();
    this.refill(now);
    while (this.pushes.length + this.pulls.length > 0 && now >= this.pausedUntil && this.tokens >= 1) {
      this.tokens -= 1;
      const w = this.pushes.shift() ?? this.pulls.shift()!;
      w.unlisten();
      w.resolve();
    }
    if (this.pushes.length + this.pulls.length === 0) return this.disarm();
    const at = Math.max(this.pausedUntil, now + ((1 - this.tokens) * 60_000) / this.rate);
    this.arm(Math.ceil(at), now);
  }

  private refill(now: number): void {
    // Quiet minutes since the last 429 give the rate back a step at a time.
    if (this.rate < this.configured && now - this.lastThrottleAt >= 60_000) {
      const minutes = Math.floor((now - this.lastThrottleAt) / 60_000);
      this.rate = Math.min(this.configured, this.rate + this.configured * RECOVER * minutes);
      this.lastThrottleAt += minutes * 60_000;
    }
    // A clock set back refills nothing.
    const elapsed = Math.max(0, now - this.at);
    this.tokens = Math.min(this.capacity(), this.tokens + (elapsed * this.rate) / 60_000);
    this.at = Math.max(this.at, now);
  }

  private arm(at: number, now: number): void {
    if (this.timer && this.timerAt <= at) return;
    this.disarm();
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Infinity;
        this.grant();
      },
      Math.max(0, at - now),
    );
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }
}

/** The token buckets of one application (every engine of the same application should share one). */
export class TokenBudget implements RequestBudget {
  private readonly buckets = new Map<BudgetResource, Bucket>();

  constructor(options: BudgetOptions) {
    for (const r of BUDGET_RESOURCES) {
      const rate = options.rates?.[r] ?? DEFAULT_BUDGET[r];
      if (rate === 'unlimited') continue;
      if (!(rate > 0) || !Number.isFinite(rate))
        throw new Error(`request budget: ${r} must be a positive number of requests a minute or 'unlimited', got ${rate}`);
      this.buckets.set(r, new Bucket(rate, options.burstSeconds ?? 60, options.headroom ?? 0.1, options.clock));
    }
  }

  acquire(resource: BudgetResource, priority: BudgetPriority, signal?: AbortSignal): Promise<void> {
    const b = this.buckets.get(resource);
    if (b) return b.acquire(priority, signal);
    return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  }

  take(resource: BudgetResource): boolean {
    return this.buckets.get(resource)?.take() ?? true;
  }

  throttled(resource: BudgetResource, retryAfterMs: number | null): void {
    this.buckets.get(resource)?.throttled(retryAfterMs);
  }

  perMinute(resource: BudgetResource): number {
    return this.buckets.get(resource)?.perMinute ?? Infinity;
  }

  /** Grants what the clock allows now (a test that moved its fake clock calls this; timers do it otherwise). */
  tick(): void {
    for (const b of this.buckets.values()) b.grant();
  }
}

import type { Clock } from '../service/clock.js';
import type { RemoteClient } from './client.js';
import type { RetryPolicy } from './retry.js';

export type ReachPolicy = Pick<RetryPolicy, 'offlineProbeMinMs' | 'offlineProbeMaxMs' | 'stallMs'>;

export interface ConnectivityHooks {
  /** One probe with its own short deadline: true when the remote answered anything (any status). */
  reach: () => Promise<boolean>;
  /** How long requests have been out with nothing heard from the remote (0: none out). */
  silentForMs: () => number;
  /** Whether probing should go on (the engine runs). */
  active: () => boolean;
  /** The remote was found unreachable: stop sending, cut what is out. */
  gone: (reason: string) => void;
  /** The remote answers again. */
  back: () => void;
}

/**
 * Whether the remote can be reached, and since when not. Lost when a request cannot connect at
 * all (refused, DNS, unreachable, connect timeout: `lost`), or when a check finds no answer: a
 * check (two probes on fresh connections, at once, so one unlucky packet is not an outage) runs
 * after a request failed in transport (reset, timeout: `suspect`) and while requests have been
 * out `stallMs` with nothing heard (a black hole: the watch). While lost, a probe runs with its
 * own short backoff (`offlineProbeMinMs` doubling to `offlineProbeMaxMs`) until the remote
 * answers anything, even an error status; then `back` resumes sending at once.
 */
export class Connectivity {
  private online = true;
  private sinceAt: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  private delay = 0;
  private checking: Promise<boolean> | null = null;
  /** When the last check ended (performance.now()): the watch checks at most once per stallMs. */
  private checkedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly policy: ReachPolicy,
    private readonly clock: Clock,
    private readonly hooks: ConnectivityHooks,
  ) {}

  get isOnline(): boolean {
    return this.online;
  }

  /** When the remote was found unreachable (the engine's clock), null while it is reachable. */
  get since(): number | null {
    return this.sinceAt;
  }

  /** Starts watching the requests out for a black hole. */
  start(): void {
    if (this.watchTimer || !this.hooks.active()) return;
    this.watchTimer = setTimeout(
      () => {
        this.watchTimer = undefined;
        if (!this.hooks.active()) return;
        const silent = this.hooks.silentForMs();
        // A long upload is silent too: while the checks find the remote, one every stallMs is enough.
        const due = silent >= this.policy.stallMs && performance.now() - this.checkedAt >= this.policy.stallMs;
        if (this.online && due) void this.check(`no answer for ${Math.round(silent)} ms`);
        this.start();
      },
      Math.max(10, Math.floor(this.policy.stallMs / 3)),
    );
    this.watchTimer.unref();
  }

  /** The remote cannot be reached; true when this is news (it was online). */
  lost(reason: string, at = this.clock.now()): boolean {
    if (!this.online) return false;
    this.online = false;
    this.sinceAt = at;
    this.delay = this.policy.offlineProbeMinMs;
    this.hooks.gone(reason);
    this.schedule();
    return true;
  }

  /** A request failed in transport: is it the network? A check answers (one at a time). */
  suspect(reason: string): void {
    void this.check(reason);
  }

  /**
   * Whether the remote is reachable once the check in progress (if any) is over: what a request
   * that failed in transport is charged depends on it (retry.ts: unreachable costs no attempt).
   */
  verdict(): Promise<boolean> {
    return this.checking ?? Promise.resolve(this.online);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.watchTimer) clearTimeout(this.watchTimer);
    this.timer = undefined;
    this.watchTimer = undefined;
  }

  private check(reason: string): Promise<boolean> {
    if (!this.online || !this.hooks.active()) return Promise.resolve(this.online);
    if (this.checking) return this.checking;
    // `since` is when the trouble was noticed, not when the check gave up.
    const at = this.clock.now();
    this.checking = Promise.all([this.hooks.reach(), this.hooks.reach()]).then(([a, b]) => {
      this.checking = null;
      this.checkedAt = performance.now();
      if (!a && !b && this.hooks.active()) this.lost(reason, at);
      return this.online;
    });
    return this.checking;
  }

  private schedule(): void {
    if (this.timer || !this.hooks.active()) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.probe();
    }, this.delay);
  }

  private async probe(): Promise<void> {
    if (!this.hooks.active() || this.online) return;
    const ok = await this.hooks.reach();
    if (!this.hooks.active()) return;
    if (!ok) {
      this.delay = Math.min(this.policy.offlineProbeMaxMs, this.delay * 2);
      this.schedule();
      return;
    }
    this.online = true;
    this.sinceAt = null;
    this.hooks.back();
  }
}

/** Any HTTP answer (even an error status) within `timeoutMs` proves the remote is reachable. */
export function reachable(client: RemoteClient | null, sellerId: number, timeoutMs: number): Promise<boolean> {
  return client ? client.probe(`/users/${sellerId}`, timeoutMs) : Promise.resolve(false);
}

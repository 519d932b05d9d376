import { type RemoteClient, RemoteError } from './client.js';
import type { RetryPolicy } from './retry.js';

/**
 * Whether the remote can be reached. Lost when a request cannot connect at all (refused, DNS,
 * unreachable, connect timeout); then a probe runs with its own backoff (`offlineProbeMinMs`
 * doubling to `offlineProbeMaxMs`) until the remote answers anything, even an error status.
 */
export class Connectivity {
  private online = true;
  private timer: NodeJS.Timeout | undefined;
  private delay = 0;

  constructor(
    private readonly policy: Pick<RetryPolicy, 'offlineProbeMinMs' | 'offlineProbeMaxMs'>,
    private readonly hooks: {
      /** One probe request: true when the remote answered (any status), false when unreachable. */
      reach: () => Promise<boolean>;
      /** Whether probing should go on (the engine runs). */
      active: () => boolean;
      /** The remote answers again. */
      back: () => void;
    },
  ) {}

  get isOnline(): boolean {
    return this.online;
  }

  /** A request could not reach the remote; true when this is news (it was online). */
  lost(): boolean {
    if (!this.online) return false;
    this.online = false;
    this.delay = this.policy.offlineProbeMinMs;
    this.schedule();
    return true;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
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
    if (!(await this.hooks.reach())) {
      this.delay = Math.min(this.policy.offlineProbeMaxMs, this.delay * 2);
      this.schedule();
      return;
    }
    this.online = true;
    this.hooks.back();
  }
}

/** Any HTTP answer (even an error status) proves the remote is reachable again. */
export async function reachable(client: RemoteClient | null, sellerId: number): Promise<boolean> {
  if (!client) return false;
  try {
    await client.request('GET', `/users/${sellerId}`);
  } catch (e) {
    if (e instanceof RemoteError && e.kind === 'offline') return false;
  }
  return true;
}

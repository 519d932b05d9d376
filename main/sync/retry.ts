/**
 * Retry policy of the outbox (documented in the README):
 * - transient failures (connection reset, timeouts, 408/425/429, 5xx) are retried after
 *   `min(maxMs, baseMs * 2^(attempt-1))` with equal jitter (half fixed, half random), and never
 *   sooner than the server's Retry-After (capped at `retryAfterCapMs`);
 * - after `maxAttempts` attempts an entry becomes `failed` with the last error: it waits for the
 *   user (retry or discard), nothing retries forever unseen;
 * - an unreachable remote is "offline": attempts are not spent; the engine probes the remote with
 *   its own short backoff (`offlineProbeMinMs` doubling to `offlineProbeMaxMs`) and resumes at once
 *   when it answers. Unreachable is a refused connection (DNS, unreachable, connect timeout), or a
 *   probe that gets no answer within `probeTimeoutMs` after a request failed in transport (reset,
 *   timeout) or while requests have been out `stallMs` with nothing heard (connectivity.ts).
 */
export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  maxAttempts: number;
  retryAfterCapMs: number;
  offlineProbeMinMs: number;
  offlineProbeMaxMs: number;
  /** A reachability probe's own deadline: no answer within it is no answer. */
  probeTimeoutMs: number;
  /** Requests out this long with nothing heard from the remote: a probe checks whether it can be reached. */
  stallMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  baseMs: 1000,
  maxMs: 5 * 60_000,
  maxAttempts: 10,
  retryAfterCapMs: 3600_000,
  offlineProbeMinMs: 1000,
  // Short: sending resumes within seconds of the network coming back (issue 27).
  offlineProbeMaxMs: 5000,
  probeTimeoutMs: 3000,
  stallMs: 3000,
};

/** Delay before attempt `attempt + 1`, given that `attempt` attempts were made (>= 1). */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random, retryAfterMs?: number): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, Math.min(30, attempt - 1)));
  const jittered = Math.round(exp / 2 + (random() * exp) / 2);
  const floor = retryAfterMs === undefined ? 0 : Math.min(policy.retryAfterCapMs, retryAfterMs);
  return Math.max(jittered, floor);
}

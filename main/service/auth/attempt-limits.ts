import type { Clock } from '../clock.js';

export interface AttemptLimit {
  /** Failures within `windowMs` that lock the key. */
  limit: number;
  /** How far back failures count, and how long a lock lasts. */
  windowMs: number;
}

/** Failed sign-ins: 5 per user and 20 per application within 15 minutes, then locked 15 minutes. */
export const DEFAULT_LIMITS = {
  perUser: { limit: 5, windowMs: 15 * 60_000 },
  perClient: { limit: 20, windowMs: 15 * 60_000 },
} satisfies Record<string, AttemptLimit>;

interface Entry {
  failures: number[];
  /** Attempts whose password is being checked now: counted so that parallel guesses cannot pass the limit together. */
  inFlight: number;
  lockedUntil: number;
}

/**
 * Counts failed attempts per key in memory. `limit` failures within the window lock the key for
 * one window from the last of them. A key with nothing to remember is forgotten, so the map holds
 * only keys that failed recently; the per-application limit (applications are a fixed set) bounds
 * how many failures, hence user keys, can exist at once.
 */
export function attemptLimiter(rule: AttemptLimit, clock: Clock) {
  const entries = new Map<string, Entry>();

  const fresh = (e: Entry, now: number) => {
    e.failures = e.failures.filter((t) => t > now - rule.windowMs);
    if (e.lockedUntil <= now) e.lockedUntil = 0;
    return e;
  };
  const forgetIfEmpty = (key: string, e: Entry) => {
    if (e.failures.length === 0 && e.inFlight === 0 && e.lockedUntil === 0) entries.delete(key);
  };

  return {
    /** Milliseconds until `key` may try again; 0 when it may try now. */
    waitMs(key: string): number {
      const e = entries.get(key);
      if (!e) return 0;
      const now = clock.now();
      fresh(e, now);
      forgetIfEmpty(key, e);
      if (e.lockedUntil > now) return e.lockedUntil - now;
      if (e.failures.length + e.inFlight < rule.limit) return 0;
      // At the limit only because of attempts still being checked: they finish within a second.
      return e.failures.length ? Math.max(1000, e.failures[0]! + rule.windowMs - now) : 1000;
    },
    /** An attempt starts: call `end` exactly once when its password was checked. */
    begin(key: string): void {
      const e = entries.get(key) ?? { failures: [], inFlight: 0, lockedUntil: 0 };
      e.inFlight++;
      entries.set(key, e);
    },
    end(key: string, outcome: 'failed' | 'succeeded' | 'cleared'): void {
      const e = entries.get(key);
      if (!e) return;
      const now = clock.now();
      e.inFlight = Math.max(0, e.inFlight - 1);
      fresh(e, now);
      if (outcome === 'failed') {
        e.failures.push(now);
        if (e.failures.length >= rule.limit) {
          e.lockedUntil = now + rule.windowMs;
          e.failures = [];
        }
      } else if (outcome === 'cleared') {
        // The right password for this user: earlier mistakes are forgiven.
        e.failures = [];
      }
      forgetIfEmpty(key, e);
    },
    /** Keys remembered now (for tests of the bound). */
    size: () => entries.size,
  };
}
export type AttemptLimiter = ReturnType<typeof attemptLimiter>;

import type { Clock } from '../clock.js';

export interface AttemptLimit {
  /** Failures within `windowMs` that lock the key. */
  limit: number;
  /** How far back failures count, and how long a first lock lasts. */
  windowMs: number;
  /**
   * Backoff: a key locked again soon after a lock is locked twice as long each time, up to this
   * (and its history is kept that long after a lock). Without it every lock lasts `windowMs`.
   */
  maxLockMs?: number;
}

/**
 * Failed sign-ins (issue 25: a per-application bucket let 20 guesses at made-up names lock every
 * user out). What an attacker can do is limited three ways, none of which locks the real person out:
 * - per source (the client's address): 20 failures in 15 minutes lock that address, then twice as
 *   long each time it fails on, up to a day. A locked address still gets one attempt at an account
 *   nobody is guessing (its user bucket untouched): everyone on one computer shares an address,
 *   and guesses at made-up names or at other accounts must not lock a real person out; what the
 *   lock takes away is guessing on, one account after another;
 * - per user (a made-up name counts under itself): 5 failures lock that name for unknown browsers
 *   for 15 minutes, then twice as long each time, up to a day;
 * - a known-good client (a browser that signed in as that user before, main/service/auth/sign-in.ts)
 *   is counted only under its own device, never under the source or user buckets, so others'
 *   failures do not block its right password.
 */
export const DEFAULT_LIMITS = {
  perSource: { limit: 20, windowMs: 15 * 60_000, maxLockMs: 24 * 3600_000 },
  perUser: { limit: 5, windowMs: 15 * 60_000, maxLockMs: 24 * 3600_000 },
  perDevice: { limit: 5, windowMs: 15 * 60_000, maxLockMs: 24 * 3600_000 },
} satisfies Record<string, AttemptLimit>;
export type SignInLimits = { [K in keyof typeof DEFAULT_LIMITS]: AttemptLimit };

/** Keys remembered at most per limiter: past it the oldest is forgotten (memory stays bounded whatever the sources). */
const MAX_KEYS = 100_000;

interface Entry {
  failures: number[];
  /** Attempts whose password is being checked now: counted so that parallel guesses cannot pass the limit together. */
  inFlight: number;
  lockedUntil: number;
  /** Locks in a row (backoff), remembered until `strikesUntil`. */
  strikes: number;
  strikesUntil: number;
}

/**
 * Counts failed attempts per key in memory. `limit` failures within the window lock the key for
 * one window from the last of them (longer with backoff). A key with nothing to remember is
 * forgotten, so the map holds only keys that failed recently.
 */
export function attemptLimiter(rule: AttemptLimit, clock: Clock) {
  const entries = new Map<string, Entry>();

  const fresh = (e: Entry, now: number) => {
    e.failures = e.failures.filter((t) => t > now - rule.windowMs);
    if (e.lockedUntil <= now) e.lockedUntil = 0;
    if (e.strikesUntil <= now) e.strikes = e.strikesUntil = 0;
    return e;
  };
  const forgetIfEmpty = (key: string, e: Entry) => {
    if (e.failures.length === 0 && e.inFlight === 0 && e.lockedUntil === 0 && e.strikes === 0) entries.delete(key);
  };
  const lock = (e: Entry, now: number) => {
    e.strikes++;
    const ms = rule.maxLockMs === undefined ? rule.windowMs : Math.min(rule.maxLockMs, rule.windowMs * 2 ** (e.strikes - 1));
    e.lockedUntil = now + ms;
    e.strikesUntil = rule.maxLockMs === undefined ? 0 : e.lockedUntil + rule.maxLockMs;
    if (e.strikesUntil === 0) e.strikes = 0;
    e.failures = [];
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
    /** Whether `key` has nothing against it now: no recent failure, no lock, no attempt being checked. */
    untouched(key: string): boolean {
      const e = entries.get(key);
      if (!e) return true;
      fresh(e, clock.now());
      return e.failures.length === 0 && e.inFlight === 0 && e.lockedUntil === 0;
    },
    /** An attempt starts: call `end` exactly once when its password was checked. */
    begin(key: string): void {
      let e = entries.get(key);
      if (!e) {
        if (entries.size >= MAX_KEYS) entries.delete(entries.keys().next().value!);
        e = { failures: [], inFlight: 0, lockedUntil: 0, strikes: 0, strikesUntil: 0 };
        entries.set(key, e);
      }
      e.inFlight++;
    },
    end(key: string, outcome: 'failed' | 'succeeded' | 'cleared'): void {
      const e = entries.get(key);
      if (!e) return;
      const now = clock.now();
      e.inFlight = Math.max(0, e.inFlight - 1);
      fresh(e, now);
      if (outcome === 'failed') {
        e.failures.push(now);
        if (e.failures.length >= rule.limit) lock(e, now);
      } else if (outcome === 'cleared') {
        // The right password for this key: earlier mistakes are forgiven.
        e.failures = [];
        e.strikes = e.strikesUntil = 0;
      }
      forgetIfEmpty(key, e);
    },
    /** Keys remembered now (for tests of the bound). */
    size: () => entries.size,
  };
}
export type AttemptLimiter = ReturnType<typeof attemptLimiter>;

import type { OutboxRow, SyncRepo } from '../db/repos/sync.js';
import { type RetryPolicy, backoffDelay } from './retry.js';
import type { PushOutcome } from './stock-push.js';

/** What recording an outcome did, announced once committed. */
export type Effect =
  | { type: 'done'; replayed: boolean; refresh: string | null }
  | { type: 'conflict' }
  /** Taken back after its outcome was learnt: it had not been applied (removed, its inverses with it). */
  | { type: 'withdrawn' }
  | { type: 'failed'; status: number | null; error: string }
  | { type: 'offline'; error: string }
  | { type: 'retry'; status: number | null; error: string; delayMs: number };

/**
 * Inside the settling transaction: an outcome's writes. An attempt is charged here, when an
 * answer (or a transient failure) came back: claiming an entry is not an attempt, so a crash or a
 * restart while it was out costs it nothing. An unreachable remote charges nothing either.
 */
export function recordOutcome(
  repo: SyncRepo,
  row: Pick<OutboxRow, 'id' | 'attempts'>,
  outcome: PushOutcome,
  policy: RetryPolicy,
  random: () => number,
  now: number,
): Effect {
  switch (outcome.type) {
    case 'done':
      return { type: 'done', replayed: outcome.replayed, refresh: outcome.commit() };
    case 'conflict':
      outcome.commit();
      return { type: 'conflict' };
    case 'withdrawn':
      outcome.commit();
      return { type: 'withdrawn' };
    case 'failed':
      // The marketplace refused it (or a fresh check showed it would): nothing of it was applied.
      repo.markFailed(row.id, outcome.status, outcome.error, now, true);
      return { type: 'failed', status: outcome.status, error: outcome.error };
    case 'retry': {
      // The remote refused the request on the wire (409) and its stock could not be re-read: read first next time.
      if (outcome.refused) repo.markRefused(row.id, now);
      if (outcome.offline) {
        repo.reschedule(row.id, now, null, outcome.error, false, now);
        return { type: 'offline', error: outcome.error };
      }
      const made = row.attempts + 1;
      if (made >= policy.maxAttempts) {
        const error = `${outcome.error} (gave up after ${made} attempts)`;
        // Sending gives up; when a request was out its outcome stays unknown (phaseOf, model.ts).
        repo.markFailed(row.id, outcome.status, error, now, false);
        return { type: 'failed', status: outcome.status, error };
      }
      const delayMs = backoffDelay(made, policy, random, outcome.retryAfterMs);
      repo.reschedule(row.id, now + delayMs, outcome.status, outcome.error, true, now);
      return { type: 'retry', status: outcome.status, error: outcome.error, delayMs };
    }
  }
}

/**
 * Tells when the remote is back after a bad spell: a success after transient failures, with no
 * success for at least `quietMs` before it. (A lane that keeps failing while others succeed is
 * not a bad spell: its backoff stands.)
 */
export class SpellWatch {
  private troubleSince: number | null = null;
  private lastSuccessAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly quietMs: number) {}

  /** The effects of one settled batch; true when they end a bad spell. */
  observe(effects: readonly Effect[], now: number): boolean {
    if (!effects.some((e) => e.type === 'done')) {
      if (this.troubleSince === null && effects.some((e) => e.type === 'retry')) this.troubleSince = now;
      return false;
    }
    const recovered = this.troubleSince !== null && now - this.lastSuccessAt >= this.quietMs;
    this.lastSuccessAt = now;
    this.troubleSince = null;
    return recovered;
  }

  /** The remote was reached some other way (a probe): the spell is over. */
  reset(): void {
    this.troubleSince = null;
  }
}

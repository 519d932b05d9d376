import type { EntryState, LaneEntry } from '../db/repos/sync.js';

/**
 * The scheduling rules of one lane (a user product, a conversation), pure: no SQLite, no clock of
 * its own. The engine keeps each lane's active entries in memory and asks these what to do.
 *
 * - One entry of a lane is on the wire at a time (an entry in flight makes the lane busy).
 * - A stock entry in conflict, failed, or waiting out its backoff holds back the later entries of
 *   its own cell only: other cells of the product go on (each request carries the x-version it
 *   was based on, so the marketplace's compare-and-set keeps them apart). Except an entry waiting
 *   with a request outstanding (sent, outcome unknown): it holds the whole product, because
 *   another cell's 409 would re-read the product into the mirror while that request may have
 *   been applied, and the grid would count it twice. It goes first, under the same key, even
 *   before earlier entries of the lane that were never sent. An entry of unknown outcome (failed
 *   after lost answers) holds the whole product the same way until the person acts: the mirror
 *   must not take in its effect while nobody knows whether it was applied (a count's base counts
 *   on it once, model.ts).
 * - A message entry that is failed, in conflict or waiting holds back the rest of its
 *   conversation (messages keep their order).
 * - A transfer touches two cells: it is held when either is held, and when it is held (in
 *   conflict, failed, waiting, or itself held back) it holds both, so nothing of either cell
 *   overtakes it (a later count of either cell was based on its effect).
 */
export type LaneHead = { type: 'ready'; row: LaneEntry } | { type: 'wait'; at: number } | { type: 'busy' } | { type: 'idle' };

/**
 * The cells held so far (a lane head is asked for every lane at every change, so the set is made
 * only when a cell is held): `r`'s stock cells added, one or a transfer's two, none for a message.
 */
function hold(held: Set<string> | null, r: LaneEntry): Set<string> | null {
  if (r.cell === null) return held;
  const cells = held ?? new Set<string>();
  cells.add(r.cell);
  if (r.cell2) cells.add(r.cell2);
  return cells;
}

/** Whether any stock cell of `r` is held. */
const isHeld = (held: Set<string> | null, r: LaneEntry): boolean => held !== null && r.cell !== null && (held.has(r.cell) || (!!r.cell2 && held.has(r.cell2)));

/** A stock entry whose request may be at the marketplace while it is not in flight: it holds its whole product. */
const outstanding = (r: LaneEntry) => r.cell !== null && r.on_wire === 1 && (r.state === 'pending' || r.state === 'failed');

export function laneHead(rows: readonly LaneEntry[], now: number): LaneHead {
  const first = rows.find(outstanding);
  if (first && !rows.some((r) => r.state === 'in_flight')) {
    // It goes first, alone (resent under its key), or nothing of the product goes until the person acts.
    if (first.state === 'failed') return { type: 'idle' };
    return first.next_attempt_at <= now ? { type: 'ready', row: first } : { type: 'wait', at: first.next_attempt_at };
  }
  let held: Set<string> | null = null;
  let wait = Infinity;
  for (const r of rows) {
    if (r.state === 'in_flight') return { type: 'busy' };
    if (r.state === 'conflict' || r.state === 'failed') {
      if (r.cell === null) break;
      held = hold(held, r);
      continue;
    }
    if (r.state !== 'pending') continue;
    if (isHeld(held, r)) {
      // A held transfer holds its other cell too.
      held = hold(held, r);
      continue;
    }
    if (r.next_attempt_at <= now) return { type: 'ready', row: r };
    wait = Math.min(wait, r.next_attempt_at);
    if (r.cell === null || r.on_wire === 1) break;
    held = hold(held, r);
  }
  return wait === Infinity ? { type: 'idle' } : { type: 'wait', at: wait };
}

export type LaneCounts = Record<EntryState, number> & {
  /** Pending entries held behind a conflict or a failed entry: nothing sends them until the person acts. */
  blocked: number;
  /** Failed entries whose last request may have been applied (outcome unknown, model.ts): a part of `failed`. */
  unknown: number;
};

/** Every count a lane keeps, in one list (the engine and the scheduler sum them). */
export const COUNTED = ['pending', 'in_flight', 'done', 'conflict', 'failed', 'blocked', 'unknown'] as const;

export const emptyLaneCounts = (): LaneCounts => ({ pending: 0, in_flight: 0, done: 0, conflict: 0, failed: 0, blocked: 0, unknown: 0 });

/** Entries per state, and how many of the pending ones wait on a person (behind a conflict or a failure). */
export function laneCounts(rows: readonly LaneEntry[]): LaneCounts {
  const counts = emptyLaneCounts();
  let stuck: Set<string> | null = null;
  // An entry of unknown outcome holds its whole product (laneHead): everything else of it waits for the person.
  let stuckLane = rows.some((r) => outstanding(r) && r.state === 'failed');
  for (const r of rows) {
    counts[r.state]++;
    if (r.state === 'failed' && r.on_wire === 1) counts.unknown++;
    if (r.state === 'conflict' || r.state === 'failed') {
      if (r.cell === null) stuckLane = true;
      else stuck = hold(stuck, r);
    } else if (r.state === 'pending' && (r.cell === null || stuckLane ? stuckLane : isHeld(stuck, r))) {
      counts.blocked++;
      // A transfer stuck behind one of its cells holds the other one as well.
      stuck = hold(stuck, r);
    }
  }
  return counts;
}

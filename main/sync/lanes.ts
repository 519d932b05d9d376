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
 *   been applied, and the grid would count it twice. It goes first, under the same key.
 * - A message entry that is failed, in conflict or waiting holds back the rest of its
 *   conversation (messages keep their order).
 */
export type LaneHead = { type: 'ready'; row: LaneEntry } | { type: 'wait'; at: number } | { type: 'busy' } | { type: 'idle' };

export function laneHead(rows: readonly LaneEntry[], now: number): LaneHead {
  const heldCells = new Set<string>();
  let wait = Infinity;
  for (const r of rows) {
    if (r.state === 'in_flight') return { type: 'busy' };
    if (r.state === 'conflict' || r.state === 'failed') {
      if (r.cell === null) break;
      heldCells.add(r.cell);
      continue;
    }
    if (r.state !== 'pending') continue;
    if (r.cell !== null && heldCells.has(r.cell)) continue;
    if (r.next_attempt_at <= now) return { type: 'ready', row: r };
    wait = Math.min(wait, r.next_attempt_at);
    if (r.cell === null || r.on_wire === 1) break;
    heldCells.add(r.cell);
  }
  return wait === Infinity ? { type: 'idle' } : { type: 'wait', at: wait };
}

export type LaneCounts = Record<EntryState, number> & {
  /** Pending entries held behind a conflict or a failed entry: nothing sends them until the person acts. */
  blocked: number;
};

/** Every count a lane keeps, in one list (the engine and the scheduler sum them). */
export const COUNTED = ['pending', 'in_flight', 'done', 'conflict', 'failed', 'blocked'] as const;

export const emptyLaneCounts = (): LaneCounts => ({ pending: 0, in_flight: 0, done: 0, conflict: 0, failed: 0, blocked: 0 });

/** Entries per state, and how many of the pending ones wait on a person (behind a conflict or a failure). */
export function laneCounts(rows: readonly LaneEntry[]): LaneCounts {
  const counts = emptyLaneCounts();
  const stuckCells = new Set<string>();
  let stuckLane = false;
  for (const r of rows) {
    counts[r.state]++;
    if (r.state === 'conflict' || r.state === 'failed') {
      if (r.cell === null) stuckLane = true;
      else stuckCells.add(r.cell);
    } else if (r.state === 'pending' && (r.cell === null ? stuckLane : stuckCells.has(r.cell))) {
      counts.blocked++;
    }
  }
  return counts;
}

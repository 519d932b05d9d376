import type { LaneEntry } from '../db/repos/sync.js';
import type { Clock } from '../service/clock.js';
import { COUNTED, type LaneCounts, type LaneHead, emptyLaneCounts, laneCounts, laneHead } from './lanes.js';

export interface Picked {
  lane: string;
  entry: LaneEntry;
}

/**
 * The engine's in-memory view of the outbox, by lane: which lanes have an entry due now
 * (`ready`), which wait for a time (one timer for the earliest), which have an entry out
 * (`busy`), and the counts the status bar shows. SQLite stays the truth: a lane is reloaded
 * from it after any change (`setLane`). The rules of one lane are lanes.ts.
 */
export class LaneScheduler {
  private readonly lanes = new Map<string, { rows: LaneEntry[]; counts: LaneCounts }>();
  readonly totals = emptyLaneCounts();
  private readonly ready = new Set<string>();
  private readonly waiting = new Map<string, number>();
  private readonly busy = new Set<string>();
  private waitTimer: NodeJS.Timeout | undefined;
  private waitTimerAt = Infinity;
  private armed = false;

  constructor(
    private readonly clock: Clock,
    /** Called when a waiting lane became due. */
    private readonly onDue: () => void,
  ) {}

  /** How many active entries a lane holds (the scheduler's copy): one alone needs no batch (stock-batch.ts). */
  size(lane: string): number {
    return this.lanes.get(lane)?.rows.length ?? 0;
  }

  /** Starts the timers (after the first load); before this, nothing is armed. */
  start(): void {
    this.armed = true;
    for (const [, at] of this.waiting) this.armWaitTimer(at);
  }

  stop(): void {
    this.armed = false;
    if (this.waitTimer) clearTimeout(this.waitTimer);
    this.waitTimer = undefined;
    this.waitTimerAt = Infinity;
  }

  clear(): void {
    this.lanes.clear();
    this.ready.clear();
    this.waiting.clear();
    this.busy.clear();
    Object.assign(this.totals, emptyLaneCounts());
  }

  /** The active entries of a lane, oldest first (as SQLite has them now). */
  setLane(lane: string, rows: LaneEntry[]): void {
    const old = this.lanes.get(lane);
    if (old) for (const k of COUNTED) this.totals[k] -= old.counts[k];
    if (rows.length === 0) {
      this.lanes.delete(lane);
    } else {
      const counts = laneCounts(rows);
      for (const k of COUNTED) this.totals[k] += counts[k];
      this.lanes.set(lane, { rows, counts });
    }
    this.classify(lane);
  }

  rows(lane: string): LaneEntry[] | undefined {
    return this.lanes.get(lane)?.rows;
  }

  get readyCount(): number {
    return this.ready.size;
  }

  /** Nothing due and nothing waiting for a time. */
  get quiet(): boolean {
    return this.ready.size === 0 && this.waiting.size === 0;
  }

  private head(lane: string): LaneHead {
    if (this.busy.has(lane)) return { type: 'busy' };
    const l = this.lanes.get(lane);
    if (!l) return { type: 'idle' };
    return laneHead(l.rows, this.clock.now());
  }

  private classify(lane: string): void {
    const h = this.head(lane);
    this.ready.delete(lane);
    this.waiting.delete(lane);
    if (h.type === 'ready') this.ready.add(lane);
    else if (h.type === 'wait') {
      this.waiting.set(lane, h.at);
      this.armWaitTimer(h.at);
    }
  }

  private armWaitTimer(at: number): void {
    if (!this.armed || at >= this.waitTimerAt) return;
    if (this.waitTimer) clearTimeout(this.waitTimer);
    this.waitTimerAt = at;
    this.waitTimer = setTimeout(
      () => {
        this.waitTimer = undefined;
        this.waitTimerAt = Infinity;
        const now = this.clock.now();
        let next = Infinity;
        for (const [lane, when] of this.waiting) {
          if (when <= now) {
            this.waiting.delete(lane);
            this.ready.add(lane);
          } else next = Math.min(next, when);
        }
        if (next !== Infinity) this.armWaitTimer(next);
        this.onDue();
      },
      Math.max(0, at - this.clock.now()),
    );
  }

  /** Re-evaluates the waiting lanes now (a test that moved its clock). */
  wake(): void {
    for (const lane of [...this.waiting.keys()]) this.classify(lane);
  }

  /** Up to `slots` ready lanes with the entry each sends next; they are busy until `release`. */
  pick(slots: number): Picked[] {
    const picked: Picked[] = [];
    for (const lane of this.ready) {
      if (picked.length >= slots) break;
      this.ready.delete(lane);
      const h = this.head(lane);
      if (h.type === 'ready') {
        this.busy.add(lane);
        picked.push({ lane, entry: h.row });
      } else this.classify(lane);
    }
    return picked;
  }

  release(lane: string): void {
    this.busy.delete(lane);
  }

  /** The scheduler's copy of a claimed entry (the claim is in SQLite already). */
  markInFlight(lane: string, id: number): void {
    const l = this.lanes.get(lane);
    const e = l?.rows.find((r) => r.id === id);
    if (!l || !e || e.state === 'in_flight') return;
    l.counts[e.state]--;
    this.totals[e.state]--;
    e.state = 'in_flight';
    l.counts.in_flight++;
    this.totals.in_flight++;
  }

  /**
   * The lane's copy after an entry was done (the common case, kept in memory). Returns false when
   * the entry is not known here (the lane changed while it was out): the caller reloads the lane.
   * Any other outcome reloads the lane from SQLite, where what it left on the row (an outstanding
   * request) decides the order.
   */
  done(lane: string, id: number): boolean {
    const l = this.lanes.get(lane);
    const e = l?.rows.find((r) => r.id === id);
    if (!l || !e) return false;
    this.setLane(
      lane,
      l.rows.filter((r) => r !== e),
    );
    return true;
  }

  /**
   * Every pending entry due later than `now + spread` becomes due within `spread` (by `jitter`);
   * `persist` writes each new time. Returns how many moved.
   */
  expedite(now: number, spread: number, jitter: () => number, persist: (id: number, at: number) => void): number {
    let moved = 0;
    for (const [lane, l] of this.lanes) {
      let changed = false;
      for (const r of l.rows) {
        if (r.state !== 'pending' || r.next_attempt_at <= now + spread) continue;
        r.next_attempt_at = now + Math.floor(jitter() * spread);
        persist(r.id, r.next_attempt_at);
        changed = true;
        moved++;
      }
      if (changed) this.classify(lane);
    }
    return moved;
  }
}

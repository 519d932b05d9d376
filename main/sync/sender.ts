import type { LaneEntry } from '../db/repos/sync.js';
import type { Writes } from '../db/relaxed-writes.js';
import type { Clock } from '../service/clock.js';
import type { Claimed, OutboxKinds, Sent } from './kinds/index.js';
import type { Outbox } from './outbox.js';
import type { RetryPolicy } from './retry.js';
import type { LaneScheduler } from './scheduler.js';
import { type Effect, SpellWatch, recordOutcome } from './settle.js';
import type { BatchOutcome } from './stock-batch.js';
import type { PushOutcome } from './stock-push.js';

/**
 * How long the outcomes that come back during a flush wait for more of them, so that one
 * transaction records more answers (and the remote gets the next requests together): the slots
 * do not wait meanwhile, they take the entries claimed ahead.
 */
const SETTLE_LINGER_MS = 8;
/**
 * The entries claimed ahead, in slots' worth: two, so that a batch of outcomes records twice
 * `concurrency` answers before the reserve runs out (issue 29: half the transactions, claims and
 * turns of the loop a flush cost with one; about a tenth of its CPU).
 */
const AHEAD_SLOTS = 2;

/** What the sender needs of its engine. */
export interface SenderHost {
  readonly outbox: Outbox;
  readonly writes: Writes & { runNow<T>(fn: () => T): T };
  readonly lanes: LaneScheduler;
  readonly kinds: OutboxKinds;
  readonly policy: RetryPolicy;
  readonly random: () => number;
  readonly clock: Clock;
  readonly concurrency: number;
  running(): boolean;
  /** Online, in online mode, running. */
  canSend(): boolean;
  /** Whether the remote is reachable once the check a transport failure started is over (connectivity.ts). */
  reachable(): Promise<boolean>;
  /** After the commit that recorded it: events, and what the outcome asks of the engine. */
  announce(row: Sent, effect: Effect): void;
  /** A failure of the sender's own (a transaction that failed): recorded and reported. */
  failed(e: Error, asLastError: boolean): void;
  /** Sent entries were recorded (a success clears the last error). */
  succeeded(): void;
  /** Something the status bar shows changed. */
  progress(): void;
  /** Nothing is left to push right now. */
  idle(): void;
}

/**
 * The sending side of the engine: which entries go next (the lanes), claiming them with their
 * planned requests, sending them through their kind's handler (main/sync/kinds), and recording
 * the outcomes in batches.
 *
 * Scheduling: each lane (a user product, a conversation) sends one entry at a time in id order;
 * up to `concurrency` lanes are in flight together. The scheduler keeps the active entries of
 * every lane in memory (re-read from SQLite whenever a lane changes); SQLite stays the truth.
 *
 * Flushing a backlog: up to twice `concurrency` more entries are claimed ahead (claimed and their
 * requests persisted, in flight for SQLite, not sent yet), so a request that comes back hands its
 * slot to the next one at once; the answers are recorded in batches (see finish). An entry
 * claimed ahead goes back to pending as it was when sending stops (offline, stop); after a crash
 * it is sent as planned, under its key, like any request whose outcome is unknown.
 */
export class Sender {
  private readonly inflight = new Set<Promise<void>>();
  private active = 0;
  private pumpScheduled = false;
  private settling: { lane: string; row: Sent; outcome: PushOutcome }[] = [];
  private settleTimer: NodeJS.Timeout | undefined;
  private settleQueued = false;
  /** Claimed and planned (committed), waiting for a free slot: a request that comes back hands its slot to the first at once. */
  private ahead: { lane: string; claim: Claimed }[] = [];
  private readonly spell: SpellWatch;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly host: SenderHost) {
    this.spell = new SpellWatch(host.policy.baseMs);
  }

  /** After any change to a lane in SQLite: reload it and reschedule. */
  laneChanged(lane: string): void {
    if (!this.host.running()) return;
    this.host.lanes.setLane(lane, this.host.outbox.repo.activeOfLane(lane));
    this.schedulePump();
    this.host.progress();
  }

  /**
   * After a bad spell (transient failures, or the remote unreachable) the remote answers again:
   * every entry waiting out a backoff becomes due now, spread over up to a second (`baseMs` when
   * shorter) so they do not all go in the same millisecond. Runs inside a write transaction.
   */
  expedite(now: number): void {
    const { lanes, policy, random, outbox } = this.host;
    this.spell.reset();
    lanes.expedite(now, Math.max(1, Math.min(policy.baseMs, 1000)), random, (id, at) => outbox.repo.setNextAttempt(id, at));
  }

  schedulePump(): void {
    if (this.pumpScheduled || !this.host.running()) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  isIdle(): boolean {
    return !this.host.running() || (this.active === 0 && this.ahead.length === 0 && this.settling.length === 0 && this.host.lanes.quiet);
  }

  /** Stopping: waits for the requests out, records what came back, and puts back what was claimed ahead. */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.inflight]);
    // Outcomes that came back but wait for their batch: recorded now, before the caller closes the database.
    this.settleBatch();
    this.releaseAhead();
  }

  /**
   * Fills the free slots and the reserve: the ready lanes' next entries are claimed (and their
   * requests planned and persisted) in one transaction, then sent as slots are free.
   */
  private pump(): void {
    this.sendAhead();
    const { lanes, writes, clock } = this.host;
    if (this.host.canSend() && this.room() > 0 && lanes.readyCount > 0) {
      const picked = lanes.pick(this.room());
      if (picked.length > 0) {
        const now = clock.now();
        let claims: (Claimed | null)[];
        try {
          claims = writes.runNow(() => this.claimAll(picked, now));
        } catch (e) {
          this.claimFailed(picked, e, now);
          return;
        }
        this.sendAll(picked, claims);
      }
    }
    this.checkIdle();
  }

  /**
   * How many more entries to claim: the free slots, and a reserve of AHEAD_SLOTS × `concurrency` claimed ahead,
   * so that a slot never waits for the transaction that records an answer and claims the next.
   */
  private room(): number {
    return (1 + AHEAD_SLOTS) * this.host.concurrency - this.active - this.ahead.length;
  }

  /** Hands the free slots to the entries claimed ahead, oldest first. */
  private sendAhead(): void {
    while (this.active < this.host.concurrency && this.ahead.length > 0 && this.host.canSend()) {
      const { lane, claim } = this.ahead.shift()!;
      this.dispatch(lane, claim);
    }
  }

  /**
   * The entries claimed ahead go back to pending as they were (their requests never went out),
   * when sending stops: they stay editable like any queued entry.
   */
  releaseAhead(): void {
    if (this.ahead.length === 0) return;
    const ahead = this.ahead;
    this.ahead = [];
    const now = this.host.clock.now();
    try {
      this.host.writes.runNow(() =>
        ahead.forEach(({ claim }) => {
          for (const c of [claim, ...(claim.also ?? [])]) this.host.outbox.repo.unclaim(c.row.id, c.before, now);
        }),
      );
    } catch (e) {
      // Left in flight: back to pending at the next start, their planned requests kept (sent once then).
      this.host.failed(e as Error, false);
    }
    for (const { lane } of ahead) {
      this.host.lanes.release(lane);
      this.laneChanged(lane);
    }
  }

  /** Inside a transaction: claims the picked entries and plans their requests, each through its kind. */
  private claimAll(picked: { lane: string; entry: LaneEntry }[], now: number): (Claimed | null)[] {
    // A lane of one entry has no company to batch with: its claim reads nothing more (the flush figure).
    return picked.map(({ lane, entry }) => this.host.kinds[entry.kind].claim(entry.id, now, lane, this.host.lanes.size(lane) > 1));
  }

  /** The claim transaction failed (nothing was claimed): those entries wait a little rather than spin. */
  private claimFailed(picked: { lane: string; entry: LaneEntry }[], e: unknown, now: number): void {
    const { writes, outbox, policy, lanes } = this.host;
    this.host.failed(e as Error, true);
    try {
      writes.runNow(() => picked.forEach(({ entry }) => outbox.repo.reschedule(entry.id, now + policy.baseMs, null, (e as Error).message, false, now)));
    } catch {
      // The database itself is failing: the lanes are looked at again at the next change.
    }
    for (const { lane } of picked) {
      lanes.release(lane);
      this.laneChanged(lane);
    }
  }

  private sendAll(picked: { lane: string; entry: LaneEntry }[], claims: (Claimed | null)[]): void {
    picked.forEach(({ lane }, i) => {
      const claim = claims[i];
      if (claim) {
        this.host.lanes.markInFlight(lane, claim.row.id);
        for (const c of claim.also ?? []) this.host.lanes.markInFlight(lane, c.row.id);
        this.ahead.push({ lane, claim });
      } else {
        // Gone meanwhile (coalesced away, discarded): look at the lane again.
        this.host.lanes.release(lane);
        this.laneChanged(lane);
      }
    });
    // Sending stopped meanwhile (offline, stopped): what was claimed goes back.
    if (this.host.canSend()) this.sendAhead();
    else this.releaseAhead();
  }

  checkIdle(): void {
    if (!this.isIdle()) return;
    this.host.idle();
    this.releaseWaiters();
  }

  /** Resolves when nothing is left to push right now; rejects after `timeoutMs`, saying where things stood. */
  whenIdle(timeoutMs: number, describe: () => string): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.idleWaiters = this.idleWaiters.filter((w) => w !== done);
        reject(new Error(`drain: still ${describe()} after ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.idleWaiters.push(done);
    });
  }

  /** Everyone waiting for idle goes on (idle, or stopping). */
  releaseWaiters(): void {
    for (const w of this.idleWaiters.splice(0)) w();
  }

  private dispatch(lane: string, claim: Claimed): void {
    this.active++;
    const work: Promise<void> = this.push(claim).then((each) => {
      this.inflight.delete(work);
      this.finish(lane, each);
    });
    this.inflight.add(work);
  }

  private async push(claim: Claimed): Promise<{ row: Sent; outcome: PushOutcome }[]> {
    let sent: PushOutcome | BatchOutcome;
    try {
      sent = await claim.send();
    } catch (e) {
      // Every entry of the request (one PUT per product: stock-batch.ts) has the same outcome.
      const outcome: PushOutcome = { type: 'retry', offline: false, status: null, error: (e as Error).message };
      return [claim, ...(claim.also ?? [])].map((c) => ({ row: c.row, outcome }));
    }
    const each = sent.type === 'batch' ? sent.each : [{ row: claim.row, outcome: sent }];
    // No answer came: when the network is what failed, it costs no attempt (the request is kept, resent under its key).
    if (each.some(({ outcome: o }) => o.type === 'retry' && o.transport && !o.offline) && !(await this.host.reachable()))
      return each.map(({ row, outcome: o }) => ({ row, outcome: o.type === 'retry' && o.transport ? { ...o, offline: true } : o }));
    return each;
  }

  /**
   * An entry came back: its slot goes to the first entry claimed ahead at once, and its outcome
   * waits for its batch. The outcomes that arrive together are recorded together (group commit):
   * one transaction records them, re-reads nothing it does not have to, and claims the entries that
   * refill the slots and the reserve; then the events, then the new sends. The batch is recorded in
   * the next turn of the event loop when nothing is claimed ahead (a slot would wait for it) or a
   * reserve's worth of outcomes is in, else SETTLE_LINGER_MS later. Until then an outcome is only in
   * memory: a crash leaves its entry in flight in SQLite, sent again after a restart under the
   * same key (the remote replays its answer).
   */
  private finish(lane: string, each: { row: Sent; outcome: PushOutcome }[]): void {
    this.active--;
    this.sendAhead();
    for (const { row, outcome } of each) this.settling.push({ lane, row, outcome });
    if (this.ahead.length === 0 || this.settling.length >= AHEAD_SLOTS * this.host.concurrency) {
      if (!this.settleQueued) {
        this.settleQueued = true;
        setImmediate(() => this.settleBatch());
      }
    } else this.settleTimer ??= setTimeout(() => this.settleBatch(), SETTLE_LINGER_MS);
  }

  private settleBatch(): void {
    this.settleQueued = false;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = undefined;
    const batch = this.settling;
    if (batch.length === 0) return;
    this.settling = [];
    const { lanes, outbox, policy, random, writes, clock } = this.host;
    for (const { lane } of batch) lanes.release(lane);
    const now = clock.now();
    let picked: { lane: string; entry: LaneEntry }[] = [];
    let result: { effects: Effect[]; claims: (Claimed | null)[] };
    try {
      result = writes.runNow(() => {
        const running = this.host.running();
        const effects = batch.map(({ lane, row, outcome }) => {
          const effect = recordOutcome(outbox.repo, row, outcome, policy, random, now);
          // The scheduler's copy of the lane (other changes while the entry was out already reloaded it).
          if (running && !(effect.type === 'done' && lanes.done(lane, row.id))) lanes.setLane(lane, outbox.repo.activeOfLane(lane));
          return effect;
        });
        if (effects.some((e) => e.type === 'done')) this.host.succeeded();
        // The remote is back after a bad spell: nothing waits out a backoff earned during it.
        if (this.spell.observe(effects, now) && running) this.expedite(now);
        if (this.host.canSend()) picked = lanes.pick(this.room());
        return { effects, claims: this.claimAll(picked, now) };
      });
    } catch (e) {
      // Not recorded: the entries stay in flight in SQLite and go again after a restart (same keys).
      this.host.failed(e as Error, true);
      for (const p of picked) lanes.release(p.lane);
      if (this.host.running()) for (const { lane } of batch) this.laneChanged(lane);
      this.checkIdle();
      return;
    }
    batch.forEach(({ row }, i) => this.host.announce(row, result.effects[i]!));
    if (!this.host.running()) return this.checkIdle();
    this.sendAll(picked, result.claims);
    this.host.progress();
    this.pump();
  }
}

/**
 * When the app updates itself: the policy, without Electron (main/updater-electron.ts adapts
 * electron-updater to `UpdaterPort`). Checks a little after start and then daily; a found update
 * downloads in the background with its progress; it is installed only when the person asks for the
 * restart, and only once the outbox has nothing on its way to the marketplace.
 */
import type { EventEmitter } from 'node:events';
import type { SyncStatusView, UpdateView } from '../../common/contract/contract.js';
import type { CoreEvents } from './events.js';

/** What the updater reports (electron-updater's events, reduced to what the policy reads). */
export type UpdaterEvent =
  | { type: 'available'; version: string }
  | { type: 'not-available' }
  | { type: 'progress'; percent: number; transferred: number; total: number }
  | { type: 'downloaded'; version: string }
  | { type: 'error'; message: string };

export interface UpdaterPort {
  /** Asks the feed; settles once it answered (what it found comes as events). */
  check(): Promise<void>;
  /** Downloads the update the last check found, verifying its sha512. */
  download(): Promise<void>;
  /** Quits the app and installs the downloaded update (the app's quit path still runs). */
  quitAndInstall(): void;
  subscribe(listener: (e: UpdaterEvent) => void): () => void;
}

/** Time, and the two kinds of timers the policy uses (fake ones in tests). */
export interface UpdateTimers {
  now(): number;
  /** Calls `fn` once after `ms`; returns the function that cancels it. */
  after(ms: number, fn: () => void): () => void;
  /** Calls `fn` every `ms`; returns the function that stops it. */
  every(ms: number, fn: () => void): () => void;
}

/** Real timers that never keep the process alive. */
export const systemTimers: UpdateTimers = {
  now: () => Date.now(),
  after(ms, fn) {
    const t = setTimeout(fn, ms);
    t.unref();
    return () => clearTimeout(t);
  },
  every(ms, fn) {
    const t = setInterval(fn, ms);
    t.unref();
    return () => clearInterval(t);
  },
};

/** The outbox as the policy sees it: how many changes are still going out, and when that may have changed. */
export interface OutboxDrain {
  outstanding(): number;
  /** Calls `listener` whenever `outstanding()` may have changed; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
}

/**
 * Changes still going out: those on the wire, plus those queued while the marketplace is reachable.
 * Offline, queued changes stay in SQLite and go out after the restart, and waiting for a connection
 * could hold an update for days; conflicts and failures wait for the person, not for the update.
 */
export function sendsOutstanding(s: SyncStatusView | null): number {
  if (!s) return 0;
  return s.inFlight + (s.online ? s.pending : 0);
}

/** The desktop core's outbox: its engine status, re-read on every sync status, session or settings event. */
export function coreOutboxDrain(core: { status(): SyncStatusView | null; readonly events: EventEmitter<CoreEvents> }): OutboxDrain {
  return {
    outstanding: () => sendsOutstanding(core.status()),
    onChange(listener) {
      const l = (e: { type: string }) => {
        if (e.type === 'sync.status' || e.type === 'session.changed' || e.type === 'settings.changed') listener();
      };
      core.events.on('event', l);
      return () => void core.events.off('event', l);
    },
  };
}

export interface UpdatePolicy {
  /** The first check, after start (the window and the first pull go first). */
  firstCheckAfterMs: number;
  /** Between two checks. */
  intervalMs: number;
  /** After a failed check (no connection at start): sooner than a day. */
  retryAfterErrorMs: number;
  /**
   * How often the schedule looks whether a check is due: the wall clock decides, as a 24 h timer
   * does not run while the computer sleeps.
   */
  tickMs: number;
  /** While a restart waits for the outbox: a re-read in case an event was missed. */
  drainRecheckMs: number;
}

export const DEFAULT_UPDATE_POLICY: UpdatePolicy = {
  firstCheckAfterMs: 10_000,
  intervalMs: 24 * 3600_000,
  retryAfterErrorMs: 3600_000,
  tickMs: 15 * 60_000,
  drainRecheckMs: 5_000,
};

export interface UpdateControllerOptions {
  updater: UpdaterPort;
  drain: OutboxDrain;
  timers?: UpdateTimers;
  policy?: Partial<UpdatePolicy>;
  /** Every change of the view (the core sends it as `update.state`). */
  onChange?: (view: UpdateView) => void;
  log?: (e: unknown) => void;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 300);

export class UpdateController {
  private state: UpdateView = { state: 'idle', lastCheckAt: null };
  private lastCheckAt: number | null = null;
  private readonly timers: UpdateTimers;
  private readonly policy: UpdatePolicy;
  private readonly log: (e: unknown) => void;
  private readonly stops: (() => void)[] = [];
  private stopWatching: (() => void) | null = null;
  private started = false;
  private stopped = false;

  constructor(private readonly o: UpdateControllerOptions) {
    this.timers = o.timers ?? systemTimers;
    this.policy = { ...DEFAULT_UPDATE_POLICY, ...o.policy };
    this.log = o.log ?? ((e) => console.error('stockroom: update:', e));
  }

  view(): UpdateView {
    return this.state;
  }

  /** The schedule: a first check shortly after start, then whenever the last one is a day old. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.stops.push(this.o.updater.subscribe((e) => this.onUpdater(e)));
    this.stops.push(this.timers.after(this.policy.firstCheckAfterMs, () => void this.check()));
    this.stops.push(
      this.timers.every(this.policy.tickMs, () => {
        if (this.lastCheckAt === null) return;
        const wait = this.state.state === 'error' ? this.policy.retryAfterErrorMs : this.policy.intervalMs;
        if (this.timers.now() - this.lastCheckAt >= wait) void this.check();
      }),
    );
  }

  /**
   * Asks the feed now, unless a check or a download is under way or an update already waits for
   * its restart (the next start checks again). Resolves with the view once the check answered.
   */
  async check(): Promise<UpdateView> {
    const s = this.state.state;
    if (this.stopped || s === 'checking' || s === 'downloading' || s === 'ready' || s === 'installing') return this.state;
    this.lastCheckAt = this.timers.now();
    this.set({ state: 'checking' });
    try {
      await this.o.updater.check();
    } catch (e) {
      this.fail('check', e);
      return this.state;
    }
    // No event said what the feed had (nothing newer, or an updater that is not active here).
    if (this.view().state === 'checking') this.set({ state: 'idle', lastCheckAt: this.lastCheckAt });
    return this.state;
  }

  /**
   * The person agrees to restart. Installs now when nothing is going out; otherwise the view says
   * how many changes it waits for, and the install happens as soon as they are sent. False when no
   * update is ready.
   */
  install(): boolean {
    if (this.state.state === 'installing') return true;
    if (this.state.state !== 'ready' || this.stopped) return false;
    this.set({ ...this.state, restartRequested: true });
    this.installWhenDrained();
    return true;
  }

  stop(): void {
    this.stopped = true;
    this.unwatch();
    for (const s of this.stops.splice(0)) s();
  }

  private installWhenDrained(): void {
    const s = this.state;
    if (s.state !== 'ready' || !s.restartRequested || this.stopped) return;
    const waitingFor = this.o.drain.outstanding();
    if (waitingFor > 0) {
      if (waitingFor !== s.waitingFor) this.set({ ...s, waitingFor });
      this.watch();
      return;
    }
    this.unwatch();
    this.set({ state: 'installing', version: s.version });
    try {
      this.o.updater.quitAndInstall();
    } catch (e) {
      this.fail('install', e);
    }
  }

  private watch(): void {
    if (this.stopWatching) return;
    const offChange = this.o.drain.onChange(() => this.installWhenDrained());
    const offTimer = this.timers.every(this.policy.drainRecheckMs, () => this.installWhenDrained());
    this.stopWatching = () => {
      offChange();
      offTimer();
    };
  }

  private unwatch(): void {
    this.stopWatching?.();
    this.stopWatching = null;
  }

  private async download(version: string): Promise<void> {
    try {
      await this.o.updater.download();
    } catch (e) {
      this.fail('download', e);
      return;
    }
    if (this.view().state === 'downloading') this.set({ state: 'ready', version, restartRequested: false, waitingFor: 0 });
  }

  private onUpdater(e: UpdaterEvent): void {
    if (this.stopped) return;
    const s = this.state;
    switch (e.type) {
      case 'available':
        if (s.state !== 'checking') return;
        this.set({ state: 'downloading', version: e.version, percent: 0, transferred: 0, total: 0 });
        void this.download(e.version);
        return;
      case 'not-available':
        if (s.state === 'checking') this.set({ state: 'idle', lastCheckAt: this.lastCheckAt });
        return;
      case 'progress':
        if (s.state === 'downloading') this.set({ ...s, percent: Math.max(0, Math.min(100, e.percent)), transferred: e.transferred, total: e.total });
        return;
      case 'downloaded':
        if (s.state === 'downloading' || s.state === 'checking') this.set({ state: 'ready', version: e.version, restartRequested: false, waitingFor: 0 });
        return;
      case 'error':
        if (s.state === 'checking') this.fail('check', e.message);
        else if (s.state === 'downloading') this.fail('download', e.message);
        else if (s.state === 'installing') this.fail('install', e.message);
        // Idle or ready: an error of no step the person waits for is only logged.
        else this.log(new Error(e.message));
        return;
    }
  }

  private fail(during: 'check' | 'download' | 'install', e: unknown): void {
    const s = this.state.state;
    const current = s === 'checking' ? 'check' : s === 'downloading' ? 'download' : s === 'installing' ? 'install' : null;
    // The updater reports one failure twice (an event, then the rejected promise): told once.
    if (current !== during) return;
    this.log(e);
    this.set({ state: 'error', message: messageOf(e), during, lastCheckAt: this.lastCheckAt });
  }

  private set(view: UpdateView): void {
    this.state = view;
    try {
      this.o.onChange?.(view);
    } catch (e) {
      this.log(e);
    }
  }
}

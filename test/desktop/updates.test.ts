/**
 * The update policy (main/desktop/updates.ts) on a fake clock: when it checks, that a found update
 * downloads by itself but installs only when the person agrees, and that the install waits for the
 * outbox to drain. The updater is a scripted port here; updates-feed.test.ts runs electron-updater
 * itself against a feed on loopback.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_UPDATE_POLICY,
  type OutboxDrain,
  UpdateController,
  type UpdateTimers,
  type UpdaterEvent,
  type UpdaterPort,
  sendsOutstanding,
} from '../../main/desktop/updates.js';
import type { StockroomEvent, UpdateView } from '../../common/contract/contract.js';
import { syncStatus } from '../support/sync-status.js';
import { failure, openCore, value } from './helpers.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** How late past its time a check may come: the schedule looks at the clock this often. */
const TICK = DEFAULT_UPDATE_POLICY.tickMs;

/** Timers on a manual clock: `advance` runs what falls due, in time order. */
function fakeTimers(): UpdateTimers & { advance(ms: number): void; pending(): number } {
  let now = Date.parse('2026-11-24T09:00:00Z');
  let seq = 0;
  const timers = new Map<number, { at: number; every: number | null; fn: () => void }>();
  const add = (ms: number, fn: () => void, every: number | null) => {
    const id = ++seq;
    timers.set(id, { at: now + ms, every, fn });
    return () => void timers.delete(id);
  };
  return {
    now: () => now,
    after: (ms, fn) => add(ms, fn, null),
    every: (ms, fn) => add(ms, fn, ms),
    pending: () => timers.size,
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= end).sort(([, a], [, b]) => a.at - b.at)[0];
        if (!due) break;
        const [id, t] = due;
        now = t.at;
        if (t.every === null) timers.delete(id);
        else t.at += t.every;
        t.fn();
      }
      now = end;
    },
  };
}

/** An updater whose feed the test sets: what a check finds, whether the download fails; calls recorded. */
function scriptedUpdater() {
  const listeners = new Set<(e: UpdaterEvent) => void>();
  const emit = (e: UpdaterEvent) => {
    for (const l of listeners) l(e);
  };
  const s = {
    calls: [] as string[],
    /** The version on the feed (null: nothing newer). */
    offers: null as string | null,
    checkFails: null as string | null,
    downloadFails: null as string | null,
    port: {
      async check() {
        s.calls.push('check');
        await Promise.resolve();
        if (s.checkFails) {
          // As electron-updater: the error event, then the rejected promise.
          emit({ type: 'error', message: s.checkFails });
          throw new Error(s.checkFails);
        }
        emit(s.offers ? { type: 'available', version: s.offers } : { type: 'not-available' });
      },
      async download() {
        s.calls.push('download');
        await Promise.resolve();
        if (s.downloadFails) {
          emit({ type: 'error', message: s.downloadFails });
          throw new Error(s.downloadFails);
        }
        emit({ type: 'progress', percent: 40, transferred: 400, total: 1000 });
        emit({ type: 'progress', percent: 100, transferred: 1000, total: 1000 });
        emit({ type: 'downloaded', version: s.offers! });
      },
      quitAndInstall: () => void s.calls.push('quitAndInstall'),
      subscribe(l) {
        listeners.add(l);
        return () => void listeners.delete(l);
      },
    } satisfies UpdaterPort,
  };
  return s;
}

/** An outbox the test fills and empties; `notify` is what the core's sync status events do. */
function fakeDrain() {
  const listeners = new Set<() => void>();
  let outstanding = 0;
  const port: OutboxDrain = {
    outstanding: () => outstanding,
    onChange(l) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
  return {
    port,
    subscribers: () => listeners.size,
    set(n: number, notify = true) {
      outstanding = n;
      if (notify) for (const l of listeners) l();
    },
  };
}

function setup() {
  const timers = fakeTimers();
  const updater = scriptedUpdater();
  const drain = fakeDrain();
  const views: UpdateView[] = [];
  const logged: unknown[] = [];
  const controller = new UpdateController({ updater: updater.port, drain: drain.port, timers, onChange: (v) => views.push(v), log: (e) => logged.push(e) });
  /** Lets the scripted promises settle (they resolve on microtasks, never on time). */
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { timers, updater, drain, views, logged, controller, settle };
}

const checks = (calls: string[]) => calls.filter((c) => c === 'check').length;

describe('the update schedule', () => {
  it('checks shortly after start, then once a day by the wall clock (within one tick)', async () => {
    const { timers, updater, controller, settle, views } = setup();
    controller.start();
    timers.advance(9_999);
    await settle();
    expect(updater.calls).toEqual([]);
    timers.advance(1);
    await settle();
    expect(updater.calls).toEqual(['check']);
    expect(views.map((v) => v.state)).toEqual(['checking', 'idle']);
    expect(controller.view()).toEqual({ state: 'idle', lastCheckAt: timers.now() });

    timers.advance(DAY - HOUR);
    await settle();
    expect(checks(updater.calls)).toBe(1);
    timers.advance(HOUR + TICK);
    await settle();
    expect(checks(updater.calls)).toBe(2);
    timers.advance(DAY + TICK);
    await settle();
    expect(checks(updater.calls)).toBe(3);
    controller.stop();
    expect(timers.pending()).toBe(0);
  });

  it('retries a failed check within the hour rather than the next day, and shows the failure as a check error', async () => {
    const { timers, updater, controller, settle, logged } = setup();
    updater.checkFails = 'getaddrinfo ENOTFOUND updates.stockroom.example';
    controller.start();
    timers.advance(10_000);
    await settle();
    expect(controller.view()).toMatchObject({ state: 'error', during: 'check', message: 'getaddrinfo ENOTFOUND updates.stockroom.example' });
    // The event and the rejected promise are one failure.
    expect(logged).toHaveLength(1);
    updater.checkFails = null;
    timers.advance(HOUR / 2);
    await settle();
    expect(checks(updater.calls)).toBe(1);
    timers.advance(HOUR / 2 + TICK);
    await settle();
    expect(checks(updater.calls)).toBe(2);
    expect(controller.view()).toMatchObject({ state: 'idle' });
    controller.stop();
  });
});

describe('downloading and installing', () => {
  it('downloads a found update in the background with its progress, and never installs it without the person', async () => {
    const { timers, updater, controller, settle, views } = setup();
    updater.offers = '1.1.0';
    controller.start();
    timers.advance(10_000);
    await settle();
    expect(updater.calls).toEqual(['check', 'download']);
    expect(views).toEqual([
      { state: 'checking' },
      { state: 'downloading', version: '1.1.0', percent: 0, transferred: 0, total: 0 },
      { state: 'downloading', version: '1.1.0', percent: 40, transferred: 400, total: 1000 },
      { state: 'downloading', version: '1.1.0', percent: 100, transferred: 1000, total: 1000 },
      { state: 'ready', version: '1.1.0', restartRequested: false, waitingFor: 0 },
    ]);
    // Days go by: the update waits for the restart; no more checks, no install.
    timers.advance(5 * DAY);
    await settle();
    expect(updater.calls).toEqual(['check', 'download']);
    expect(controller.view()).toMatchObject({ state: 'ready', restartRequested: false });
    controller.stop();
  });

  it('installs at once when the person agrees and nothing is being sent', async () => {
    const { timers, updater, controller, settle } = setup();
    updater.offers = '1.1.0';
    controller.start();
    expect(controller.install()).toBe(false);
    timers.advance(10_000);
    await settle();
    expect(controller.install()).toBe(true);
    expect(updater.calls).toEqual(['check', 'download', 'quitAndInstall']);
    expect(controller.view()).toEqual({ state: 'installing', version: '1.1.0' });
    controller.stop();
  });

  it('waits for the outbox to drain before installing, telling how many changes it waits for', async () => {
    const { timers, updater, drain, controller, settle, views } = setup();
    updater.offers = '1.1.0';
    controller.start();
    timers.advance(10_000);
    await settle();
    drain.set(3);
    expect(controller.install()).toBe(true);
    expect(controller.view()).toEqual({ state: 'ready', version: '1.1.0', restartRequested: true, waitingFor: 3 });
    drain.set(1);
    expect(controller.view()).toMatchObject({ waitingFor: 1 });
    // Hours of sending: still no install.
    timers.advance(3 * HOUR);
    expect(updater.calls).not.toContain('quitAndInstall');
    drain.set(0);
    expect(updater.calls.filter((c) => c === 'quitAndInstall')).toHaveLength(1);
    expect(views.at(-1)).toEqual({ state: 'installing', version: '1.1.0' });
    expect(drain.subscribers()).toBe(0);
    // A later event does not install twice.
    drain.set(0);
    expect(updater.calls.filter((c) => c === 'quitAndInstall')).toHaveLength(1);
    controller.stop();
  });

  it('re-reads the outbox now and then while waiting, in case an event was missed', async () => {
    const { timers, updater, drain, controller, settle } = setup();
    updater.offers = '1.1.0';
    controller.start();
    timers.advance(10_000);
    await settle();
    drain.set(2);
    controller.install();
    drain.set(0, false);
    expect(updater.calls).not.toContain('quitAndInstall');
    timers.advance(5_000);
    expect(updater.calls).toContain('quitAndInstall');
    controller.stop();
  });

  it('shows a failed download as a download error, with nothing to install', async () => {
    const { timers, updater, controller, settle } = setup();
    updater.offers = '1.1.0';
    updater.downloadFails = 'sha512 checksum mismatch, expected abc, got def';
    controller.start();
    timers.advance(10_000);
    await settle();
    expect(controller.view()).toMatchObject({ state: 'error', during: 'download', message: 'sha512 checksum mismatch, expected abc, got def' });
    expect(controller.install()).toBe(false);
    expect(updater.calls).not.toContain('quitAndInstall');
    controller.stop();
  });
});

describe('what counts as still sending', () => {
  const status = syncStatus;
  it('counts what is on the wire, and what is queued while the marketplace is reachable; not conflicts, failures or offline queues', () => {
    expect(sendsOutstanding(null)).toBe(0);
    expect(sendsOutstanding(status({ pending: 2, inFlight: 1 }))).toBe(3);
    expect(sendsOutstanding(status({ online: false, pending: 5, inFlight: 1 }))).toBe(1);
    expect(sendsOutstanding(status({ mode: 'offline', online: false, pending: 5 }))).toBe(0);
    expect(sendsOutstanding(status({ conflicts: 2, failed: 1, blocked: 4 }))).toBe(0);
  });
});

describe('the core: `updates.*` calls and `update.state` events', () => {
  it('says updates are off where there is no feed', async () => {
    const c = await openCore();
    try {
      expect(value(await c.core.api.updates.status())).toEqual({ state: 'off' });
      expect(failure(await c.core.api.updates.check()).code).toBe('unsupported');
      expect(failure(await c.core.api.updates.install()).code).toBe('unsupported');
    } finally {
      await c.close();
    }
  });

  it('checks on request, sends each state as an event, installs when asked, and stops its timers when it closes', async () => {
    const timers = fakeTimers();
    const updater = scriptedUpdater();
    updater.offers = '2.0.0';
    const c = await openCore({ updates: { updater: updater.port, timers } });
    const events: StockroomEvent[] = [];
    c.core.events.on('event', (e) => events.push(e));
    try {
      expect(value(await c.core.api.updates.status())).toEqual({ state: 'idle', lastCheckAt: null });
      expect(failure(await c.core.api.updates.install()).code).toBe('not_found');
      value(await c.core.api.updates.check());
      for (let i = 0; i < 10; i++) await Promise.resolve();
      expect(value(await c.core.api.updates.status())).toEqual({ state: 'ready', version: '2.0.0', restartRequested: false, waitingFor: 0 });
      expect(events.filter((e) => e.type === 'update.state').map((e) => e.type === 'update.state' && e.update.state)).toEqual([
        'checking',
        'downloading',
        'downloading',
        'downloading',
        'ready',
      ]);
      // Local only: nothing is ever sent, so the install happens at once.
      expect(value(await c.core.api.updates.install())).toEqual({ state: 'installing', version: '2.0.0' });
      expect(updater.calls).toEqual(['check', 'download', 'quitAndInstall']);
    } finally {
      await c.close();
    }
    expect(timers.pending()).toBe(0);
  });
});

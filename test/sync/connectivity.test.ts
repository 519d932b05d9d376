import { afterEach, describe, expect, it } from 'vitest';
import { Connectivity } from '../../main/sync/connectivity.js';
import { manualClock } from '../support/messages.js';
import { waitFor } from '../support/wait.js';

/**
 * The Connectivity class on its own: every probe is held by the test until it answers it, the
 * silence of the requests out is what the test says, and `since` is read off a manual clock.
 */
function harness(o: { silent?: number } = {}) {
  const clock = manualClock('2026-11-27T10:32:00.000Z');
  const probes: ((answered: boolean) => void)[] = [];
  const events: string[] = [];
  const state = { silent: o.silent ?? 0, silentReads: 0, active: true };
  const c = new Connectivity({ offlineProbeMinMs: 1, offlineProbeMaxMs: 4, stallMs: 30 }, clock, {
    reach: () => new Promise<boolean>((resolve) => probes.push(resolve)),
    silentForMs: () => {
      state.silentReads++;
      return state.silent;
    },
    active: () => state.active,
    gone: (reason) => events.push(`gone: ${reason}`),
    back: () => events.push('back'),
  });
  /** Answers the next probe that is out (waits for it to be asked). */
  const answer = async (answered: boolean) => {
    await waitFor(() => probes.length > 0, 'a probe of the remote');
    probes.shift()!(answered);
  };
  return { clock, c, probes, events, state, answer };
}

let stopAll: (() => void)[] = [];
afterEach(() => {
  for (const s of stopAll) s();
  stopAll = [];
});

describe('Connectivity', () => {
  it('a transport failure is checked with two probes at once: one answer keeps it online, and costs the request an attempt', async () => {
    const h = harness();
    h.c.suspect('request failed: other side closed (UND_ERR_SOCKET)');
    h.c.suspect('a second failure joins the check in progress');
    expect(h.probes.length).toBe(2);
    const verdict = h.c.verdict();
    h.probes.shift()!(false);
    h.probes.shift()!(true);
    expect(await verdict).toBe(true);
    expect(h.c.isOnline).toBe(true);
    expect(h.c.since).toBeNull();
    expect(h.events).toEqual([]);
  });

  it('no answer to the check: unreachable since the failure was noticed, probing on until the remote answers, then back', async () => {
    const h = harness();
    h.c.suspect('request failed: other side closed (UND_ERR_SOCKET)');
    const noticed = h.clock.now();
    const verdict = h.c.verdict();
    // The check takes its time (up to the probe's deadline): `since` is when the trouble began.
    h.clock.advance(3000);
    h.probes.shift()!(false);
    h.probes.shift()!(false);
    expect(await verdict).toBe(false);
    expect(h.c.isOnline).toBe(false);
    expect(h.c.since).toBe(noticed);
    expect(h.events).toEqual(['gone: request failed: other side closed (UND_ERR_SOCKET)']);
    // Lost already: a refused connection now is no news, and a failure while lost needs no check.
    expect(h.c.lost('remote unreachable (ECONNREFUSED)')).toBe(false);
    expect(await h.c.verdict()).toBe(false);
    // The probe goes on (its own short backoff) while nothing answers.
    await h.answer(false);
    await h.answer(false);
    await h.answer(true);
    await waitFor(() => h.events.includes('back'), 'back online');
    expect(h.c.isOnline).toBe(true);
    expect(h.c.since).toBeNull();
    expect(h.events).toEqual(['gone: request failed: other side closed (UND_ERR_SOCKET)', 'back']);
  });

  it('a refused connection is unreachable at once, since now', async () => {
    const h = harness();
    expect(h.c.lost('remote unreachable (ECONNREFUSED)')).toBe(true);
    expect(h.c.since).toBe(h.clock.now());
    expect(h.events).toEqual(['gone: remote unreachable (ECONNREFUSED)']);
    await h.answer(true);
    await waitFor(() => h.c.isOnline, 'back online');
  });

  it('requests out with nothing heard for stallMs: the watch checks; shorter silences are left alone', async () => {
    const h = harness({ silent: 29 });
    h.c.start();
    stopAll.push(() => h.c.stop());
    // Three looks at a silence under stallMs (each tick reads it) and no probe.
    await waitFor(() => h.state.silentReads >= 3, 'three ticks of the watch');
    expect(h.probes.length).toBe(0);
    h.state.silent = 30;
    await waitFor(() => h.probes.length === 2, 'the check of a black hole');
    const noticed = h.clock.now();
    h.clock.advance(60_000);
    h.probes.shift()!(false);
    h.probes.shift()!(false);
    await waitFor(() => !h.c.isOnline, 'unreachable');
    expect(h.c.since).toBe(noticed);
    expect(h.events).toEqual(['gone: no answer for 30 ms']);
  });

  it('the engine not running: a failure starts no probe and no check', async () => {
    const h = harness({ silent: 1000 });
    h.state.active = false;
    h.c.start();
    h.c.suspect('reset');
    expect(h.probes.length).toBe(0);
    expect(await h.c.verdict()).toBe(true);
  });
});

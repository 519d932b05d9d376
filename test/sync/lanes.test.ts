import { describe, expect, it } from 'vitest';
import type { LaneEntry } from '../../main/db/repos/sync.js';
import { laneCounts, laneHead } from '../../main/sync/lanes.js';

/** The lane rules alone: no SQLite, no network, a number for "now". */
const NOW = 1_000;
let nextId = 1;
const stock = (cell: 'a' | 'b', state: LaneEntry['state'], at = 0, onWire = 0): LaneEntry => ({
  id: nextId++,
  kind: 'stock',
  state,
  cell,
  next_attempt_at: at,
  on_wire: onWire,
});
const message = (state: LaneEntry['state'], at = 0): LaneEntry => ({ id: nextId++, kind: 'message', state, cell: null, next_attempt_at: at, on_wire: 0 });

describe('laneHead', () => {
  it('sends the oldest due entry; one at a time per lane', () => {
    const rows = [stock('a', 'pending'), stock('b', 'pending')];
    expect(laneHead(rows, NOW)).toEqual({ type: 'ready', row: rows[0] });
    expect(laneHead([stock('a', 'in_flight'), stock('b', 'pending')], NOW)).toEqual({ type: 'busy' });
    expect(laneHead([], NOW)).toEqual({ type: 'idle' });
  });

  it('a stock entry in conflict, failed or backing off holds back only its own cell', () => {
    for (const state of ['conflict', 'failed'] as const) {
      const rows = [stock('a', state), stock('a', 'pending'), stock('b', 'pending')];
      expect(laneHead(rows, NOW)).toEqual({ type: 'ready', row: rows[2] });
    }
    const backingOff = [stock('a', 'pending', NOW + 500), stock('a', 'pending'), stock('b', 'pending')];
    expect(laneHead(backingOff, NOW)).toEqual({ type: 'ready', row: backingOff[2] });
  });

  it('an entry backing off with a request outstanding holds the whole product: it goes first, under its key', () => {
    const rows = [stock('a', 'pending', NOW + 500, 1), stock('b', 'pending')];
    expect(laneHead(rows, NOW)).toEqual({ type: 'wait', at: NOW + 500 });
    expect(laneHead(rows, NOW + 500)).toEqual({ type: 'ready', row: rows[0] });
  });

  it('waits for the earliest backoff when nothing is due', () => {
    expect(laneHead([stock('a', 'pending', NOW + 500), stock('b', 'pending', NOW + 200)], NOW)).toEqual({ type: 'wait', at: NOW + 200 });
    expect(laneHead([stock('a', 'failed'), stock('a', 'pending')], NOW)).toEqual({ type: 'idle' });
  });

  it('a conversation keeps its order: a failed or waiting message holds back the rest', () => {
    expect(laneHead([message('failed'), message('pending')], NOW)).toEqual({ type: 'idle' });
    expect(laneHead([message('pending', NOW + 50), message('pending')], NOW)).toEqual({ type: 'wait', at: NOW + 50 });
  });
});

describe('a request that may be at the marketplace holds its whole product (found by the model-based test)', () => {
  it('an entry waiting to be resent goes first, before earlier entries of other cells never sent', () => {
    const earlier = stock('a', 'pending');
    const resend = stock('b', 'pending', NOW - 1, 1);
    expect(laneHead([earlier, resend], NOW)).toEqual({ type: 'ready', row: resend });
    expect(laneHead([earlier, stock('b', 'pending', NOW + 50, 1)], NOW)).toEqual({ type: 'wait', at: NOW + 50 });
  });

  it('an entry of unknown outcome holds every cell of the product until the person acts, and they count as waiting for you', () => {
    const rows = [stock('a', 'failed', 0, 1), stock('b', 'pending'), stock('b', 'pending')];
    expect(laneHead(rows, NOW)).toEqual({ type: 'idle' });
    expect(laneCounts(rows)).toMatchObject({ failed: 1, unknown: 1, blocked: 2 });
    // Refused (nothing out there): only its own cell waits.
    const refused = [stock('a', 'failed'), stock('b', 'pending')];
    expect(laneHead(refused, NOW)).toEqual({ type: 'ready', row: refused[1] });
  });
});

describe('laneCounts', () => {
  it('counts pending entries behind a conflict or a failure of their cell as blocked', () => {
    const counts = laneCounts([
      stock('a', 'conflict'),
      stock('a', 'pending'),
      stock('a', 'pending'),
      stock('b', 'pending', NOW + 9_000),
      stock('b', 'in_flight'),
    ]);
    expect(counts).toMatchObject({ conflict: 1, pending: 3, blocked: 2, in_flight: 1 });
  });

  it('counts a failed entry whose request may have been applied as of unknown outcome (a part of failed)', () => {
    const counts = laneCounts([stock('a', 'failed', 0, 1), stock('b', 'failed'), stock('b', 'pending')]);
    expect(counts).toMatchObject({ failed: 2, unknown: 1, blocked: 1 });
  });

  it('an entry before the failure is not blocked; every message after a failed one is', () => {
    expect(laneCounts([stock('a', 'pending'), stock('a', 'failed')]).blocked).toBe(0);
    expect(laneCounts([message('pending'), message('failed'), message('pending'), message('pending')]).blocked).toBe(2);
  });
});

describe('a transfer holds and is held by both of its cells (issue 14 §5)', () => {
  const transfer = (state: LaneEntry['state'], at = 0): LaneEntry => ({ ...stock('a', state, at), cell2: 'b' });
  const c = (state: LaneEntry['state']): LaneEntry => ({ ...stock('a', state), cell: 'c' });

  it('waits behind a failed entry of its second cell, and then holds its first cell too', () => {
    const rows = [stock('b', 'failed'), transfer('pending'), stock('a', 'pending'), c('pending')];
    // The transfer is held by b; a later entry of a must not overtake it; c goes on.
    expect(laneHead(rows, NOW)).toEqual({ type: 'ready', row: rows[3] });
    expect(laneCounts(rows)).toMatchObject({ failed: 1, pending: 3, blocked: 2 });
  });

  it('a failed transfer holds both cells; entries of other cells go on', () => {
    const rows = [transfer('failed'), stock('a', 'pending'), stock('b', 'pending'), c('pending')];
    expect(laneHead(rows, NOW)).toEqual({ type: 'ready', row: rows[3] });
    expect(laneCounts(rows)).toMatchObject({ failed: 1, blocked: 2 });
  });

  it('a transfer backing off holds both cells', () => {
    const rows = [transfer('pending', NOW + 500), stock('b', 'pending'), stock('a', 'pending')];
    expect(laneHead(rows, NOW)).toEqual({ type: 'wait', at: NOW + 500 });
  });
});

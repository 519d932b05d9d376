import { describe, expect, it } from 'vitest';
import { type Effect, SpellWatch } from '../../main/sync/settle.js';

const done: Effect = { type: 'done', replayed: false, refresh: null };
const retry: Effect = { type: 'retry', status: 503, error: 'busy', delayMs: 4000 };

describe('SpellWatch: when the remote is back after a bad spell', () => {
  it('a success after failures with no success for the quiet time ends a spell', () => {
    const w = new SpellWatch(1000);
    expect(w.observe([retry], 10)).toBe(false);
    expect(w.observe([retry, retry], 20)).toBe(false);
    expect(w.observe([done], 30)).toBe(true);
    // Over: the next success alone is not a recovery.
    expect(w.observe([done], 40)).toBe(false);
  });

  it('a lane failing while others keep succeeding is not a bad spell', () => {
    const w = new SpellWatch(1000);
    expect(w.observe([done], 0)).toBe(false);
    expect(w.observe([retry], 100)).toBe(false);
    expect(w.observe([done], 200)).toBe(false);
    expect(w.observe([retry], 300)).toBe(false);
    // Nothing succeeded for 1,000 ms: the remote was down for everyone.
    expect(w.observe([done], 1300)).toBe(true);
  });

  it('a probe that reached the remote ends it too', () => {
    const w = new SpellWatch(1000);
    w.observe([retry], 0);
    w.reset();
    expect(w.observe([done], 5000)).toBe(false);
  });
});

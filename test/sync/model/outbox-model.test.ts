import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outboxProperty } from './harness/run.js';
import { emptyFigures } from './harness/system.js';

/**
 * The outbox's model-based test (issue 24): random programs of a person's edits, undos, count
 * sessions, imports and messages, sales on the marketplace, network faults, restarts and SIGKILLs
 * of the app's process, driving the real engine (a child process on a real replica file) against
 * a real remote through the fault proxy, checked after every step and at every settle against
 * the reference model (harness/model.ts). A fixed seed and a bounded budget here; `npm run soak`
 * runs thousands.
 */
describe('the outbox against its reference model', () => {
  it('loses nothing the person was told was saved, applies nothing twice, and shows what the model says', async () => {
    const figures = emptyFigures();
    await fc.assert(outboxProperty(figures, 14), { numRuns: 4, seed: 2026_11_27, endOnFailure: true });
    expect(figures.violations).toEqual([]);
    expect(figures.programs).toBe(4);
  }, 600_000);
});

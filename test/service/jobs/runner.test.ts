import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase } from '../../../main/db/open.js';
import { JobRunner } from '../../../main/service/jobs/runner.js';

const manualClock = (start = 1_000_000) => {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
};
const states = (db: ReturnType<typeof openDatabase>) =>
  db.prepare('SELECT state, attempts, last_error FROM jobs ORDER BY id').all() as { state: string; attempts: number; last_error: string | null }[];

describe('JobRunner', () => {
  it('a job enqueued in a committed transaction survives a restart and runs then', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'jobs-')), 'j.db');
    const clock = manualClock();
    const first = openDatabase(file);
    const runner = new JobRunner(first, { clock });
    first.transaction(() => runner.enqueue('note', { text: 'hello' }))();
    first.close(); // the process "dies" before running it

    const db = openDatabase(file);
    const seen: string[] = [];
    const again = new JobRunner(db, { clock });
    again.register({ kind: 'note', schema: z.object({ text: z.string() }), run: ({ text }) => void seen.push(text) });
    await again.drain();
    expect(seen).toEqual(['hello']);
    expect(states(db)).toEqual([{ state: 'done', attempts: 1, last_error: null }]);
  });

  it('a job rolled back with its transaction never exists', () => {
    const db = openDatabase(':memory:');
    const runner = new JobRunner(db, { clock: manualClock() });
    expect(() =>
      db.transaction(() => {
        runner.enqueue('note', {});
        throw new Error('change refused');
      })(),
    ).toThrow('change refused');
    expect(states(db)).toEqual([]);
  });

  it('retries a failing job with backoff, then marks it failed with the error', async () => {
    const db = openDatabase(':memory:');
    const clock = manualClock();
    const runner = new JobRunner(db, { clock, backoffMs: 100 });
    let calls = 0;
    runner.register({
      kind: 'flaky',
      schema: z.object({}),
      maxAttempts: 3,
      run: () => {
        calls++;
        throw new Error('disk busy');
      },
    });
    runner.enqueue('flaky', {});
    await runner.drain();
    expect(calls).toBe(1);
    expect(states(db)[0]).toMatchObject({ state: 'pending', attempts: 1, last_error: 'disk busy' });
    clock.advance(10_000);
    await runner.drain();
    clock.advance(10_000);
    await runner.drain();
    expect(calls).toBe(3);
    expect(states(db)[0]).toMatchObject({ state: 'failed', attempts: 3, last_error: 'disk busy' });
  });

  it('a payload that does not match its schema fails instead of running', async () => {
    const db = openDatabase(':memory:');
    const runner = new JobRunner(db, { clock: manualClock() });
    let ran = false;
    runner.register({ kind: 'typed', schema: z.object({ id: z.string() }), run: () => void (ran = true) });
    runner.enqueue('typed', { id: 42 });
    await runner.drain();
    expect(ran).toBe(false);
    expect(states(db)[0]!.state).toBe('failed');
    expect(states(db)[0]!.last_error).toMatch(/invalid payload/);
  });

  it('a delayed job waits for its time', async () => {
    const db = openDatabase(':memory:');
    const clock = manualClock();
    const runner = new JobRunner(db, { clock });
    let ran = 0;
    runner.register({ kind: 'later', schema: z.object({}), run: () => void ran++ });
    runner.enqueue('later', {}, 60_000);
    await runner.drain();
    expect(ran).toBe(0);
    clock.advance(60_000);
    await runner.drain();
    expect(ran).toBe(1);
  });

  it('once started, runs enqueued jobs without being asked', async () => {
    const db = openDatabase(':memory:');
    const runner = new JobRunner(db, { clock: { now: () => Date.now() }, pollMs: 20 });
    const done = new Promise<string>((resolve) => runner.register({ kind: 'ping', schema: z.object({ v: z.string() }), run: ({ v }) => resolve(v) }));
    runner.start();
    runner.enqueue('ping', { v: 'pong' });
    expect(await done).toBe('pong');
    await runner.stop();
  });
});

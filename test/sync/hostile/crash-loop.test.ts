import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileMode, type HostileRemote, startHostileRemote } from '../../support/hostile-remote.js';
import { type Replica, newReplica } from '../../support/sync-harness.js';

/**
 * Issue 25 §1-2: a hostile marketplace must not crash the app, blow up its memory, nor make it
 * crash at every start. The engine runs in a real child process that pulls at start, as the app
 * does; its resident memory is sampled while it pulls. After each attack the same replica starts
 * again against a sane remote and pulls: the app opens again.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const RSS_LIMIT = 600 * 1024 * 1024;

interface ChildRun {
  code: number | null;
  outcome: string;
  rss: number;
  stderr: string;
}

function runChild(remote: HostileRemote, replica: Replica): Promise<ChildRun> {
  const config = { replicaDir: replica.dir, url: remote.url, token: remote.token, sellerId: remote.sellerId };
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/hostile-child.ts', JSON.stringify(config)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      const outcome = /^(pulled|failed .*)$/m.exec(stdout)?.[1] ?? `no outcome: ${stdout}`;
      resolve({ code, outcome, rss: Number(/^rss (\d+)$/m.exec(stdout)?.[1] ?? NaN), stderr });
    }),
  );
}

describe('a hostile marketplace, against the engine in a child process', () => {
  let remote: HostileRemote;
  beforeAll(async () => {
    remote = await startHostileRemote();
  });
  afterAll(async () => {
    await remote.close();
  });

  const attacks: [HostileMode, RegExp][] = [
    ['huge-total', /PullError: GET \/users\/7001\/items\/search: the marketplace announced 1000000000 entries, more than the 1000000/],
    ['endless-pages', /PullError: GET \/users\/7001\/stores\/search: the marketplace kept paging past the 100 entries it announced/],
    ['huge-body', /PullError: GET \/users\/7001: the answer is larger than the 8388608 bytes accepted/],
    ['endless-body', /PullError: GET \/users\/7001: the answer is larger than the 8388608 bytes accepted/],
  ];

  for (const [mode, error] of attacks) {
    it(`${mode}: the pull ends with a clear error, memory stays bounded, and the app opens and pulls again`, async () => {
      const replica = newReplica();
      replica.close();
      try {
        remote.set(mode);
        remote.hits.clear();
        const attacked = await runChild(remote, replica);
        expect(attacked.stderr).not.toMatch(/child failed|FATAL|heap/i);
        expect(attacked.code).toBe(0);
        expect(attacked.outcome).toMatch(error);
        expect(attacked.rss).toBeLessThan(RSS_LIMIT);
        // Bounded work: a handful of requests, not one per announced page.
        expect([...remote.hits.values()].reduce((a, b) => a + b, 0)).toBeLessThan(50);

        remote.set('normal');
        const again = await runChild(remote, replica);
        expect(again.code).toBe(0);
        expect(again.outcome).toBe('pulled');
      } finally {
        replica.remove();
      }
    });
  }
});

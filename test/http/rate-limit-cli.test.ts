/**
 * `npm run serve -- --rate-limit` and STOCKROOM_RATE_LIMIT in a real child process (the
 * integration tier): the limits apply, the flag wins over the variable, and a bad value stops the
 * start with one line. The buckets themselves are tested on a fake clock in rate-limit.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_ENV } from '../../main/http/rate-limit.js';
import { demo } from '../support/fixtures.js';
import { runCli, spawnServer } from '../support/process.js';
import { client, errorBody } from '../support/server.js';
import { waitFor } from '../support/wait.js';

const stockPath = `/user-products/${demo.userProducts.termo}/stock`;
const withEnv = (value: string | undefined): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  if (value === undefined) delete env[RATE_LIMIT_ENV];
  else env[RATE_LIMIT_ENV] = value;
  return env;
};

describe('npm run serve -- --rate-limit', () => {
  // One request a minute: the second comes long before the bucket could refill (a refill would
  // take the whole minute, twice the test's own time limit).
  it('limits what it names and says so in its start line', async () => {
    const child = await spawnServer(['--port', '0', '--rate-limit', 'stock=1/min,messages-read=500/min'], 15_000, withEnv(undefined));
    try {
      await waitFor(() => child.output().includes('rate limits: stock=1/min,messages-read=500/min'), 'the start line');
      const seller = client(child.url, demo.seller.token);
      expect((await seller.get(stockPath)).status).toBe(200);
      const refused = await seller.get(stockPath);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(errorBody(refused).error).toBe('local_rate_limited');
      // Not named: not limited.
      for (let i = 0; i < 5; i++) expect((await seller.get(`/users/${demo.seller.id}`)).status).toBe(200);
    } finally {
      await child.stop();
    }
  });

  it('takes the limits from STOCKROOM_RATE_LIMIT, and the flag over it', async () => {
    const fromEnv = await spawnServer(['--port', '0'], 15_000, withEnv('stock=1/min'));
    try {
      const seller = client(fromEnv.url, demo.seller.token);
      expect((await seller.get(stockPath)).status).toBe(200);
      expect((await seller.get(stockPath)).status).toBe(429);
    } finally {
      await fromEnv.stop();
    }
    const flagWins = await spawnServer(['--port', '0', '--rate-limit', 'messages-write=1/min'], 15_000, withEnv('stock=1/min'));
    try {
      const seller = client(flagWins.url, demo.seller.token);
      for (let i = 0; i < 3; i++) expect((await seller.get(stockPath)).status).toBe(200);
    } finally {
      await flagWins.stop();
    }
  });

  it.each([
    [['--rate-limit', 'stock=fast'], undefined, "serve: --rate-limit: 'stock=fast' is not resource=N/min or resource=N/s"],
    [['--rate-limit', 'orders=10/s'], undefined, "serve: --rate-limit: unknown resource 'orders'"],
    [['--rate-limit=stock=0/min'], undefined, 'serve: --rate-limit: stock must allow 1 to 1000000 requests, got 0'],
    [[], 'stock=100/hour', `serve: ${RATE_LIMIT_ENV}: 'stock=100/hour' is not resource=N/min`],
  ])('refuses %j (variable %j) at start, in one line', async (args, env, line) => {
    const r = await runCli(['--port', '0', ...args], 15_000, withEnv(env));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.startsWith(line)).toBe(true);
  });
});

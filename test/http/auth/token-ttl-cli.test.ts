/** `npm run serve -- --token-ttl`, in a real child process (the integration tier). */
import { describe, expect, it } from 'vitest';
import { demo } from '../../support/fixtures.js';
import { codeFlow } from '../../support/oauth.js';
import { runCli, spawnServer } from '../../support/process.js';
import { client, errorBody } from '../../support/server.js';
import { waitFor } from '../../support/wait.js';

const userPath = `/users/${demo.seller.id}`;

describe('npm run serve -- --token-ttl', () => {
  it('sets the lifetime of issued access tokens', async () => {
    const child = await spawnServer(['--port', '0', '--token-ttl', '1']);
    try {
      const issuedBefore = Date.now();
      const { res } = await codeFlow(child.url, { clientId: demo.app });
      expect(res.status).toBe(200);
      expect(res.body.expires_in).toBe(1);
      const c = client(child.url, res.body.access_token);
      expect((await c.get(userPath)).status).toBe(200);
      // The child's clock is the machine's: wait for the token to stop working, then check it
      // lived its second (it cannot have stopped before a second after it was issued).
      const expired = await waitFor(
        async () => {
          const r = await c.get(userPath);
          return r.status === 401 && r;
        },
        'the 1 s token to expire',
        20_000,
        25,
      );
      expect(Date.now() - issuedBefore).toBeGreaterThanOrEqual(1000);
      expect(expired.status).toBe(401);
      expect(errorBody(expired).message).toBe('Access token expired');
      // The fixture token of the same server keeps working.
      expect((await client(child.url, demo.seller.token).get(userPath)).status).toBe(200);
    } finally {
      await child.stop();
    }
  });

  it('defaults to 6 hours', async () => {
    const child = await spawnServer(['--port', '0']);
    try {
      const { res } = await codeFlow(child.url, { clientId: demo.app });
      expect(res.body.expires_in).toBe(21600);
    } finally {
      await child.stop();
    }
  });

  it.each([['abc'], ['0'], ['-5'], ['1.5']])('rejects --token-ttl %s', async (value) => {
    const r = await runCli(['--port', '0', `--token-ttl=${value}`]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--token-ttl must be a whole number of seconds');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { FAST_RETRY } from '../support/sync-harness.js';
import { openCore, value } from './helpers.js';

/**
 * The marketplace limits requests per application (issue 29), so the accounts a desktop process
 * signs in to with the same application spend one request budget: a switch to another seller
 * (and back) keeps what was spent and what a 429 taught, while another application has its own.
 */
let remote: TestServer;
beforeAll(async () => {
  remote = await startTestServer();
});
afterAll(async () => {
  await remote.close();
});

describe('one request budget per marketplace application', () => {
  it('is shared by the accounts of the same application across switches, and not by another application', async () => {
    const c = await openCore({ engine: { pollIntervalMs: 0, pullOnStart: false, retry: FAST_RETRY } });
    const api = c.core.api;
    try {
      const seller = { baseUrl: remote.url, applicationId: demo.app, mode: 'offline' as const };
      value(await api.settings.update({ ...seller, userId: demo.seller.id, accessToken: demo.seller.token }));
      const first = c.core.budget()!;
      expect(first.perMinute('stock')).toBe(100);
      // A 429 from the marketplace (another install of the application) shrinks the application's rate.
      first.throttled('stock', 0);
      const shrunk = first.perMinute('stock');
      expect(shrunk).toBeLessThan(100);

      value(await api.settings.update({ ...seller, userId: demo.other.id, accessToken: demo.other.token }));
      expect(c.core.status()).not.toBeNull();
      const other = c.core.budget()!;
      expect(other).toBe(first);
      expect(other.perMinute('stock')).toBe(shrunk);

      // Another application on the same marketplace is limited apart.
      value(await api.settings.update({ ...seller, applicationId: demo.app + 1, userId: demo.seller.id, accessToken: demo.seller.token }));
      const apart = c.core.budget()!;
      expect(apart).not.toBe(first);
      expect(apart.perMinute('stock')).toBe(100);

      // And back: the first application's budget as it was left.
      value(await api.settings.update({ ...seller, userId: demo.seller.id, accessToken: demo.seller.token }));
      expect(c.core.budget()).toBe(first);
    } finally {
      await c.close();
    }
  });
});

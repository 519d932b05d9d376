import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { demo } from './fixtures.js';
import { type Client, type TestServer, startTestServer } from './server.js';

/** A test server and the demo parties signed in on it (each a client sending its bearer token). */
export interface SignedInSeller {
  /** The server of the current test (or of the file): its url, its database, `as(token)`. */
  readonly server: TestServer;
  /** The demo seller, signed in: who sends most of the HTTP API tests' requests. */
  seller(): Client;
  /** The demo buyer of the demo orders, signed in: the other party of a conversation. */
  buyer(): Client;
}

/**
 * The HTTP API tests' usual setup, written out in each of them before: a real server
 * (`startTestServer`, or what `start` starts) before each test, or once for the file with
 * `per: 'file'`, closed after it, and the demo seller signed in on it. Call it at the top of a
 * test file; the tests then read `api.server`, `api.seller()` and `api.buyer()`.
 */
export function serverWithSeller(start: () => Promise<TestServer> = () => startTestServer(), per: 'test' | 'file' = 'test'): SignedInSeller {
  let running: TestServer | undefined;
  (per === 'test' ? beforeEach : beforeAll)(async () => {
    running = await start();
  });
  (per === 'test' ? afterEach : afterAll)(async () => {
    await running?.close();
    running = undefined;
  });
  const server = (): TestServer => {
    if (!running) throw new Error('the test server runs only inside a test (serverWithSeller starts it in a before hook)');
    return running;
  };
  return {
    get server() {
      return server();
    },
    seller: () => server().as(demo.seller.token),
    buyer: () => server().as(demo.buyer.token),
  };
}

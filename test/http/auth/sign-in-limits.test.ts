import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPkce } from '../../../main/sync/auth/pkce.js';
import { demo } from '../../support/fixtures.js';
import { BROWSER_ACCEPT, authorizationUrl, demoPassword, manualClock } from '../../support/oauth.js';
import { type TestServer, startTestServer } from '../../support/server.js';

/**
 * Sign-in lockout (issue 25): 20 wrong passwords on made-up names locked every user of the
 * application out for 15 minutes, right password included. Now failures are limited per source
 * (with backoff) and per user, and a browser that signed in as a user before (its device cookie)
 * is limited on its own: others' failures never block its right password. A fake clock moves the
 * windows; nothing here waits for time to pass.
 */
const REDIRECT = 'http://127.0.0.1:50100/callback';
const WINDOW_MS = 15 * 60_000;
const SELLER = 'DEPOSITO_NORTE';
// A second source address: all of 127/8 is this computer on Linux (elsewhere only 127.0.0.1 is).
const otherSource = process.platform === 'linux' ? new Agent({ localAddress: '127.0.0.2' }) : undefined;

interface Browser {
  /** Cookies this browser keeps (a device cookie once it signed in). */
  jar: Map<string, string>;
  agent?: Agent | undefined;
}

describe('sign-in attempt limits cannot lock the real person out', () => {
  let server: TestServer;
  const clock = manualClock();
  beforeAll(async () => {
    server = await startTestServer(undefined, { clock });
  });
  afterAll(() => server.close());

  const cookieHeader = (b: Browser) => [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  function keep(b: Browser, setCookie: string[]) {
    for (const c of setCookie) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      b.jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  }

  /** Opens the page and answers it as `username` with `password`, as a browser would. */
  async function signIn(b: Browser, username: string, password: string) {
    const page = await fetch(authorizationUrl(server.url, { clientId: demo.app, redirectUri: REDIRECT, state: 's', challenge: createPkce().challenge }), {
      headers: { accept: BROWSER_ACCEPT, cookie: cookieHeader(b) },
      dispatcher: b.agent,
    });
    const html = await page.text();
    keep(b, page.headers.getSetCookie());
    const form = new URLSearchParams({
      csrf: /name="csrf" value="([^"]+)"/.exec(html)![1]!,
      request: /name="request" value="([^"]+)"/.exec(html)![1]!,
      decision: 'approve',
      username,
      password,
    });
    const res = await fetch(`${server.url}/authorization`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', cookie: cookieHeader(b) },
      body: form.toString(),
      dispatcher: b.agent,
    });
    keep(b, res.headers.getSetCookie());
    const text = await res.text();
    return { status: res.status, retryAfter: res.headers.get('retry-after'), text };
  }

  const fresh = (agent?: Agent): Browser => ({ jar: new Map(), agent });
  const attack = async (n: number, name: (i: number) => string) => {
    const attacker = fresh();
    for (let i = 0; i < n; i++) expect((await signIn(attacker, name(i), `guess-${i}`)).status).toBe(400);
    return attacker;
  };

  it('20 guesses at made-up names lock their source only; a known browser on it still signs in, with backoff for the source', async () => {
    // The seller signed in on this browser before: it keeps a device cookie.
    const sellersBrowser = fresh();
    expect((await signIn(sellersBrowser, SELLER, demoPassword(SELLER)!)).status).toBe(302);
    expect([...sellersBrowser.jar.keys()]).toContain(`sr_dev_${demo.seller.id}`);

    const attacker = await attack(20, (i) => `made-up-${i}`);
    // The address is locked for guessing on: a name it already tried is refused at once ...
    const locked = await signIn(attacker, 'made-up-3', 'guess');
    expect(locked.status).toBe(429);
    expect(locked.retryAfter).toBe(String(WINDOW_MS / 1000));
    expect(JSON.parse(locked.text)).toEqual({
      error: 'too_many_requests',
      message: expect.stringContaining('from this address') as unknown,
      status: 429,
      cause: [],
    });
    // ... but no real person is locked out by it: not a user on a new browser of the same address
    // (nobody was guessing that account), not the seller's own browser.
    expect((await signIn(fresh(), 'MARCA_AURORA', demoPassword('MARCA_AURORA')!)).status).toBe(302);
    expect((await signIn(sellersBrowser, SELLER, demoPassword(SELLER)!)).status).toBe(302);

    // The address fails on after its lock: the next lock is twice as long.
    clock.advance(WINDOW_MS);
    await attack(20, (i) => `again-${i}`);
    expect((await signIn(attacker, 'again-7', 'guess')).retryAfter).toBe(String((2 * WINDOW_MS) / 1000));
    expect((await signIn(fresh(), SELLER, demoPassword(SELLER)!)).status).toBe(302);
    clock.advance(2 * WINDOW_MS);
  });

  it('a locked address gets one attempt per account: guessing on at an account is refused there, not from elsewhere', async () => {
    await attack(20, (i) => `elsewhere-${i}`);
    expect((await signIn(fresh(), 'MARCA_AURORA', 'one-guess')).status).toBe(400);
    expect((await signIn(fresh(), 'MARCA_AURORA', demoPassword('MARCA_AURORA')!)).status).toBe(429);
    if (otherSource) expect((await signIn(fresh(otherSource), 'MARCA_AURORA', demoPassword('MARCA_AURORA')!)).status).toBe(302);
    clock.advance(24 * 3600_000);
  });

  it('guessing a real user’s password locks that user for unknown browsers only; made-up names lock nobody real', async () => {
    const owners = fresh();
    expect((await signIn(owners, 'OTRO_VENDEDOR', demoPassword('OTRO_VENDEDOR')!)).status).toBe(302);
    // Made-up names that look like the user lock only themselves.
    await attack(5, () => 'otro_vendedor_');
    expect((await signIn(fresh(), 'OTRO_VENDEDOR', demoPassword('OTRO_VENDEDOR')!)).status).toBe(302);
    // Guesses at the user's own password lock the user for browsers it never signed in on ...
    await attack(5, () => 'OTRO_VENDEDOR');
    const locked = await signIn(fresh(), 'OTRO_VENDEDOR', demoPassword('OTRO_VENDEDOR')!);
    expect(locked.status).toBe(429);
    expect(JSON.parse(locked.text).message).toContain('for this user');
    // ... not for the owner's browser.
    expect((await signIn(owners, 'OTRO_VENDEDOR', demoPassword('OTRO_VENDEDOR')!)).status).toBe(302);
    // Guessing on after the lock: the next lock of the user is twice as long.
    clock.advance(WINDOW_MS);
    await attack(5, () => 'OTRO_VENDEDOR');
    expect((await signIn(fresh(), 'OTRO_VENDEDOR', demoPassword('OTRO_VENDEDOR')!)).retryAfter).toBe(String((2 * WINDOW_MS) / 1000));
    expect((await signIn(owners, 'OTRO_VENDEDOR', demoPassword('OTRO_VENDEDOR')!)).status).toBe(302);
    clock.advance(2 * 24 * 3600_000);
  });

  it('a known browser has its own limit, and a device cookie of another user or a forged one counts for nothing', async () => {
    const b = fresh();
    expect((await signIn(b, 'MARCA_AURORA', demoPassword('MARCA_AURORA')!)).status).toBe(302);
    for (let i = 0; i < 5; i++) expect((await signIn(b, 'MARCA_AURORA', `wrong-${i}`)).status).toBe(400);
    const locked = await signIn(b, 'MARCA_AURORA', demoPassword('MARCA_AURORA')!);
    expect(locked.status).toBe(429);
    expect(JSON.parse(locked.text).message).toContain('on this browser');
    // Its failures did not lock the user for anyone else.
    expect((await signIn(fresh(), 'MARCA_AURORA', demoPassword('MARCA_AURORA')!)).status).toBe(302);

    // The seller's cookie presented under another user's id, or tampered, is an unknown browser.
    const seller = fresh();
    expect((await signIn(seller, SELLER, demoPassword(SELLER)!)).status).toBe(302);
    const sellerCookie = seller.jar.get(`sr_dev_${demo.seller.id}`)!;
    await attack(5, () => 'OTRO_VENDEDOR');
    const borrowed: Browser = { jar: new Map([[`sr_dev_${demo.other.id}`, sellerCookie]]) };
    expect((await signIn(borrowed, 'OTRO_VENDEDOR', demoPassword('OTRO_VENDEDOR')!)).status).toBe(429);
    const forged: Browser = { jar: new Map([[`sr_dev_${demo.other.id}`, `${sellerCookie.slice(0, -2)}xx`]]) };
    expect((await signIn(forged, 'OTRO_VENDEDOR', demoPassword('OTRO_VENDEDOR')!)).status).toBe(429);
  });
});

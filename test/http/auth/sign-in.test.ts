import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureFile } from '../../../main/fixtures/schema.js';
import { createPkce } from '../../../main/sync/auth/pkce.js';
import { demo, demoFixtures } from '../../support/fixtures.js';
import { BROWSER_ACCEPT, authorizationUrl, demoPassword, manualClock, tokenRequest } from '../../support/oauth.js';
import { type TestServer, errorBody, startTestServer } from '../../support/server.js';

/**
 * The sign-in page authenticates: nickname or id plus password, one generic refusal, attempt limits
 * per user (429 + Retry-After, a fake clock for the window; per source and known browsers in
 * sign-in-limits.test.ts), and nothing
 * stored per anonymous GET. Each limit gets its own application or user so the tests stay
 * independent inside one server.
 */

const NO_PASSWORD = { id: 1780499001, nickname: 'SIN_CLAVE' };
/** Applications of their own for the tests that exhaust a per-application limit. */
const APPS = { clientLimit: 4400000000000011, lockout: 4400000000000012, flood: 4400000000000013 };
const REDIRECT = 'http://127.0.0.1:50100/callback';
const WINDOW_MS = 15 * 60_000;

function fixtures(): FixtureFile {
  const f = demoFixtures();
  const seller = f.users!.find((u) => u.id === demo.seller.id)!;
  f.users = [...f.users!, { ...seller, id: NO_PASSWORD.id, nickname: NO_PASSWORD.nickname, password: undefined }];
  f.applications = [
    ...f.applications!,
    ...Object.entries(APPS).map(([name, id]) => ({ id, name: `Test ${name}`, redirect_uris: ['http://127.0.0.1/callback'] })),
  ];
  return f;
}

interface Page {
  csrf: string;
  request: string;
  cookie: string;
  verifier: string;
  html: string;
}

describe('the sign-in page authenticates', () => {
  let server: TestServer;
  const clock = manualClock();
  beforeAll(async () => {
    // Every test here comes from 127.0.0.1: the per-source limit is sign-in-limits.test.ts's subject.
    server = await startTestServer(fixtures(), { clock, signInLimits: { perSource: { limit: 1000, windowMs: WINDOW_MS } } });
  });
  afterAll(() => server.close());

  async function open(clientId: number = demo.app): Promise<Page> {
    const pkce = createPkce();
    const res = await fetch(authorizationUrl(server.url, { clientId, redirectUri: REDIRECT, state: 's1', challenge: pkce.challenge }), {
      headers: { accept: BROWSER_ACCEPT },
    });
    const html = await res.text();
    expect(res.status).toBe(200);
    return {
      csrf: /name="csrf" value="([^"]+)"/.exec(html)![1]!,
      request: /name="request" value="([^"]+)"/.exec(html)![1]!,
      cookie: res.headers.get('set-cookie')!.split(';')[0]!,
      verifier: pkce.verifier,
      html,
    };
  }

  /** Posts the page's form; `json` plays a caller that is not a browser. */
  async function submit(page: Page, fields: Record<string, string>, opts: { json?: boolean } = {}) {
    const res = await fetch(`${server.url}/authorization`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: page.cookie,
        accept: opts.json ? 'application/json' : BROWSER_ACCEPT,
      },
      body: new URLSearchParams({ csrf: page.csrf, request: page.request, decision: 'approve', ...fields }).toString(),
    });
    const text = await res.text();
    const body: unknown = (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
    return { status: res.status, headers: res.headers, body, text, location: res.headers.get('location') };
  }

  const signIn = (page: Page, username: string, password: string, json = false) => submit(page, { username, password }, { json });

  async function exchange(page: Page, location: string, clientId: number = demo.app) {
    const code = new URL(location).searchParams.get('code')!;
    return tokenRequest(server.url, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: page.verifier });
  }

  it('the right password gives a code that exchanges for that user’s token; the page lists no user', async () => {
    const page = await open();
    for (const u of demoFixtures().users!) {
      expect(page.html).not.toContain(u.nickname);
      expect(page.html).not.toContain(String(u.id));
    }
    expect(page.html).not.toMatch(/<datalist|<option/);
    const r = await signIn(page, String(demo.buyer.id), demoPassword('COMPRADOR_TEST')!);
    expect(r.status).toBe(302);
    const res = await exchange(page, r.location!);
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(demo.buyer.id);
    const me = await server.as(res.body.access_token).get(`/users/${demo.buyer.id}`);
    expect(me.status).toBe(200);
    expect(me.body.nickname).toBe('COMPRADOR_TEST');
    expect(JSON.stringify(me.body)).not.toMatch(/password|scrypt/);
  });

  it('a wrong password, an unknown user and a user without password get the same answer and no code', async () => {
    const codes = () => server.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM oauth_codes').get()!.n;
    const before = codes();
    const page = await open();
    const answers = [
      await signIn(page, 'DEPOSITO_NORTE', 'not-the-password'),
      await signIn(page, 'NOBODY_AT_ALL', 'not-the-password'),
      await signIn(page, NO_PASSWORD.nickname, 'not-the-password'),
      await signIn(page, NO_PASSWORD.nickname, ''),
    ];
    for (const a of answers.slice(0, 3)) {
      expect(a.status).toBe(400);
      expect(a.location).toBeNull();
      expect(a.text).toContain('Wrong user or password.');
    }
    expect(answers[3]!.text).toContain('Enter your nickname or user id and your password.');
    // The three refusals differ only in the echoed name and the per-response nonce.
    const normalize = (html: string) => html.replace(/nonce(-|=")[^'"]+/g, 'nonce').replace(/id="username" name="username"[^>]*>/, '');
    expect(new Set(answers.slice(0, 3).map((a) => normalize(a.text))).size).toBe(1);

    const json = await signIn(page, 'DEPOSITO_NORTE', 'still-wrong', true);
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ error: 'invalid_grant', message: 'Wrong user or password.', status: 400, cause: [] });
    expect(codes()).toBe(before);

    // The form stays usable: the right password still works on it.
    const ok = await signIn(page, 'deposito_norte', demoPassword('DEPOSITO_NORTE')!);
    expect(ok.status).toBe(302);
    expect((await exchange(page, ok.location!)).body.user_id).toBe(demo.seller.id);
  });

  it('locks a user after 5 failures for 15 minutes (429, Retry-After, the spec’s shape), then lets the right password in', async () => {
    const user = 'OTRO_VENDEDOR';
    let page = await open(APPS.lockout);
    for (let i = 0; i < 5; i++) expect((await signIn(page, user, `wrong-${i}`)).status).toBe(400);

    // Locked: even the right password, and by id as well as by nickname.
    for (const name of [user, String(demo.other.id)]) {
      const locked = await signIn(page, name, demoPassword(user)!, true);
      expect(locked.status).toBe(429);
      expect(locked.headers.get('retry-after')).toBe(String(WINDOW_MS / 1000));
      expect(errorBody({ status: locked.status, headers: locked.headers, body: locked.body })).toEqual({
        error: 'too_many_requests',
        message: expect.stringContaining('15 minutes'),
        status: 429,
        cause: [],
      });
    }
    const html = await signIn(page, user, demoPassword(user)!);
    expect(html.status).toBe(429);
    expect(html.headers.get('retry-after')).toBe(String(WINDOW_MS / 1000));
    expect(html.text).toContain('Too many failed sign-ins');
    // Another user of the same application is not locked.
    expect((await signIn(page, 'MARCA_AURORA', demoPassword('MARCA_AURORA')!)).status).toBe(302);

    clock.advance(WINDOW_MS - 60_000);
    page = await open(APPS.lockout);
    const almost = await signIn(page, user, demoPassword(user)!, true);
    expect(almost.status).toBe(429);
    expect(almost.headers.get('retry-after')).toBe('60');

    clock.advance(60_000);
    const after = await signIn(page, user, demoPassword(user)!);
    expect(after.status).toBe(302);
    expect((await exchange(page, after.location!, APPS.lockout)).body.user_id).toBe(demo.other.id);
  });

  it('an unknown name is counted and locked like a user, so a lock says nothing about existence', async () => {
    const page = await open(APPS.lockout);
    for (let i = 0; i < 5; i++) expect((await signIn(page, 'GHOST_USER', `wrong-${i}`)).status).toBe(400);
    const locked = await signIn(page, 'ghost_user', 'wrong-5', true);
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe(String(WINDOW_MS / 1000));
  });

  it('parallel guesses cannot pass the per-user limit together', async () => {
    const page = await open(APPS.lockout);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(page, 'MARCA_AURORA', `parallel-${i}`, true)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    for (const a of answers) expect(['invalid_grant', 'too_many_requests']).toContain(errorBody({ status: a.status, headers: a.headers, body: a.body }).error);
  });

  it('failures across many users of one application lock no other user of it (issue 25: they locked the whole application)', async () => {
    const page = await open(APPS.clientLimit);
    for (let i = 0; i < 20; i++) expect((await signIn(page, `nobody-${i}`, 'wrong-password')).status).toBe(400);
    expect((await signIn(page, 'DEPOSITO_NORTE', demoPassword('DEPOSITO_NORTE')!)).status).toBe(302);
  });

  it('1,000 anonymous page loads evict nothing: a real person’s open page still signs in', async () => {
    const mine = await open(APPS.flood);
    for (let batch = 0; batch < 50; batch++) {
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          const res = await fetch(authorizationUrl(server.url, { clientId: APPS.flood, redirectUri: REDIRECT, challenge: createPkce().challenge }));
          await res.text();
          expect(res.status).toBe(200);
        }),
      );
    }
    const r = await signIn(mine, 'DEPOSITO_NORTE', demoPassword('DEPOSITO_NORTE')!);
    expect(r.status).toBe(302);
    const res = await exchange(mine, r.location!, APPS.flood);
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(demo.seller.id);
  });

  it('a form answered with the right password cannot be replayed, and one past 10 minutes has expired', async () => {
    const page = await open();
    expect((await signIn(page, 'DEPOSITO_NORTE', demoPassword('DEPOSITO_NORTE')!)).status).toBe(302);
    const again = await signIn(page, 'DEPOSITO_NORTE', demoPassword('DEPOSITO_NORTE')!, true);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_request', message: 'This approval form was already used.' });

    const old = await open();
    clock.advance(10 * 60_000);
    const expired = await signIn(old, 'DEPOSITO_NORTE', demoPassword('DEPOSITO_NORTE')!, true);
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ error: 'invalid_request', message: 'This approval form expired.' });
  });

  it('a tampered sealed request, or one with another page’s cookie, is refused (403)', async () => {
    const a = await open();
    const b = await open();
    const [payload, mac] = a.request.split('.') as [string, string];
    const json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const evil = Buffer.from(JSON.stringify({ ...json, r: 'http://127.0.0.1:1/callback' })).toString('base64url');
    const password = demoPassword('DEPOSITO_NORTE')!;
    for (const forged of [
      { ...a, request: `${evil}.${mac}` },
      { ...a, request: b.request },
      { ...b, cookie: a.cookie },
    ]) {
      const r = await signIn(forged, 'DEPOSITO_NORTE', password, true);
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ error: 'forbidden', status: 403 });
    }
  });

  describe('bad input is a 4xx in the spec’s shape, never a 500', () => {
    async function post(body: string | undefined, headers: Record<string, string>) {
      const res = await fetch(`${server.url}/authorization`, { method: 'POST', redirect: 'manual', headers: { accept: 'application/json', ...headers }, body });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: JSON.parse(text) as unknown };
    }

    it.each([
      ['a JSON body', '{"username":"DEPOSITO_NORTE","password":"x"}', 'application/json', 400],
      ['malformed JSON', '{"username":', 'application/json', 400],
      ['a text body', 'username=DEPOSITO_NORTE', 'text/plain', 400],
      ['a multipart body', '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n--b--\r\n', 'multipart/form-data; boundary=b', 400],
      ['a form over 64 KB', `username=${'a'.repeat(70 * 1024)}`, 'application/x-www-form-urlencoded', 413],
    ])('%s', async (_what, body, type, status) => {
      const r = await post(body, { 'content-type': type });
      expect(r.status).toBe(status);
      expect(errorBody(r).status).toBe(status);
    });

    it('no body at all', async () => {
      const r = await post(undefined, {});
      expect(r.status).toBe(400);
      expect(errorBody(r).error).toBe('invalid_request');
    });

    it('missing, repeated or over-long fields', async () => {
      const page = await open();
      const form = (fields: Record<string, string>, drop: string[] = [], extra = '') => {
        const q = new URLSearchParams({
          csrf: page.csrf,
          request: page.request,
          decision: 'approve',
          username: 'DEPOSITO_NORTE',
          password: 'wrong-one',
          ...fields,
        });
        for (const d of drop) q.delete(d);
        return q.toString() + extra;
      };
      const headers = { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie };
      const cases: [string, number, string][] = [
        [form({}, ['csrf']), 403, 'forbidden'],
        [form({}, ['request']), 403, 'forbidden'],
        [form({}, ['username']), 400, 'invalid_request'],
        [form({}, ['password']), 400, 'invalid_request'],
        [form({}, ['decision']), 400, 'invalid_request'],
        [form({ decision: 'maybe' }), 400, 'invalid_request'],
        [form({}, [], '&username=OTRO_VENDEDOR'), 400, 'invalid_request'],
        [form({ username: 'u'.repeat(257) }), 400, 'invalid_request'],
        [form({ password: 'p'.repeat(1025) }), 400, 'invalid_request'],
        [form({ csrf: 'c'.repeat(200) }), 400, 'invalid_request'],
        [form({}, [], '&%zz=%'), 400, 'invalid_grant'],
      ];
      for (const [body, status, error] of cases) {
        const r = await post(body, headers);
        expect({ body: body.slice(0, 60), status: r.status }).toEqual({ body: body.slice(0, 60), status });
        expect(errorBody(r).error).toBe(error);
      }
      // A browser gets a page for the same refusal.
      const html = await fetch(`${server.url}/authorization`, {
        method: 'POST',
        headers: { ...headers, accept: BROWSER_ACCEPT },
        body: form({}, ['password']),
      });
      expect(html.status).toBe(400);
      expect(html.headers.get('content-type')).toContain('text/html');
      expect(await html.text()).toContain('Enter your nickname or user id and your password.');
    });
  });

  it('stores each password only as a salted scrypt hash: the plaintext is nowhere in the database files', () => {
    const rows = server.db.prepare<[], { nickname: string; password_hash: string | null }>('SELECT nickname, password_hash FROM users').all();
    const hashes = rows.filter((r) => r.password_hash !== null).map((r) => r.password_hash!);
    expect(hashes).toHaveLength(demoFixtures().users!.length);
    for (const h of hashes) expect(h).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(new Set(hashes.map((h) => h.split('$')[4])).size).toBe(hashes.length);
    expect(rows.find((r) => r.nickname === NO_PASSWORD.nickname)!.password_hash).toBeNull();

    server.db.pragma('wal_checkpoint(TRUNCATE)');
    const files = readdirSync(server.dir).filter((f) => f.startsWith('marketplace.db'));
    expect(files).toContain('marketplace.db');
    const bytes = Buffer.concat(files.map((f) => readFileSync(join(server.dir, f))));
    for (const u of demoFixtures().users!) {
      expect(bytes.includes(Buffer.from(u.password!, 'utf8'))).toBe(false);
      expect(bytes.includes(Buffer.from(u.password!, 'utf16le'))).toBe(false);
    }
  });
});

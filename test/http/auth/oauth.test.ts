import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureFile } from '../../../main/fixtures/schema.js';
import { createPkce } from '../../../main/sync/auth/pkce.js';
import { demo, demoFixtures } from '../../support/fixtures.js';
import {
  BROWSER_ACCEPT,
  answerConsent,
  authorizationUrl,
  codeFlow,
  demoPassword,
  loopbackListener,
  manualClock,
  sha256,
  tokenRequest,
} from '../../support/oauth.js';
import { type TestServer, client, errorBody, startTestServer } from '../../support/server.js';

/** A confidential web client next to the demo's public desktop client, and a second public one. */
const BACKOFFICE = { id: 4400000000000001, secret: 'backoffice-secret-value', redirect: 'https://backoffice.example/oauth/cb' };
const OTHER_APP = 4400000000000002;

function fixtures(): FixtureFile {
  const f = demoFixtures();
  f.applications = [
    ...(f.applications ?? []),
    { id: BACKOFFICE.id, name: 'Backoffice <b>&</b> "Co"', secret: BACKOFFICE.secret, redirect_uris: [BACKOFFICE.redirect] },
    { id: OTHER_APP, name: 'Other desktop', redirect_uris: ['http://127.0.0.1/callback', 'http://[::1]/cb'] },
  ];
  return f;
}

const seller = demo.seller.id;
const userPath = `/users/${seller}`;

describe('OAuth 2.0 authorization code + PKCE', () => {
  let server: TestServer;
  const clock = manualClock();
  beforeAll(async () => {
    server = await startTestServer(fixtures(), { clock, accessTokenTtlSeconds: 600 });
  });
  afterAll(() => server.close());

  const token = (params: Record<string, string | number>, options?: { json?: boolean; headers?: Record<string, string> }) =>
    tokenRequest(server.url, params, options);
  const oauthError = (res: { status: number; body: unknown; headers: Headers }, status: number, error: string) => {
    expect(res.status).toBe(status);
    // RFC 6749 5.2's members, and the spec's shape of every refusal with the same text.
    expect(res.body).toMatchObject({ error, error_description: expect.any(String), status, cause: [] });
    const body = res.body as { error_description: string; message: string };
    expect(body.message).toBe(body.error_description);
    expect(Object.keys(body).sort()).toEqual(['cause', 'error', 'error_description', 'message', 'status']);
    expect(res.headers.get('cache-control')).toBe('no-store');
  };

  describe('the whole flow, as a browser and a native app would run it', () => {
    it('page, approval, 302 to the loopback listener, exchange, and a working token', async () => {
      const app = await loopbackListener();
      try {
        const pkce = createPkce();
        const url = authorizationUrl(server.url, { clientId: demo.app, redirectUri: app.redirectUri, state: 'xyz-123', challenge: pkce.challenge });

        const page = await fetch(url, { headers: { accept: BROWSER_ACCEPT } });
        const html = await page.text();
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        const csp = page.headers.get('content-security-policy')!;
        expect(csp).toContain("default-src 'none'");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain(`form-action 'self' ${new URL(app.redirectUri).origin}`);
        expect(page.headers.get('x-frame-options')).toBe('DENY');
        expect(page.headers.get('cache-control')).toBe('no-store');
        const cookie = page.headers.get('set-cookie')!;
        expect(cookie).toMatch(/HttpOnly/);
        expect(cookie).toMatch(/SameSite=Strict/);
        expect(html).toContain('Stockroom Desktop');
        expect(html).toContain('<input type="password" id="password" name="password"');
        // No user list: no nickname or id of any user appears on the page.
        for (const u of demoFixtures().users!) {
          expect(html).not.toContain(u.nickname);
          expect(html).not.toContain(String(u.id));
        }
        expect(html).not.toMatch(/<datalist|<select|<option/);
        expect(html).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/);
        const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
        const request = /name="request" value="([^"]+)"/.exec(html)![1]!;

        const approve = await fetch(`${server.url}/authorization`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie.split(';')[0]! },
          body: new URLSearchParams({ csrf, request, username: 'deposito_norte', password: demoPassword('DEPOSITO_NORTE')!, decision: 'approve' }).toString(),
        });
        expect(approve.status).toBe(302);
        const location = approve.headers.get('location')!;
        expect(location.startsWith(`${app.redirectUri}?`)).toBe(true);

        // The browser follows the redirect to the app's listener.
        await (await fetch(location)).text();
        const callback = await app.next();
        expect(callback.get('state')).toBe('xyz-123');
        const code = callback.get('code')!;
        expect(code.length).toBeGreaterThan(30);

        const res = await token({ grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, client_id: demo.app, code_verifier: pkce.verifier });
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.body).toEqual({
          access_token: expect.any(String),
          token_type: 'Bearer',
          expires_in: 600,
          scope: 'offline_access read write',
          user_id: seller,
          refresh_token: expect.any(String),
        });
        const me = await server.as(res.body.access_token).get(userPath);
        expect(me.status).toBe(200);
        expect(me.body.nickname).toBe('DEPOSITO_NORTE');
      } finally {
        await app.close();
      }
    });

    it('signs in as a user given by id, and the token stands for that user', async () => {
      const { res } = await codeFlow(server.url, { clientId: demo.app, username: String(demo.buyer.id) });
      expect(res.status).toBe(200);
      expect(res.body.user_id).toBe(demo.buyer.id);
      const row = server.db
        .prepare<[string], { user_id: number; application_id: number }>('SELECT user_id, application_id FROM tokens WHERE access_token = ?')
        .get(res.body.access_token);
      expect(row).toEqual({ user_id: demo.buyer.id, application_id: demo.app });
    });

    it('accepts a JSON token request as well as a form', async () => {
      const pkce = createPkce();
      const redirectUri = 'http://127.0.0.1:50001/callback';
      const consent = await answerConsent(authorizationUrl(server.url, { clientId: demo.app, redirectUri, state: 's', challenge: pkce.challenge }));
      const code = new URL(consent.location!).searchParams.get('code')!;
      const res = await token(
        { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: demo.app, code_verifier: pkce.verifier },
        { json: true },
      );
      expect(res.status).toBe(200);
      expect(res.body.token_type).toBe('Bearer');
    });

    it('stores only hashes of codes and refresh tokens', async () => {
      const { res, code } = await codeFlow(server.url, { clientId: demo.app });
      const db = server.db;
      const codeRows = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM oauth_codes WHERE code_hash = ?');
      expect(codeRows.get(code)!.n).toBe(0);
      expect(codeRows.get(sha256(code))!.n).toBe(1);
      const refreshRows = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM oauth_refresh_tokens WHERE token_hash = ?');
      expect(refreshRows.get(res.body.refresh_token)!.n).toBe(0);
      expect(refreshRows.get(sha256(res.body.refresh_token))!.n).toBe(1);
      const text =
        JSON.stringify(db.prepare('SELECT * FROM oauth_codes').all()) +
        JSON.stringify(db.prepare('SELECT * FROM oauth_refresh_tokens').all()) +
        JSON.stringify(db.prepare('SELECT * FROM oauth_grants').all());
      expect(text).not.toContain(code);
      expect(text).not.toContain(res.body.refresh_token);
    });
  });

  describe('the authorization page', () => {
    const pkce = createPkce();
    const base = { clientId: demo.app, redirectUri: 'http://127.0.0.1:50002/callback', state: 'state-1', challenge: pkce.challenge };

    it.each([
      ['an unknown client', { clientId: 999 }, 'Unknown application'],
      ['a malformed client id', { clientId: 'abc' }, 'Unknown application'],
      ['no client id', { clientId: undefined }, 'client_id is missing'],
      ['no redirect_uri', { redirectUri: undefined }, 'redirect_uri is missing'],
      ['an unregistered path', { redirectUri: 'http://127.0.0.1:50002/other' }, 'not registered'],
      ['localhost instead of a loopback literal', { redirectUri: 'http://localhost:50002/callback' }, 'not registered'],
      ['another host', { redirectUri: 'http://evil.example/callback' }, 'not registered'],
      ['https on the loopback', { redirectUri: 'https://127.0.0.1:50002/callback' }, 'not registered'],
      ['a fragment', { redirectUri: 'http://127.0.0.1:50002/callback#x' }, 'not registered'],
      ['user info', { redirectUri: 'http://a:b@127.0.0.1:50002/callback' }, 'not registered'],
      ['an added query', { redirectUri: 'http://127.0.0.1:50002/callback?next=/' }, 'not registered'],
      ['the other loopback literal', { redirectUri: 'http://[::1]:50002/callback' }, 'not registered'],
    ])('answers an error page and never redirects for %s', async (_what, change, text) => {
      const res = await fetch(authorizationUrl(server.url, { ...base, ...change }), { redirect: 'manual', headers: { accept: BROWSER_ACCEPT } });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await res.text()).toContain(text);
      // A caller that is not a browser gets the same refusal in the spec's shape.
      const url = new URL(authorizationUrl(server.url, { ...base, ...change }));
      const api = await client(server.url, null).get(url.pathname + url.search);
      expect(api.status).toBe(400);
      expect(errorBody(api)).toEqual({ error: 'invalid_request', message: expect.any(String), status: 400, cause: [] });
    });

    it('matches a registered loopback URI on any port, and an exact non-loopback one', async () => {
      for (const redirectUri of ['http://127.0.0.1:1/callback', 'http://127.0.0.1:65535/callback', 'http://127.0.0.1/callback']) {
        expect((await fetch(authorizationUrl(server.url, { ...base, redirectUri }))).status).toBe(200);
      }
      expect((await fetch(authorizationUrl(server.url, { ...base, clientId: OTHER_APP, redirectUri: 'http://[::1]:4000/cb' }))).status).toBe(200);
      expect((await fetch(authorizationUrl(server.url, { ...base, clientId: BACKOFFICE.id, redirectUri: BACKOFFICE.redirect }))).status).toBe(200);
      // A non-loopback URI must match exactly, port included.
      const other = await fetch(authorizationUrl(server.url, { ...base, clientId: BACKOFFICE.id, redirectUri: 'https://backoffice.example:8443/oauth/cb' }));
      expect(other.status).toBe(400);
    });

    it.each([
      ['response_type=token', { responseType: 'token' }, 'unsupported_response_type'],
      ['no response_type', { responseType: '' }, 'invalid_request'],
      ['no code_challenge', { challenge: undefined }, 'invalid_request'],
      ['the plain method', { method: 'plain' }, 'invalid_request'],
      ['no method (plain by default)', { method: '' }, 'invalid_request'],
      ['a challenge that is no S256 value', { challenge: 'short' }, 'invalid_request'],
      ['an unknown scope', { extra: { scope: 'read admin' } }, 'invalid_scope'],
      ['a repeated parameter', { extra: { code_challenge: 'x'.repeat(43) } }, 'invalid_request'],
    ])('redirects %s back to the client with error= and the state', async (_what, change, error) => {
      const res = await fetch(authorizationUrl(server.url, { ...base, ...change }), { redirect: 'manual' });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(base.redirectUri);
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('state')).toBe('state-1');
      expect(location.searchParams.get('code')).toBeNull();
    });

    it('redirects a denial with access_denied and issues no code', async () => {
      const before = server.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM oauth_codes').get()!.n;
      const r = await answerConsent(authorizationUrl(server.url, base), { decision: 'deny' });
      expect(r.status).toBe(302);
      const location = new URL(r.location!);
      expect(location.searchParams.get('error')).toBe('access_denied');
      expect(location.searchParams.get('state')).toBe('state-1');
      expect(server.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM oauth_codes').get()!.n).toBe(before);
    });

    it('asks again for an unknown user with the one generic answer, escaping what it echoes', async () => {
      const r = await answerConsent(authorizationUrl(server.url, base), { username: 'NOBODY_<b>', password: 'whatever-it-is' });
      expect(r.status).toBe(400);
      expect(r.location).toBeNull();
      expect(r.html).toContain('Wrong user or password.');
      expect(r.html).toContain('value="NOBODY_&lt;b&gt;"');
      expect(r.html).not.toContain('<b>');
      expect(r.html).toContain('name="password"');
    });

    it('escapes what it shows', async () => {
      const res = await fetch(authorizationUrl(server.url, { ...base, clientId: BACKOFFICE.id, redirectUri: BACKOFFICE.redirect }));
      const html = await res.text();
      expect(html).toContain('Backoffice &lt;b&gt;&amp;&lt;/b&gt; &quot;Co&quot;');
      expect(html).not.toContain('<b>&</b>');
    });

    it('refuses an approval without the page cookie, with another value, from another site, or twice', async () => {
      const url = authorizationUrl(server.url, base);
      const noCookie = await answerConsent(url, { cookie: null });
      expect(noCookie.status).toBe(403);
      expect(noCookie.location).toBeNull();
      const forged = await answerConsent(url, { csrf: 'A'.repeat(43) });
      expect(forged.status).toBe(403);
      const crossSite = await answerConsent(url, { origin: 'https://evil.example' });
      expect(crossSite.status).toBe(403);
      expect(crossSite.location).toBeNull();

      // A page answered once cannot be answered again.
      const page = await fetch(url);
      const html = await page.text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
      const request = /name="request" value="([^"]+)"/.exec(html)![1]!;
      const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
      const post = () =>
        fetch(`${server.url}/authorization`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: server.url },
          body: new URLSearchParams({ csrf, request, username: 'DEPOSITO_NORTE', password: demoPassword('DEPOSITO_NORTE')!, decision: 'approve' }).toString(),
        });
      expect((await post()).status).toBe(302);
      const second = await post();
      expect(second.status).toBe(400);
      expect(second.headers.get('location')).toBeNull();
    });
  });

  describe('the token endpoint', () => {
    it('refuses a wrong code_verifier (PKCE) with invalid_grant; the right one still works', async () => {
      const pkce = createPkce();
      const redirectUri = 'http://127.0.0.1:50003/callback';
      const consent = await answerConsent(authorizationUrl(server.url, { clientId: demo.app, redirectUri, state: 's', challenge: pkce.challenge }));
      const code = new URL(consent.location!).searchParams.get('code')!;
      const params = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: demo.app };
      oauthError(await token({ ...params, code_verifier: createPkce().verifier }), 400, 'invalid_grant');
      oauthError(await token({ ...params, code_verifier: 'too-short' }), 400, 'invalid_request');
      expect((await token({ ...params, code_verifier: pkce.verifier })).status).toBe(200);
    });

    it('refuses a redirect_uri that differs from the authorization request (another port)', async () => {
      const pkce = createPkce();
      const consent = await answerConsent(
        authorizationUrl(server.url, { clientId: demo.app, redirectUri: 'http://127.0.0.1:50004/callback', state: 's', challenge: pkce.challenge }),
      );
      const code = new URL(consent.location!).searchParams.get('code')!;
      const res = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'http://127.0.0.1:50005/callback',
        client_id: demo.app,
        code_verifier: pkce.verifier,
      });
      oauthError(res, 400, 'invalid_grant');
      expect(res.body.error_description).toContain('redirect_uri');
    });

    it('a code works once: a replay is invalid_grant and revokes what the code gave', async () => {
      const first = await codeFlow(server.url, { clientId: demo.app });
      expect(first.res.status).toBe(200);
      const { access_token, refresh_token } = first.res.body;
      expect((await server.as(access_token).get(userPath)).status).toBe(200);

      const replay = await token(first.params);
      oauthError(replay, 400, 'invalid_grant');
      const denied = await server.as(access_token).get(userPath);
      expect(denied.status).toBe(401);
      expect(errorBody(denied).error).toBe('invalid_token');
      oauthError(await token({ grant_type: 'refresh_token', refresh_token, client_id: demo.app }), 400, 'invalid_grant');
    });

    it('a code given to one client does not work for another', async () => {
      const pkce = createPkce();
      const redirectUri = 'http://127.0.0.1:50006/callback';
      const consent = await answerConsent(authorizationUrl(server.url, { clientId: demo.app, redirectUri, state: 's', challenge: pkce.challenge }));
      const code = new URL(consent.location!).searchParams.get('code')!;
      oauthError(
        await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: OTHER_APP, code_verifier: pkce.verifier }),
        400,
        'invalid_grant',
      );
    });

    it('a code expires after 10 minutes', async () => {
      const pkce = createPkce();
      const redirectUri = 'http://127.0.0.1:50007/callback';
      const consent = await answerConsent(authorizationUrl(server.url, { clientId: demo.app, redirectUri, state: 's', challenge: pkce.challenge }));
      const code = new URL(consent.location!).searchParams.get('code')!;
      clock.advance(10 * 60_000 + 1);
      oauthError(
        await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: demo.app, code_verifier: pkce.verifier }),
        400,
        'invalid_grant',
      );
    });

    it('authenticates clients: unknown, missing or wrong secret are invalid_client (401)', async () => {
      const base = { grant_type: 'refresh_token', refresh_token: 'whatever' };
      const unknown = await token({ ...base, client_id: 12345 });
      oauthError(unknown, 401, 'invalid_client');
      expect(unknown.headers.get('www-authenticate')).toMatch(/^Basic /);
      oauthError(await token({ ...base, client_id: BACKOFFICE.id }), 401, 'invalid_client');
      oauthError(await token({ ...base, client_id: BACKOFFICE.id, client_secret: 'wrong' }), 401, 'invalid_client');
      oauthError(await token({ ...base, client_id: demo.app, client_secret: 'a public client has none' }), 401, 'invalid_client');
      // Right secret: the client is fine, the grant is not.
      oauthError(await token({ ...base, client_id: BACKOFFICE.id, client_secret: BACKOFFICE.secret }), 400, 'invalid_grant');
      const basic = `Basic ${Buffer.from(`${BACKOFFICE.id}:${BACKOFFICE.secret}`).toString('base64')}`;
      oauthError(await token(base, { headers: { authorization: basic } }), 400, 'invalid_grant');
      oauthError(await token({ ...base, client_secret: BACKOFFICE.secret }, { headers: { authorization: basic } }), 400, 'invalid_request');
    });

    it('a confidential client runs the flow with its secret', async () => {
      const { res } = await codeFlow(server.url, { clientId: BACKOFFICE.id, redirectUri: BACKOFFICE.redirect, clientSecret: BACKOFFICE.secret });
      expect(res.status).toBe(200);
      const refreshed = await token({
        grant_type: 'refresh_token',
        refresh_token: res.body.refresh_token,
        client_id: BACKOFFICE.id,
        client_secret: BACKOFFICE.secret,
      });
      expect(refreshed.status).toBe(200);
    });

    it('grant types: missing is invalid_request, others are unsupported_grant_type', async () => {
      oauthError(await token({ client_id: demo.app }), 400, 'invalid_request');
      oauthError(await token({ grant_type: 'password', username: 'a', password: 'b', client_id: demo.app }), 400, 'unsupported_grant_type');
      oauthError(await token({ grant_type: 'client_credentials', client_id: demo.app }), 400, 'unsupported_grant_type');
    });

    it('missing, repeated or malformed parameters are invalid_request', async () => {
      const missing = await token({ grant_type: 'authorization_code', client_id: demo.app, code: 'x', redirect_uri: 'http://127.0.0.1/callback' });
      oauthError(missing, 400, 'invalid_request');
      expect(missing.body.error_description).toContain('code_verifier');
      oauthError(await token({ grant_type: 'refresh_token', client_id: demo.app }), 400, 'invalid_request');
      oauthError(await token({ grant_type: 'refresh_token', refresh_token: 'x' }), 400, 'invalid_request');
      const c = client(server.url, null);
      const repeated = await c.raw('POST', '/oauth/token', {
        raw: 'grant_type=refresh_token&refresh_token=a&refresh_token=b&client_id=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      oauthError(repeated, 400, 'invalid_request');
      oauthError(await c.raw('POST', '/oauth/token', { raw: '{"grant_type":', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
      oauthError(await c.raw('POST', '/oauth/token', { raw: 'grant_type=refresh_token', headers: { 'content-type': 'text/plain' } }), 400, 'invalid_request');
      oauthError(await c.post('/oauth/token', ['grant_type']), 400, 'invalid_request');
      oauthError(await c.post('/oauth/token', { grant_type: 'refresh_token', refresh_token: { a: 1 }, client_id: demo.app }), 400, 'invalid_request');
      oauthError(await c.raw('POST', '/oauth/token'), 400, 'invalid_request');
    });
  });

  describe('refresh tokens', () => {
    it('rotate: each refresh gives a new pair and the old refresh token dies', async () => {
      const { res } = await codeFlow(server.url, { clientId: demo.app });
      const r1 = res.body.refresh_token as string;
      const second = await token({ grant_type: 'refresh_token', refresh_token: r1, client_id: demo.app });
      expect(second.status).toBe(200);
      expect(second.headers.get('cache-control')).toBe('no-store');
      expect(second.body).toMatchObject({ token_type: 'Bearer', expires_in: 600, user_id: seller, scope: 'offline_access read write' });
      const r2 = second.body.refresh_token as string;
      expect(r2).not.toBe(r1);
      expect(second.body.access_token).not.toBe(res.body.access_token);
      expect((await server.as(second.body.access_token).get(userPath)).status).toBe(200);
      const third = await token({ grant_type: 'refresh_token', refresh_token: r2, client_id: demo.app });
      expect(third.status).toBe(200);

      const family = server.db.prepare<[string], { family_id: string; rotated_from: string | null }>(
        'SELECT family_id, rotated_from FROM oauth_refresh_tokens WHERE token_hash = ?',
      );
      expect(family.get(sha256(third.body.refresh_token))).toEqual({ family_id: family.get(sha256(r1))!.family_id, rotated_from: sha256(r2) });
    });

    it('reusing a rotated refresh token is invalid_grant and revokes the whole family', async () => {
      const { res } = await codeFlow(server.url, { clientId: demo.app });
      const r1 = res.body.refresh_token as string;
      const next = await token({ grant_type: 'refresh_token', refresh_token: r1, client_id: demo.app });
      const { access_token: a2, refresh_token: r2 } = next.body;

      const reuse = await token({ grant_type: 'refresh_token', refresh_token: r1, client_id: demo.app });
      oauthError(reuse, 400, 'invalid_grant');
      // The newest token of the family no longer works either, nor does its access token.
      oauthError(await token({ grant_type: 'refresh_token', refresh_token: r2, client_id: demo.app }), 400, 'invalid_grant');
      expect((await server.as(a2).get(userPath)).status).toBe(401);
      expect((await server.as(res.body.access_token).get(userPath)).status).toBe(401);
      const grant = server.db
        .prepare<[string], { revoked_reason: string }>(
          'SELECT g.revoked_reason FROM oauth_grants g JOIN oauth_refresh_tokens t ON t.family_id = g.id WHERE t.token_hash = ?',
        )
        .get(sha256(r2));
      expect(grant?.revoked_reason).toBe('refresh_token_reuse');
    });

    it('two concurrent refreshes with one token: exactly one wins, and the family is revoked', async () => {
      const { res } = await codeFlow(server.url, { clientId: demo.app });
      const both = await Promise.all([0, 1].map(() => token({ grant_type: 'refresh_token', refresh_token: res.body.refresh_token, client_id: demo.app })));
      expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
      const winner = both.find((r) => r.status === 200)!;
      oauthError(await token({ grant_type: 'refresh_token', refresh_token: winner.body.refresh_token, client_id: demo.app }), 400, 'invalid_grant');
    });

    it('an unknown refresh token, or one of another client, is invalid_grant', async () => {
      oauthError(await token({ grant_type: 'refresh_token', refresh_token: 'TG-not-a-token', client_id: demo.app }), 400, 'invalid_grant');
      const { res } = await codeFlow(server.url, { clientId: demo.app });
      oauthError(await token({ grant_type: 'refresh_token', refresh_token: res.body.refresh_token, client_id: OTHER_APP }), 400, 'invalid_grant');
      // Not a reuse: the rightful client still refreshes.
      expect((await token({ grant_type: 'refresh_token', refresh_token: res.body.refresh_token, client_id: demo.app })).status).toBe(200);
    });
  });

  describe('access-token lifetime', () => {
    it('an access token past its lifetime gets 401 on a stock endpoint; a refresh gives a working one', async () => {
      const { res } = await codeFlow(server.url, { clientId: demo.app });
      const c = server.as(res.body.access_token);
      expect((await c.get(`/user-products/${demo.userProducts.termo}/stock`)).status).toBe(200);
      clock.advance(599_000);
      expect((await c.get(`/user-products/${demo.userProducts.termo}/stock`)).status).toBe(200);
      clock.advance(1_000);
      const expired = await c.get(`/user-products/${demo.userProducts.termo}/stock`);
      expect(expired.status).toBe(401);
      expect(errorBody(expired)).toMatchObject({ error: 'invalid_token', message: 'Access token expired' });
      expect(expired.headers.get('www-authenticate')).toContain('invalid_token');

      const refreshed = await token({ grant_type: 'refresh_token', refresh_token: res.body.refresh_token, client_id: demo.app });
      expect(refreshed.status).toBe(200);
      expect((await server.as(refreshed.body.access_token).get(`/user-products/${demo.userProducts.termo}/stock`)).status).toBe(200);
    });

    it('fixture tokens have no expiry', async () => {
      clock.advance(400 * 24 * 3600 * 1000);
      expect((await server.as(demo.seller.token).get(userPath)).status).toBe(200);
      expect(server.db.prepare<[string], { expires_at: number | null }>('SELECT expires_at FROM tokens WHERE access_token = ?').get(demo.seller.token)).toEqual(
        { expires_at: null },
      );
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureFile } from '../../../main/fixtures/schema.js';
import { demo, demoFixtures } from '../../support/fixtures.js';
import { answerConsent, authorizationUrl, codeFlow } from '../../support/oauth.js';
import { createPkce } from '../../../main/sync/auth/pkce.js';
import { type TestServer, startTestServer } from '../../support/server.js';
import { type SdkRequest, goSdk, phpLegacy, phpSdk, send } from './sdk-requests.js';

/** A server-side integration, as the SDKs are written for: a confidential client with a secret. */
const APP = { id: '4400000000000009', secret: 'sdk-app-secret', redirect: 'https://shop.example/meli/callback' };

function fixtures(): FixtureFile {
  const f = demoFixtures();
  f.applications = [...(f.applications ?? []), { id: Number(APP.id), name: 'Shop integration', secret: APP.secret, redirect_uris: [APP.redirect] }];
  return f;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(fixtures());
});
afterAll(() => server.close());

/** A fresh token pair from the code flow with PKCE, done by hand (the SDKs cannot add PKCE). */
async function pair(): Promise<{ access: string; refresh: string }> {
  const { res } = await codeFlow(server.url, { clientId: Number(APP.id), redirectUri: APP.redirect, clientSecret: APP.secret });
  expect(res.status).toBe(200);
  return { access: res.body.access_token, refresh: res.body.refresh_token };
}

const refreshFields = (refresh: string): [string, string][] => [
  ['grant_type', 'refresh_token'],
  ['client_id', APP.id],
  ['client_secret', APP.secret],
  ['refresh_token', refresh],
];

/** The new pair works, and the SDK's next call (its token in the query) reads the right user. */
async function expectFreshPair(req: SdkRequest, old: { access: string }) {
  const res = await send(server.url, req);
  expect(res.status).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.json).toMatchObject({ token_type: 'Bearer', user_id: demo.seller.id });
  expect(res.json.access_token).not.toBe(old.access);
  const me = await send(server.url, goSdk.get('/users/me', res.json.access_token));
  expect(me.status).toBe(200);
  expect(me.json.id).toBe(demo.seller.id);
}

describe('POST /oauth/token as the public SDKs send it', () => {
  it('Go SDK: the refresh with every parameter in the query and an empty application/json body', async () => {
    const p = await pair();
    await expectFreshPair(goSdk.token(refreshFields(p.refresh)), p);
  });

  it('PHP SDK 3 (OAuth20Api::getToken): a form with Accept application/json', async () => {
    const p = await pair();
    await expectFreshPair(phpSdk.token(refreshFields(p.refresh)), p);
  });

  it('PHP SDK 2 (Meli::refreshAccessToken): the fields as multipart/form-data', async () => {
    const p = await pair();
    await expectFreshPair(phpLegacy.token(refreshFields(p.refresh)), p);
  });

  it('the code exchange in the Go shape works once the code_verifier is among the query parameters', async () => {
    const pkce = createPkce();
    const consent = await answerConsent(authorizationUrl(server.url, { clientId: APP.id, redirectUri: APP.redirect, challenge: pkce.challenge }));
    const code = new URL(consent.location ?? '').searchParams.get('code') ?? '';
    const exchange = goSdk.token([
      ['grant_type', 'authorization_code'],
      ['client_id', APP.id],
      ['client_secret', APP.secret],
      ['code', code],
      ['redirect_uri', APP.redirect],
      ['code_verifier', pkce.verifier],
    ]);
    const res = await send(server.url, exchange);
    expect(res.status).toBe(200);
    expect(res.json.user_id).toBe(demo.seller.id);
  });

  it("the SDKs' own code exchange has no code_verifier: invalid_request naming it (PKCE stays required)", async () => {
    const fields: [string, string][] = [
      ['grant_type', 'authorization_code'],
      ['client_id', APP.id],
      ['client_secret', APP.secret],
      ['code', 'TG-not-checked-before-the-verifier'],
      ['redirect_uri', APP.redirect],
    ];
    for (const req of [goSdk.token(fields), phpSdk.token(fields), phpLegacy.token(fields)]) {
      const res = await send(server.url, req);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: 'invalid_request', status: 400, cause: [] });
      expect(res.json.error_description).toContain('code_verifier');
    }
  });

  it("the SDKs' authorization URL without PKCE sends the browser back with invalid_request", async () => {
    const res = await fetch(server.url + goSdk.authUrl(APP.id, APP.redirect), { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(APP.redirect);
    expect(back.searchParams.get('error')).toBe('invalid_request');
  });

  it('parameters in the query and in the body at once are refused, and nothing is issued', async () => {
    const p = await pair();
    const both = phpSdk.token(refreshFields(p.refresh));
    const res = await send(server.url, { ...both, path: `/oauth/token?grant_type=refresh_token&client_id=${APP.id}` });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: 'invalid_request', status: 400 });
    // The refresh token was not spent: it still works once.
    await expectFreshPair(phpSdk.token(refreshFields(p.refresh)), p);
  });

  it('a multipart body with a file part, or a malformed one, is invalid_request, never a 500', async () => {
    const boundary = 'x-boundary';
    const file = `--${boundary}\r\nContent-Disposition: form-data; name="grant_type"; filename="g.txt"\r\nContent-Type: text/plain\r\n\r\nrefresh_token\r\n--${boundary}--\r\n`;
    const withFile = await send(server.url, {
      method: 'POST',
      path: '/oauth/token',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: file,
    });
    expect(withFile.status).toBe(400);
    expect(withFile.json).toMatchObject({ error: 'invalid_request', status: 400 });
    const broken = await send(server.url, {
      method: 'POST',
      path: '/oauth/token',
      headers: { 'content-type': 'multipart/form-data; boundary=nope' },
      body: 'not a form',
    });
    expect(broken.status).toBe(400);
    expect(broken.json).toMatchObject({ error: 'invalid_request', status: 400 });
  });
});

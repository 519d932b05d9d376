import { createHash } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPkce } from '../../main/sync/auth/pkce.js';
import { demoFixtures } from './fixtures.js';
import { type ApiResponse, client } from './server.js';

/** A clock the test moves by hand; pass the same one to the server and to the client. */
export function manualClock(start = Date.UTC(2025, 0, 15, 12)) {
  let t = start;
  return {
    now: () => t,
    advance(ms: number) {
      t += ms;
    },
  };
}
export type ManualClock = ReturnType<typeof manualClock>;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export interface BrowserResult {
  /** Status of the last response the browser got from the marketplace (200 page, 302, 4xx). */
  status: number;
  location: string | null;
  html: string;
  headers: Headers;
}

/** What a browser sends: it asks for HTML, so refusals come as pages (others get the JSON shape). */
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/**
 * The demo password of a demo user named by nickname (any case) or id: what a person types on the
 * sign-in page. Undefined for anyone else (a user of a test's own fixtures has no password unless
 * the test gives one).
 */
export function demoPassword(username: string): string | undefined {
  const users = demoFixtures().users ?? [];
  const wanted = username.trim().toLowerCase();
  return users.find((u) => u.nickname.toLowerCase() === wanted || String(u.id) === wanted)?.password;
}

/**
 * Plays the person at the browser: opens the authorization URL, and when it shows the sign-in page,
 * answers it (`decision` as `username` with `password`, by default that demo user's password) with
 * the page's anti-forgery value, sealed request and cookie, like a browser would. Does not follow
 * the final redirect.
 */
export async function answerConsent(
  authorizationUrl: string,
  answer: {
    username?: string;
    password?: string;
    decision?: 'approve' | 'deny';
    csrf?: string;
    cookie?: string | null;
    origin?: string;
    accept?: string;
  } = {},
): Promise<BrowserResult & { page: BrowserResult }> {
  const accept = answer.accept ?? BROWSER_ACCEPT;
  const first = await fetch(authorizationUrl, { redirect: 'manual', headers: { accept } });
  const page: BrowserResult = { status: first.status, location: first.headers.get('location'), html: await first.text(), headers: first.headers };
  if (first.status !== 200) return { ...page, page };
  const csrf = answer.csrf ?? /name="csrf" value="([^"]+)"/.exec(page.html)?.[1] ?? '';
  const request = /name="request" value="([^"]+)"/.exec(page.html)?.[1] ?? '';
  const cookie = answer.cookie === undefined ? (first.headers.get('set-cookie') ?? '').split(';')[0]! : answer.cookie;
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept };
  if (cookie) headers.cookie = cookie;
  if (answer.origin) headers.origin = answer.origin;
  const username = answer.username ?? 'DEPOSITO_NORTE';
  const res = await fetch(new URL('/authorization', authorizationUrl), {
    method: 'POST',
    redirect: 'manual',
    headers,
    body: new URLSearchParams({
      csrf,
      request,
      username,
      password: answer.password ?? demoPassword(username) ?? '',
      decision: answer.decision ?? 'approve',
    }).toString(),
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text(), headers: res.headers, page };
}

/**
 * An `openExternal` for `signIn`: the browser signs in as `username` (with `password`, by default
 * that demo user's) and follows the redirect to the app's loopback listener.
 */
export function browserThatApproves(username = 'DEPOSITO_NORTE', seen?: string[], password?: string) {
  return async (url: string): Promise<void> => {
    seen?.push(url);
    const r = await answerConsent(url, { username, password });
    if (!r.location) throw new Error(`the sign-in page answered ${r.status}: ${r.html.slice(0, 200)}`);
    await (await fetch(r.location)).text();
  };
}

/** The app side of a redirect: a listener on 127.0.0.1 that records each callback's query. */
export async function loopbackListener(path = '/callback') {
  const received: URLSearchParams[] = [];
  const waiting: ((q: URLSearchParams) => void)[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.writeHead(url.pathname === path ? 200 : 404, { 'content-type': 'text/plain', connection: 'close' }).end('ok');
    if (url.pathname !== path) return;
    const w = waiting.shift();
    if (w) w(url.searchParams);
    else received.push(url.searchParams);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUri: `http://127.0.0.1:${port}${path}`,
    next: () => new Promise<URLSearchParams>((r) => (received.length ? r(received.shift()!) : waiting.push(r))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export interface AuthorizationRequest {
  clientId?: string | number;
  redirectUri?: string;
  state?: string;
  challenge?: string;
  method?: string;
  responseType?: string;
  extra?: Record<string, string>;
}

export function authorizationUrl(baseUrl: string, r: AuthorizationRequest): string {
  const q = new URLSearchParams();
  const put = (k: string, v: string | number | undefined) => v !== undefined && q.set(k, String(v));
  put('response_type', r.responseType ?? 'code');
  put('client_id', r.clientId);
  put('redirect_uri', r.redirectUri);
  put('state', r.state);
  put('code_challenge', r.challenge);
  put('code_challenge_method', r.method ?? 'S256');
  for (const [k, v] of Object.entries(r.extra ?? {})) q.append(k, v);
  return `${baseUrl}/authorization?${q.toString()}`;
}

// Token responses are untyped JSON asserted field by field, as in test/support/server.ts.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** POST /oauth/token as a form (default) or as JSON. */
export function tokenRequest(
  baseUrl: string,
  params: Record<string, string | number>,
  options: { json?: boolean; headers?: Record<string, string> } = {},
): Promise<ApiResponse<Json>> {
  const c = client(baseUrl, null);
  if (options.json) return c.post('/oauth/token', params, options.headers);
  const form = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return c.raw('POST', '/oauth/token', { raw: form, headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers } });
}

/**
 * The whole code flow by hand, as an integrator would: PKCE pair, sign-in as `username`, code from
 * the redirect, exchange. Returns the code and verifier too, for replay tests.
 */
export async function codeFlow(baseUrl: string, opts: { clientId: number; redirectUri?: string; username?: string; password?: string; clientSecret?: string }) {
  const pkce = createPkce();
  const redirectUri = opts.redirectUri ?? 'http://127.0.0.1:49152/callback';
  const url = authorizationUrl(baseUrl, { clientId: opts.clientId, redirectUri, state: 'st-1', challenge: pkce.challenge });
  const username = opts.username ?? 'DEPOSITO_NORTE';
  const consent = await answerConsent(url, { username, password: opts.password });
  if (!consent.location) throw new Error(`no redirect: ${consent.status} ${consent.html.slice(0, 300)}`);
  const code = new URL(consent.location).searchParams.get('code');
  if (!code) throw new Error(`no code in ${consent.location}`);
  const params: Record<string, string | number> = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    client_id: opts.clientId,
    code_verifier: pkce.verifier,
  };
  if (opts.clientSecret) params.client_secret = opts.clientSecret;
  const res = await tokenRequest(baseUrl, params);
  return { res, code, verifier: pkce.verifier, redirectUri, params };
}

/** The part of a TokenProvider a call needs (kept structural so the helper fits any provider). */
interface Provider {
  accessToken(): Promise<string>;
  refreshAfter401(rejected: string): Promise<string>;
}

export interface CallResult {
  status: number;
  /** The first attempt got a 401 and the retry with the refreshed token did not. */
  recovered401: boolean;
  /** Every token the call sent. */
  tokens: string[];
}

/**
 * What the sync engine does for each request: send the provider's token; on a 401 ask for a
 * replacement once and retry.
 */
export async function authedGet(baseUrl: string, provider: Provider, path: string): Promise<CallResult> {
  const first = await provider.accessToken();
  const res = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${first}` } });
  await res.arrayBuffer();
  if (res.status !== 401) return { status: res.status, recovered401: false, tokens: [first] };
  const second = await provider.refreshAfter401(first);
  const retry = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${second}` } });
  await retry.arrayBuffer();
  return { status: retry.status, recovered401: retry.status !== 401, tokens: [first, second] };
}

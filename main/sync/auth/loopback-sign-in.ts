import { timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuthError, SignInAbortedError } from './errors.js';
import { createPkce, randomState } from './pkce.js';
import { endpoint, requestTokens } from './token-endpoint.js';

/** The tokens of one signed-in person for one marketplace and application. */
export interface Credentials {
  baseUrl: string;
  applicationId: number;
  userId: number;
  accessToken: string;
  /** When the access token was requested and when it expires (ms since the epoch, app clock). */
  accessIssuedAt: number;
  accessExpiresAt: number;
  refreshToken: string;
  scope: string;
}

export interface SignInOptions {
  /** The marketplace, e.g. `http://127.0.0.1:8787` or `https://api.example.com`. */
  baseUrl: string;
  applicationId: number;
  /** Opens the URL in the system browser (Electron: `shell.openExternal`). */
  openExternal: (url: string) => Promise<void>;
  /** How long to wait for the browser to come back (default 5 minutes). */
  timeoutMs?: number;
  /** Only for a confidential application; a desktop app is a public client and has none. */
  clientSecret?: string;
  /** Path of the registered loopback redirect URI (default `/callback`). */
  callbackPath?: string;
  /** Cancels the wait (the person closed the sign-in dialog). */
  signal?: AbortSignal;
  clock?: { now(): number };
  /** Timeout of the code exchange request (default 15 s). */
  requestTimeoutMs?: number;
}

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

function page(res: ServerResponse, status: number, title: string, text: string): void {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:30rem;margin:4rem auto;padding:0 1rem}</style></head>
<body><h1>${title}</h1><p>${text}</p></body></html>`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': PAGE_CSP,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    connection: 'close',
  });
  res.end(html);
}

const sameString = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Sign-in through the system browser (RFC 8252): a one-shot HTTP server on 127.0.0.1 with an
 * ephemeral port receives the redirect; the authorization request carries `state` and a PKCE S256
 * challenge; the code is exchanged at `/oauth/token` with the verifier.
 *
 * Requests to the listener with another path or a wrong `state` are answered 404/400 and ignored
 * (they cannot end the sign-in); the first callback with the right `state` ends it: a page tells the
 * person to close the window, the listener closes, and its code is exchanged. `error=` in that
 * callback (the person denied) rejects with OAuthError.
 */
export async function signIn(options: SignInOptions): Promise<Credentials> {
  const clock = options.clock ?? { now: () => Date.now() };
  const callbackPath = options.callbackPath ?? '/callback';
  const pkce = createPkce();
  const state = randomState();

  let settle!: { resolve: (code: string) => void; reject: (e: Error) => void };
  const callback = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  let done = false;
  const finish = (outcome: { code: string } | { error: Error }) => {
    if (done) return;
    done = true;
    if ('code' in outcome) settle.resolve(outcome.code);
    else settle.reject(outcome.error);
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== callbackPath) return page(res, 404, 'Not found', 'Nothing here.');
    if (done) return page(res, 410, 'Sign-in finished', 'This sign-in is already complete. You can close this window.');
    const got = url.searchParams.get('state') ?? '';
    if (!sameString(got, state)) return page(res, 400, 'Unknown sign-in', 'This link does not belong to the sign-in the app is waiting for.');
    const error = url.searchParams.get('error');
    if (error) {
      page(res, 200, 'Sign-in cancelled', 'The app was not given access. You can close this window.');
      const description = (url.searchParams.get('error_description') ?? '').slice(0, 300);
      return finish({ error: new OAuthError(error.slice(0, 100), description, 0) });
    }
    const code = url.searchParams.get('code');
    if (!code) {
      page(res, 400, 'Sign-in failed', 'The marketplace sent no authorization code. Close this window and try again.');
      return finish({ error: new OAuthError('invalid_request', 'The redirect carried no code', 0) });
    }
    page(res, 200, 'Signed in', 'You can close this window and return to Stockroom.');
    finish({ code });
  });
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const redirectUri = `http://127.0.0.1:${port}${callbackPath}`;

  const timer = setTimeout(() => finish({ error: new SignInAbortedError('The browser sign-in did not complete in time') }), options.timeoutMs ?? 5 * 60_000);
  const onAbort = () => finish({ error: new SignInAbortedError('The sign-in was cancelled') });
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  let code: string;
  try {
    const url = endpoint(options.baseUrl, 'authorization');
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: String(options.applicationId),
      redirect_uri: redirectUri,
      state,
      code_challenge: pkce.challenge,
      code_challenge_method: pkce.method,
    }).toString();
    options.openExternal(url.toString()).catch((e: unknown) => finish({ error: e instanceof Error ? e : new Error(String(e)) }));
    code = await callback;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    // The answer page was written with `connection: close`; a connection still open after a
    // moment (a browser's idle keep-alive) is dropped.
    const force = setTimeout(() => server.closeAllConnections(), 2000);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    clearTimeout(force);
  }

  const tokens = await requestTokens(
    options.baseUrl,
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: String(options.applicationId),
      code_verifier: pkce.verifier,
      client_secret: options.clientSecret,
    },
    { timeoutMs: options.requestTimeoutMs ?? 15_000, now: () => clock.now() },
  );
  return {
    baseUrl: options.baseUrl,
    applicationId: options.applicationId,
    userId: tokens.userId,
    accessToken: tokens.accessToken,
    accessIssuedAt: tokens.issuedAt,
    accessExpiresAt: tokens.expiresAt,
    refreshToken: tokens.refreshToken,
    scope: tokens.scope,
  };
}

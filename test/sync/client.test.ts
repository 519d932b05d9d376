import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RemoteClient,
  RemoteError,
  type TokenProvider,
  UNREACHABLE,
  classifyError,
  classifyStatus,
  isTransportFailure,
  parseRetryAfter,
  serverMessage,
} from '../../main/sync/client.js';
import { waitFor } from '../support/wait.js';

describe('classification', () => {
  it('statuses: 2xx ok, 409 conflict, 401 auth, 408/425/429/5xx transient, other 4xx rejected', () => {
    expect([200, 201, 204].map(classifyStatus)).toEqual(['ok', 'ok', 'ok']);
    expect(classifyStatus(409)).toBe('conflict');
    expect(classifyStatus(401)).toBe('auth');
    expect([408, 425, 429, 500, 502, 503].map(classifyStatus)).toEqual(Array(6).fill('transient'));
    expect([400, 403, 404, 422].map(classifyStatus)).toEqual(Array(4).fill('rejected'));
  });

  it('network errors: unreachable is offline, anything that broke mid-exchange is transient', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT'])
      expect(classifyError(Object.assign(new Error('x'), { code })).kind).toBe('offline');
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', undefined])
      expect(classifyError(Object.assign(new Error('x'), { code })).kind).toBe('transient');
  });

  it('Retry-After: seconds or an HTTP date; garbage is ignored', () => {
    const now = Date.parse('2026-11-20T12:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(['0'], now)).toBe(0);
    expect(parseRetryAfter('Fri, 20 Nov 2026 12:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Fri, 20 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it("the user sees the server's message", () => {
    expect(serverMessage({ status: 400, headers: {}, body: { message: 'Store not found: 1' }, replayed: false })).toBe('Store not found: 1');
    expect(serverMessage({ status: 502, headers: {}, body: null, replayed: false })).toBe('HTTP 502');
  });
});

describe('RemoteClient against a loopback server', () => {
  let server: Server;
  let url: string;
  const seen: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      if (req.url === '/hang') return; // never answers
      const ok = req.headers.authorization === 'Bearer fresh';
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json', 'x-idempotent-replay': req.url === '/replay' ? 'true' : 'false' });
      res.end(JSON.stringify(ok ? { ok: true, path: req.url } : { error: 'invalid_token', message: 'Access token expired', status: 401, cause: [] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  function provider(tokens: string[]): TokenProvider & { refreshes: string[] } {
    const refreshes: string[] = [];
    let current = tokens.shift()!;
    return {
      applicationId: 42,
      refreshes,
      accessToken: async () => current,
      refreshAfter401: async (rejected) => {
        refreshes.push(rejected);
        current = tokens.shift() ?? current;
        return current;
      },
    };
  }

  it('every request carries the bearer token and the application id; a path prefix and the query are kept', async () => {
    const client = new RemoteClient({ baseUrl: `${url}/api/`, auth: provider(['fresh']) });
    const res = await client.request('GET', '/users/1', { query: { a: 1, b: undefined, c: 'x y' }, idempotencyKey: 'k1' });
    expect(res.body).toEqual({ ok: true, path: '/api/users/1?a=1&c=x+y' });
    expect(seen.at(-1)).toMatchObject({ authorization: 'Bearer fresh', 'x-client-id': '42', 'x-idempotency-key': 'k1' });
    await client.close();
  });

  it('a 401 refreshes once and resends; a second 401 goes back to the caller', async () => {
    const auth = provider(['stale', 'fresh']);
    const client = new RemoteClient({ baseUrl: url, auth });
    const res = await client.request('PUT', '/x', { json: { q: 1 } });
    expect(res.status).toBe(200);
    expect(auth.refreshes).toEqual(['stale']);
    expect(seen.at(-1)).toMatchObject({ authorization: 'Bearer fresh', 'content-type': 'application/json' });
    const dead = provider(['stale', 'still-stale']);
    const c2 = new RemoteClient({ baseUrl: url, auth: dead });
    expect((await c2.request('GET', '/x')).status).toBe(401);
    expect(dead.refreshes).toEqual(['stale']);
    await client.close();
    await c2.close();
  });

  it('reports replays and times out a silent server as a transient failure of the transport, which it reports', async () => {
    const failures: RemoteError[] = [];
    const client = new RemoteClient({ baseUrl: url, auth: provider(['fresh']), headersTimeoutMs: 150, onTransportFailure: (e) => failures.push(e) });
    expect((await client.request('GET', '/replay')).replayed).toBe(true);
    // /hang never answers: only the client's own deadline ends this request (no clock asserted).
    const err = await client.request('GET', '/hang').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as RemoteError).kind).toBe('transient');
    expect(isTransportFailure(err as RemoteError)).toBe(true);
    expect(failures).toEqual([err]);
    await client.close();
  });

  it('knows how long requests have been out unheard; cut ends them as offline; a probe answers on a connection of its own', async () => {
    const failures: RemoteError[] = [];
    // One connection, taken by the hanging request: the probe must not queue behind it.
    const client = new RemoteClient({ baseUrl: url, auth: provider(['fresh']), connections: 1, onTransportFailure: (e) => failures.push(e) });
    expect(client.silentForMs()).toBe(0);
    const hangs = seen.length;
    const out = client.request('PUT', '/hang', { json: { q: 1 }, idempotencyKey: 'k-hang' }).catch((e: unknown) => e);
    await waitFor(() => seen.length > hangs, 'the hanging request at the server');
    const silent = client.silentForMs();
    expect(silent).toBeGreaterThan(0);
    await waitFor(() => client.silentForMs() > silent, 'the silence to grow while nothing is heard');
    // Any answer, even a 401 to a probe without credentials, is the remote reachable.
    expect(await client.probe('/users/1', 2000)).toBe(true);
    expect(seen.at(-1)?.authorization).toBeUndefined();
    client.cut('no answer');
    const err = (await out) as RemoteError;
    expect(err).toBeInstanceOf(RemoteError);
    expect([err.kind, err.code]).toEqual(['offline', UNREACHABLE]);
    expect(err.message).toContain('no answer');
    // Cut is the app's decision, not a failure of the transport to report again.
    expect(failures).toEqual([]);
    expect(client.silentForMs()).toBe(0);
    // The pool recovers: the next request goes out on a fresh connection.
    expect((await client.request('GET', '/ok')).status).toBe(200);
    await client.close();
  });

  it('a probe of a remote that never answers, or of a closed port, is false within its own deadline', async () => {
    const client = new RemoteClient({ baseUrl: url, auth: provider(['fresh']) });
    expect(await client.probe('/hang', 100)).toBe(false);
    await client.close();
    const closed = new RemoteClient({ baseUrl: 'http://127.0.0.1:9', auth: provider(['fresh']) });
    expect(await closed.probe('/users/1', 1000)).toBe(false);
    await closed.close();
  });

  it('a closed port is offline', async () => {
    const client = new RemoteClient({ baseUrl: 'http://127.0.0.1:9', auth: provider(['fresh']) });
    const err = await client.request('GET', '/').catch((e: unknown) => e);
    expect((err as RemoteError).kind).toBe('offline');
    await client.close();
  });
});

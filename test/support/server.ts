import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, type ServerOptions, startServer } from '../../main/http/server.js';
import type { FixtureFile } from '../../main/fixtures/schema.js';
import { demoFixtures } from './fixtures.js';

export interface TestServer extends RunningServer {
  dir: string;
  /** A client that sends `token` as the bearer token. */
  as(token: string | null): Client;
}

/** A real server on 127.0.0.1 (port 0) over a real SQLite file in a temporary folder. */
export async function startTestServer(fixtures: FixtureFile = demoFixtures(), options: Partial<ServerOptions> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'stockroom-test-'));
  const fixtureFile = join(dir, 'fixtures.json');
  writeFileSync(fixtureFile, JSON.stringify(fixtures));
  const server = await startServer({ dbFile: join(dir, 'marketplace.db'), fixtures: fixtureFile, jobPollMs: 50, ...options });
  return {
    ...server,
    dir,
    as: (token) => client(server.url, token),
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export type Client = ReturnType<typeof client>;

// Response bodies are untyped JSON that each test asserts field by field; `any` keeps those
// assertions readable (body.locations[0].quantity) without a cast in every test.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Minimal JSON client over fetch (undici) for black-box tests. */
export function client(baseUrl: string, token: string | null) {
  async function call<T = Json>(
    method: string,
    path: string,
    init: { body?: unknown; raw?: string | Uint8Array | FormData; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | Uint8Array | FormData | undefined;
    if (init.raw !== undefined) body = init.raw;
    else if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T };
  }
  return {
    get: <T = Json>(path: string, headers?: Record<string, string>) => call<T>('GET', path, { headers: headers ?? {} }),
    post: <T = Json>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', path, { body, headers: headers ?? {} }),
    put: <T = Json>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('PUT', path, { body, headers: headers ?? {} }),
    raw: call,
  };
}

/** Asserts the error shape of SPEC 7 and returns the body for further checks. */
export function errorBody(res: ApiResponse): { error: string; message: string; status: number; cause: unknown[] } {
  const b = res.body as { error: string; message: string; status: number; cause: unknown[] };
  if (typeof b !== 'object' || b === null) throw new Error(`expected a JSON error body, got ${String(res.body)}`);
  if (b.status !== res.status) throw new Error(`body.status ${b.status} differs from HTTP status ${res.status}`);
  if (typeof b.error !== 'string' || typeof b.message !== 'string' || !Array.isArray(b.cause)) {
    throw new Error(`not the spec's error shape: ${JSON.stringify(b)}`);
  }
  return b;
}

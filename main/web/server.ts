import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { DEFAULT_SOCKET_LIMITS, type SocketLimits, answerClientError, applySocketLimits, serverOptions } from '../http/socket-limits.js';
import type { AddressInfo } from 'node:net';
import type { Result, StockroomEvent } from '../../common/contract/contract.js';
// The zod-free constants: the server listens before the contract's schemas (and the core) load.
import { CHANNEL_PREFIX, ERROR_CODES } from '../../common/contract/channels.js';
import type { ErrorCode } from '../../common/errors.js';
import { type BytesCodec, fromWire, toWire } from '../../common/contract/wire.js';
import { packAnswer } from '../../common/contract/grid-pack.js';
import { contentSecurityPolicy, pictureHosts } from '../security.js';
import { contentType, rendererFile } from './static.js';

/** The core as the bridge sees it: calls by channel, and the event stream. */
export interface BridgeTarget {
  call(channel: string, payload: unknown): Promise<Result<unknown>>;
  events: { on(name: 'event', l: (e: StockroomEvent) => void): unknown; off(name: 'event', l: (e: StockroomEvent) => void): unknown };
  status(): unknown;
}

export interface WebServerOptions {
  /**
   * The core, or the promise of it: the server can listen and serve the renderer while the core
   * opens (the browser loads the page meanwhile); bridge requests wait for it.
   */
  core: BridgeTarget | Promise<BridgeTarget>;
  /** 0 picks a free port. */
  port?: number;
  /** The built renderer (dist/renderer); null serves the bridge only. */
  rendererDir?: string | null;
  /** The Vite dev server as middleware (`npm run web -- --dev`), instead of rendererDir. */
  dev?: { middlewares: (req: IncomingMessage, res: ServerResponse, next: () => void) => void; origin?: string } | null;
  /** The per-run secret (random when omitted). */
  token?: string;
  /** Largest call body (bytes): a 25 MB file in base64 and its JSON. */
  bodyLimit?: number;
  /** Timeouts, the body's minimum rate and the connection cap (tests shorten them). */
  limits?: Partial<SocketLimits>;
}

export interface WebServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  token: string;
  /** The address to open: the origin with the token in the fragment (never sent to the server in a request line). */
  url: string;
  server: Server;
  close(): Promise<void>;
}

export const BRIDGE_PREFIX = '/bridge/';
export const TOKEN_HEADER = 'authorization';
const DEFAULT_BODY_LIMIT = 40 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;

const nodeCodec: BytesCodec = {
  encode: (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64'),
  decode: (s) => {
    const b = Buffer.from(s, 'base64');
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  },
};

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function refuse(res: ServerResponse, status: number, code: ErrorCode, message: string): void {
  const body: Result<never> = { ok: false, error: { code, message, status } };
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS });
  res.end(JSON.stringify(body));
}

/**
 * The browser mode's server, on 127.0.0.1 only: the built renderer (or the Vite dev server) and the
 * bridge — `POST /bridge/<area>.<function>` runs the same core call as the IPC channel
 * `stockroom:<area>.<function>` (same schema, same error values), `GET /bridge/events` streams the
 * core's events as server-sent events.
 *
 * Every bridge request is checked, in this order: Host is this loopback address (no DNS rebinding)
 * → no CORS preflight is ever allowed → an Origin header, when present, is this server's origin,
 * and Sec-Fetch-Site, when present, is same-origin or none → `Authorization: Bearer <token>` is the
 * per-run token. The token reaches the page in the URL fragment printed at start.
 */
export async function startWebServer(o: WebServerOptions): Promise<WebServer> {
  const token = o.token ?? randomBytes(24).toString('base64url');
  const bodyLimit = o.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const streams = new Set<ServerResponse>();
  let port = 0;
  const hosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const csp = contentSecurityPolicy({ pictureHosts: pictureHosts(), ...(o.dev?.origin ? { dev: { origin: o.dev.origin } } : {}) });

  /** The body as text; null when over the limit (read to its end so the 413 reaches the client, unless it is far over). */
  async function readBody(req: IncomingMessage): Promise<string | null> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > bodyLimit * 2) {
        req.destroy();
        return null;
      }
      if (size <= bodyLimit) chunks.push(chunk as Buffer);
    }
    return size > bodyLimit ? null : Buffer.concat(chunks).toString('utf8');
  }

  async function bridge(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method === 'OPTIONS') return refuse(res, 403, 'forbidden_origin', 'Cross-origin calls are not allowed');
    const origin = req.headers.origin;
    if (origin !== undefined && !origins().has(origin)) return refuse(res, 403, 'forbidden_origin', 'Calls from another site are not allowed');
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return refuse(res, 403, 'forbidden_origin', 'Calls from another site are not allowed');
    const auth = req.headers[TOKEN_HEADER];
    const given = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!sameSecret(given, token)) return refuse(res, 401, 'unauthorized', 'The bridge token is missing or wrong; open the address printed at start');

    const name = path.slice(BRIDGE_PREFIX.length);
    if (name === 'events') {
      if (req.method !== 'GET') return refuse(res, 405, 'method_not_allowed', 'Use GET');
      const core = await o.core;
      // Gone while the core was opening: nothing to stream to.
      if (res.destroyed) return;
      return events(req, res, core);
    }
    if (req.method !== 'POST') return refuse(res, 405, 'method_not_allowed', 'Use POST');
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const text = await readBody(req);
    if (text === null) return refuse(res, 413, 'payload_too_large', 'The request is too large');
    let payload: unknown;
    if (text.trim() === '') payload = undefined;
    else {
      if (type !== 'application/json') return refuse(res, 415, 'unsupported_media_type', 'Send application/json');
      try {
        payload = fromWire(text, nodeCodec) ?? undefined;
      } catch {
        return refuse(res, 400, ERROR_CODES.badRequest, 'The body is not valid JSON');
      }
    }
    const core = await o.core;
    const channel = `${CHANNEL_PREFIX}${name}`;
    const result = await core.call(channel, payload);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS });
    // Grid rows packed for the trip (common/contract/grid-pack.ts); createApi unpacks them.
    res.end(toWire(packAnswer(channel, result), nodeCodec));
  }

  function events(req: IncomingMessage, res: ServerResponse, core: BridgeTarget): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...SECURITY_HEADERS,
    });
    const send = (e: StockroomEvent) => res.write(`data: ${toWire(e, nodeCodec)}\n\n`);
    res.write('retry: 2000\n\n');
    const status = core.status();
    if (status) send({ type: 'sync.status', status: status as Extract<StockroomEvent, { type: 'sync.status' }>['status'] });
    core.events.on('event', send);
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    streams.add(res);
    const done = () => {
      clearInterval(heartbeat);
      core.events.off('event', send);
      streams.delete(res);
    };
    req.on('close', done);
    res.on('close', done);
  }

  async function page(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (o.dev) {
      res.setHeader('content-security-policy', csp);
      for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
      return o.dev.middlewares(req, res, () => refuse(res, 404, 'not_found', 'Not found'));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method_not_allowed', 'Use GET');
    const found = o.rendererDir ? await rendererFile(o.rendererDir, path) : null;
    if (!found) return refuse(res, 404, 'not_found', 'Not found');
    res.writeHead(200, {
      'content-type': contentType(found.file),
      'content-length': found.body.length,
      'content-security-policy': csp,
      'cache-control': found.file.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
      ...SECURITY_HEADERS,
    });
    res.end(req.method === 'HEAD' ? undefined : found.body);
  }

  const limits = { ...DEFAULT_SOCKET_LIMITS, ...(o.limits ?? {}) };
  const server = createServer(serverOptions(limits), (req, res) => {
    const host = req.headers.host ?? '';
    if (!hosts().has(host)) return refuse(res, 421, 'wrong_host', 'This server answers on its loopback address only');
    const path = (req.url ?? '/').split('?')[0]!;
    const work = path.startsWith(BRIDGE_PREFIX) ? bridge(req, res, path) : page(req, res, path);
    work.catch((e: unknown) => {
      // A client that went away (or a connection cut by the socket limits) is not the app's failure.
      if (req.destroyed && !res.headersSent) return;
      console.error('web:', e);
      if (!res.headersSent) refuse(res, 500, ERROR_CODES.internal, 'Something went wrong in the app; the details are in its log');
      else res.destroy();
    });
  });
  // The event stream writes a heartbeat every 15 s, under the idle limit.
  applySocketLimits(server, limits);
  // What the HTTP parser refuses itself (431, 408, 400) answers in the bridge's error shape.
  server.on('clientError', (err: { code?: string }, socket) =>
    answerClientError(err, socket, (e) => JSON.stringify({ ok: false, error: { code: e.code, message: e.message, status: e.status } })),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    token,
    url: `${origin}/#token=${token}`,
    server,
    async close() {
      for (const s of streams) s.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 1000).unref();
      await closed;
    },
  };
}

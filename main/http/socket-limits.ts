import { type IncomingMessage, STATUS_CODES, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * What a connection may take from a server before it is cut, for both servers on loopback (the
 * spec's API and the browser-mode bridge). Without these an unfinished request holds its socket
 * (and a file handle) forever. A body has no total time limit (a 25 MB upload on a slow link
 * still finishes): it must keep arriving at a minimum average rate instead.
 */
export interface SocketLimits {
  /** The request line and headers must arrive within this (ms). */
  headersTimeoutMs: number;
  /** No byte in either direction for this long ends the connection (ms). */
  idleTimeoutMs: number;
  /** An idle keep-alive connection closes after this (ms). */
  keepAliveTimeoutMs: number;
  /** A body arriving slower than this on average over `bodyRateWindowMs` is cut (bytes per second). */
  minBodyBytesPerSecond: number;
  bodyRateWindowMs: number;
  /**
   * Connections open at once. A new one past it (or past `maxConnectionsPerClient` for its
   * address) takes the place of the oldest connection with no request in progress (a half-sent
   * request, an idle keep-alive), so idle sockets cannot lock anyone out; when every connection is
   * busy, the new one is dropped.
   */
  maxConnections: number;
  /** Connections one address may hold at once (all of loopback is one address). */
  maxConnectionsPerClient: number;
}

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  // A request line and headers are a few hundred bytes: 5 s is long even on a bad link.
  headersTimeoutMs: 5_000,
  idleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  minBodyBytesPerSecond: 1024,
  bodyRateWindowMs: 10_000,
  maxConnections: 512,
  maxConnectionsPerClient: 128,
};

/** Options for `http.createServer`: the header deadline is checked often enough to be kept. */
export function serverOptions(limits: SocketLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    // The whole request has no deadline: the body's minimum rate (below) replaces it.
    requestTimeout: 0,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

/** Applies the idle, keep-alive, connection and body-rate limits to a server. */
export function applySocketLimits(server: Server, limits: SocketLimits): void {
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  guardConnections(server, limits);
  // Node destroys a socket that times out when nobody listens for 'timeout'.
  server.setTimeout(limits.idleTimeoutMs);
  guardBodyRates(server, limits);
}

/**
 * The connection caps (total and per address), with eviction: a connection is busy while a request
 * on it is being answered; a new connection over a cap closes the oldest one that is not busy
 * (first of its own address when it is the address's cap), else it is dropped. Node's own
 * `maxConnections` would drop the newcomer instead, which let 512 half-open sockets lock everyone out.
 */
function guardConnections(server: Server, limits: SocketLimits): void {
  const open = new Map<Socket, { client: string; busy: number }>();
  const perClient = new Map<string, number>();
  const evict = (match: (client: string) => boolean): boolean => {
    // Map order is age order: the oldest idle connection goes first.
    for (const [socket, c] of open) {
      if (c.busy === 0 && match(c.client)) {
        forget(socket);
        socket.destroy();
        return true;
      }
    }
    return false;
  };
  const forget = (socket: Socket) => {
    const c = open.get(socket);
    if (!c) return;
    open.delete(socket);
    const n = (perClient.get(c.client) ?? 1) - 1;
    if (n <= 0) perClient.delete(c.client);
    else perClient.set(c.client, n);
  };
  server.on('connection', (socket: Socket) => {
    const client = socket.remoteAddress ?? '';
    const room =
      ((perClient.get(client) ?? 0) < limits.maxConnectionsPerClient || evict((c) => c === client)) &&
      (open.size < limits.maxConnections || evict((c) => c === client) || evict(() => true));
    if (!room) {
      socket.destroy();
      return;
    }
    open.set(socket, { client, busy: 0 });
    perClient.set(client, (perClient.get(client) ?? 0) + 1);
    socket.once('close', () => forget(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const c = open.get(req.socket as Socket);
    if (!c) return;
    c.busy++;
    res.once('close', () => c.busy--);
  });
}

function hasBody(req: IncomingMessage): boolean {
  const length = Number(req.headers['content-length'] ?? 0);
  return length > 0 || req.headers['transfer-encoding'] !== undefined;
}

/**
 * One sweep per window over the requests whose body is still arriving. It measures the socket's
 * bytes read (never the request stream itself, which the body parser owns): a body that brought
 * less than the minimum in two windows in a row is cut (one slow window can be the process itself
 * pausing). A request leaves the sweep when it has been read or closed; nothing is attached to
 * the socket, which a keep-alive connection shares between requests.
 */
function guardBodyRates(server: Server, limits: SocketLimits): void {
  const arriving = new Map<IncomingMessage, { last: number; slow: number }>();
  const minimum = (limits.minBodyBytesPerSecond * limits.bodyRateWindowMs) / 1000;
  server.on('request', (req: IncomingMessage) => {
    if (!hasBody(req) || req.complete) return;
    arriving.set(req, { last: req.socket.bytesRead, slow: 0 });
    const done = () => arriving.delete(req);
    req.once('end', done);
    req.once('close', done);
  });
  const sweep = setInterval(() => {
    for (const [req, s] of arriving) {
      if (req.complete || req.socket.destroyed) {
        arriving.delete(req);
        continue;
      }
      const now = req.socket.bytesRead;
      s.slow = now - s.last < minimum ? s.slow + 1 : 0;
      s.last = now;
      if (s.slow >= 2) {
        arriving.delete(req);
        req.socket.destroy();
      }
    }
  }, limits.bodyRateWindowMs);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}

/** A refusal the HTTP parser makes before any route runs, as status, code and words. */
export function clientErrorOf(err: { code?: string }): {
  status: number;
  code: 'header_fields_too_large' | 'request_timeout' | 'bad_request';
  message: string;
} {
  if (err.code === 'HPE_HEADER_OVERFLOW') return { status: 431, code: 'header_fields_too_large', message: 'The request line and headers are too large' };
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, code: 'request_timeout', message: 'The request took too long to arrive' };
  return { status: 400, code: 'bad_request', message: 'The request is malformed' };
}

/**
 * Answers what the HTTP parser refused (431 headers too large, 408 too slow, 400 malformed) with a
 * body in the server's own error shape, then closes the connection; a socket that cannot be
 * written to is destroyed.
 */
export function answerClientError(err: { code?: string }, socket: Duplex, body: (e: ReturnType<typeof clientErrorOf>) => string): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const e = clientErrorOf(err);
  const text = body(e);
  socket.end(
    `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

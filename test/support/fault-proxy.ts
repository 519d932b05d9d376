import { type IncomingMessage, type ServerResponse, Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A small deterministic PRNG (mulberry32): the same seed gives the same fault sequence. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Probabilities (0..1) of each fault per request; what is left is forwarded untouched. */
export interface Faults {
  /** Destroy the client's socket before forwarding: the remote never sees the request. */
  drop: number;
  /** Forward, let the remote answer (and apply), then destroy the client's socket: the answer is lost. */
  reset: number;
  /** Hold the request `delayMs` before forwarding. */
  delay: number;
  /** Answer 500 without forwarding. */
  error500: number;
  /** Answer 429 with Retry-After without forwarding. */
  tooMany: number;
  delayMs?: [number, number];
  /** Retry-After of the 429s, in seconds (default 1). */
  retryAfterSeconds?: number;
}

export const NO_FAULTS: Faults = { drop: 0, reset: 0, delay: 0, error500: 0, tooMany: 0 };

/** 20% of requests fail, spread over every kind of fault (plus some delays that do not fail). */
export const TWENTY_PERCENT: Faults = { drop: 0.05, reset: 0.05, error500: 0.05, tooMany: 0.05, delay: 0.05, delayMs: [5, 40] };

/** `blackhole`: the request is swallowed, never forwarded nor answered (its client times out). */
export type FaultKind = 'drop' | 'reset' | 'delay' | 'error500' | 'tooMany' | 'blackhole';

/**
 * The network as a whole (setNetwork): `up` forwards as usual; `blackhole` swallows every request
 * and every answer still to come (a Wi-Fi drop, a captive portal: connections stay open, nothing
 * arrives); `reset` cuts every request's connection as it arrives, and answers still to come.
 */
export type Network = 'up' | 'blackhole' | 'reset';

export interface ProxyLogEntry {
  seq: number;
  method: string;
  path: string;
  key: string | undefined;
  fault: FaultKind | null;
  /** The remote's status when the request was forwarded. */
  status: number | null;
  /** True when this request reached the remote. */
  forwarded: boolean;
  /** When the proxy received it (Date.now()). */
  at: number;
  /** True when a `hold` kept it at the proxy until released (the fault, if any, is decided at release). */
  held: boolean;
}

/** Requests kept at the proxy by `hold`: received whole, not forwarded until `release()`. */
export interface Hold {
  /** Resolves once `times` matching requests are held at the proxy (rejects if the proxy closes first). */
  arrived: Promise<void>;
  /** How many requests this hold has kept so far. */
  readonly held: number;
  /**
   * Forwards the held requests as if they had just arrived (faults included), and ends the hold:
   * later matching requests go through untouched.
   */
  release(): void;
}

export interface FaultProxy {
  url: string;
  port: number;
  /** Per fault kind, how many times it was applied; `forwarded` counts requests that reached the remote. */
  counts: Record<FaultKind | 'forwarded' | 'total', number>;
  log: ProxyLogEntry[];
  setFaults(f: Faults): void;
  /** Forces `kind` on the next `times` requests matching `match` (method and path), before the random faults. */
  inject(kind: FaultKind, times?: number, match?: (method: string, path: string) => boolean): void;
  /**
   * Keeps the next `times` requests matching `match` at the proxy: each is received whole and held,
   * not forwarded, until `release()`; then it goes on like any other request. A request the test
   * needs on the wire stays there for exactly as long as the test says, on a fast machine or a
   * busy one. goOffline and close cut held requests (their clients see the connection drop).
   */
  hold(match: (method: string, path: string) => boolean, times?: number): Hold;
  /**
   * Sets the network (see Network). Back `up`, the connections swallowed by a black hole are cut
   * (as a router forgets them); the next requests go through.
   */
  setNetwork(n: Network): void;
  /** Stops listening and cuts every connection (held requests too): clients get ECONNREFUSED until goOnline. */
  goOffline(): Promise<void>;
  goOnline(): Promise<void>;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade']);

/**
 * A real HTTP proxy on 127.0.0.1 in front of `target`, deciding per request (from a seeded PRNG)
 * whether to forward it untouched or inject a fault: drop, reset after forwarding, delay, 500, 429
 * with Retry-After. `applies` limits faults to some requests (the others are always forwarded).
 */
export async function startFaultProxy(
  target: string,
  options: { seed?: number; faults?: Faults; applies?: (method: string, path: string) => boolean } = {},
): Promise<FaultProxy> {
  const upstream = new URL(target);
  const random = mulberry32(options.seed ?? 1);
  let faults = options.faults ?? NO_FAULTS;
  const counts: FaultProxy['counts'] = { drop: 0, reset: 0, delay: 0, error500: 0, tooMany: 0, blackhole: 0, forwarded: 0, total: 0 };
  let network: Network = 'up';
  /** Connections whose request a black hole swallowed: left open, answered never. */
  const swallowed = new Set<Socket>();
  const log: ProxyLogEntry[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const sockets = new Set<Socket>();
  let seq = 0;
  const scripted: { kind: FaultKind; match: (method: string, path: string) => boolean }[] = [];
  interface HoldState {
    match: (method: string, path: string) => boolean;
    remaining: number;
    held: number;
    times: number;
    arrived: () => void;
    cut: (e: Error) => void;
    /** Resolvers of the requests held now: `true` to forward, `false` to cut. */
    waiting: ((go: boolean) => void)[];
    /** Set by goOffline / close: requests still reading their body are cut as they finish. */
    cutOff: boolean;
    /** Set by release(): requests still reading their body go on as they finish. */
    released: boolean;
  }
  const holds: HoldState[] = [];

  function decide(method: string, path: string): FaultKind | null {
    const forced = scripted.findIndex((s) => s.match(method, path));
    if (forced >= 0) return scripted.splice(forced, 1)[0]!.kind;
    if (options.applies && !options.applies(method, path)) return null;
    const r = random();
    let acc = 0;
    for (const kind of ['drop', 'reset', 'error500', 'tooMany', 'delay'] as const) {
      acc += faults[kind];
      if (r < acc) return kind;
    }
    return null;
  }

  function forward(req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
      headers['content-length'] = String(body.length);
      headers.host = upstream.host;
      const up = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const out: Record<string, string | string[]> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
          resolve({ status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      });
      up.on('error', reject);
      up.end(body);
    });
  }

  const readBody = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });

  /** The network is not up: the request (or its answer) is swallowed or cut; true when it was. */
  function networkDown(entry: ProxyLogEntry, req: IncomingMessage): boolean {
    if (network === 'up') return false;
    entry.fault = network === 'blackhole' ? 'blackhole' : 'drop';
    counts[entry.fault]++;
    if (network === 'blackhole') swallowed.add(req.socket);
    else req.socket.destroy();
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    counts.total++;
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const key = typeof req.headers['x-idempotency-key'] === 'string' ? req.headers['x-idempotency-key'] : undefined;
    const entry: ProxyLogEntry = { seq: ++seq, method, path, key, fault: null, status: null, forwarded: false, at: Date.now(), held: false };
    log.push(entry);
    if (networkDown(entry, req)) return;
    let body: Buffer | undefined;
    const hold = holds.find((h) => h.remaining > 0 && h.match(method, path));
    if (hold) {
      hold.remaining--;
      entry.held = true;
      body = await readBody(req);
      if (hold.cutOff) {
        req.socket.destroy();
        return;
      }
      const go = hold.released ? Promise.resolve(true) : new Promise<boolean>((resolve) => hold.waiting.push(resolve));
      if (++hold.held === hold.times) hold.arrived();
      if (!(await go)) {
        req.socket.destroy();
        return;
      }
    }
    const fault = decide(method, path);
    entry.fault = fault;
    if (fault) counts[fault]++;
    if (fault === 'drop') {
      req.socket.destroy();
      return;
    }
    if (fault === 'blackhole') {
      swallowed.add(req.socket);
      return;
    }
    body ??= await readBody(req);
    if (fault === 'error500' || fault === 'tooMany') {
      const status = fault === 'error500' ? 500 : 429;
      const payload = JSON.stringify({
        error: fault === 'error500' ? 'internal_error' : 'too_many_requests',
        message: `Injected ${status}`,
        status,
        cause: [],
      });
      const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) };
      if (fault === 'tooMany') headers['retry-after'] = String(faults.retryAfterSeconds ?? 1);
      res.writeHead(status, headers).end(payload);
      return;
    }
    if (fault === 'delay') {
      const [min, max] = faults.delayMs ?? [5, 50];
      await new Promise((r) => setTimeout(r, min + Math.floor(random() * (max - min + 1))));
    }
    let answer;
    try {
      answer = await forward(req, body);
    } catch (e) {
      res
        .writeHead(502, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'bad_gateway', message: (e as Error).message, status: 502, cause: [] }));
      return;
    }
    entry.forwarded = true;
    entry.status = answer.status;
    counts.forwarded++;
    // The network went down while the remote answered: the answer is lost (the remote applied it).
    if (networkDown(entry, req)) return;
    if (fault === 'reset') {
      req.socket.destroy();
      return;
    }
    answer.headers['content-length'] = String(answer.body.length);
    res.writeHead(answer.status, answer.headers).end(answer.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  let listening = true;

  /** Cuts every held request, and fails the `arrived` of holds still waiting for theirs. */
  const cutHolds = (why: string) => {
    for (const h of holds.splice(0)) {
      h.cutOff = true;
      for (const w of h.waiting.splice(0)) w(false);
      h.remaining = 0;
      h.cut(new Error(`fault proxy: ${why} with ${h.held} of ${h.times} held requests arrived`));
    }
  };

  const stopListening = () =>
    new Promise<void>((resolve) => {
      cutHolds('went offline or closed');
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    counts,
    log,
    setFaults: (f) => {
      faults = f;
    },
    setNetwork: (n) => {
      network = n;
      if (n !== 'up') return;
      for (const s of swallowed) s.destroy();
      swallowed.clear();
    },
    inject: (kind, times = 1, match = () => true) => {
      for (let i = 0; i < times; i++) scripted.push({ kind, match });
    },
    hold: (match, times = 1) => {
      let arrived!: () => void;
      let cut!: (e: Error) => void;
      const promise = new Promise<void>((resolve, reject) => {
        arrived = resolve;
        cut = reject;
      });
      // A test that never awaits `arrived` must not see an unhandled rejection when the proxy closes.
      promise.catch(() => undefined);
      const state: HoldState = { match, remaining: times, held: 0, times, arrived, cut, waiting: [], cutOff: false, released: false };
      holds.push(state);
      return {
        arrived: promise,
        get held() {
          return state.held;
        },
        release: () => {
          state.remaining = 0;
          state.released = true;
          const i = holds.indexOf(state);
          if (i >= 0) holds.splice(i, 1);
          for (const w of state.waiting.splice(0)) w(true);
        },
      };
    },
    goOffline: stopListening,
    goOnline: () =>
      new Promise<void>((resolve, reject) => {
        if (listening) return resolve();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          listening = true;
          resolve();
        });
      }),
    close: async () => {
      await stopListening();
      agent.destroy();
    },
  };
}

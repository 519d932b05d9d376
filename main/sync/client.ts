// Over 400 lines on purpose: the client, its error classification and the handler that reads
// each answer within its limits (size, deadline, redirects) are one boundary with the remote;
// split, the limits would be checked in one file and enforced in another.
import { isServiceErrorCode } from '../../common/errors.js';
import { remoteAddressProblem } from '../../common/remote-address.js';
import { ServiceError } from '../service/errors.js';
import { type BudgetPriority, type BudgetResource, type RequestBudget, budgetResourceOf } from './budget.js';
import { Client, type Dispatcher, type FormData, Pool } from 'undici';

/**
 * Where outgoing requests get their credentials. The OAuth helper's TokenManager
 * (main/sync/auth/token-manager.ts) has exactly this shape; tests use a static provider.
 */
export interface TokenProvider {
  /** A valid access token (refreshed ahead of expiry by the provider). */
  accessToken(): Promise<string>;
  /** Called once when the remote answered 401 to `rejectedToken`; resolves with a new token. */
  refreshAfter401(rejectedToken: string): Promise<string>;
  applicationId: number;
}

/** A provider over one long-lived token (fixture tokens, tests). */
export function staticTokenProvider(token: string, applicationId: number): TokenProvider {
  return { accessToken: async () => token, refreshAfter401: async () => token, applicationId };
}

export interface ClientOptions {
  /** The remote marketplace API, e.g. https://api.example.com or http://127.0.0.1:8787 (a path prefix is kept). */
  baseUrl: string;
  auth: TokenProvider;
  /** Keep-alive connections to the remote: the bound on concurrent requests (default 8). */
  connections?: number;
  /** TCP (and TLS) connect timeout (default 5 s). */
  connectTimeoutMs?: number;
  /** Time to the response headers (default 15 s). */
  headersTimeoutMs?: number;
  /** Time between two body chunks (default 30 s). */
  bodyTimeoutMs?: number;
  /** Idle keep-alive connections are closed after this (default 30 s). */
  keepAliveTimeoutMs?: number;
  /** Largest answer body read into memory, in bytes (default 8 MB); a request may ask for another. */
  maxBodyBytes?: number;
  /**
   * Longest one exchange may take from sending to the last byte of its answer (default 120 s):
   * bodyTimeout bounds only the gap between two chunks, so a remote dripping a byte at a time
   * would otherwise keep a request (and the pull behind it) pending for ever.
   */
  deadlineMs?: number;
  /** A request failed in transport (reset, timeout, no complete answer): the network may be gone (connectivity.ts). */
  onTransportFailure?: (e: RemoteError) => void;
  /** The marketplace's per-application limits (budget.ts): each limited request waits for its turn; none when absent. */
  budget?: RequestBudget;
}

/** Answers larger than this are refused: the remote's JSON answers are a few KB to a few hundred KB. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
export const DEFAULT_DEADLINE_MS = 120_000;

/** RemoteError codes of the limits this client puts on an answer (not undici's or the OS's codes). */
export const TOO_LARGE = 'STOCKROOM_ANSWER_TOO_LARGE';
export const DEADLINE = 'STOCKROOM_DEADLINE';
export const REDIRECTED = 'STOCKROOM_REDIRECT';
/** The code of the requests cut because the remote was found unreachable (RemoteClient.cut). */
export const UNREACHABLE = 'STOCKROOM_UNREACHABLE';

/** How a failed exchange is handled by the outbox (see classifyStatus, classifyError). */
export type FailureKind =
  /** The remote cannot be reached at all (refused, unreachable, DNS, connect timeout): wait for it, attempts are not spent. */
  | 'offline'
  /** Worth retrying with backoff: reset, timeout, 429, 5xx. */
  | 'transient'
  /** The remote refused the request for good (4xx other than 401/409/429): shown to the user. */
  | 'rejected';

/** A network-level failure of one request. */
export class RemoteError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RemoteError';
  }
}

export interface RemoteResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or null when the answer had no JSON body. */
  body: unknown;
  /** True when the server answered from its idempotency store (x-idempotent-replay). */
  replayed: boolean;
}

/** The spec's error body (SPEC 7), when the remote sent one. */
export interface RemoteErrorBody {
  error?: string;
  message?: string;
  status?: number;
  cause?: unknown[];
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  /** JSON body (serialised here) or a multipart form. */
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** Sent as X-Idempotency-Key. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Raw body stream instead of JSON parsing (attachment downloads). */
  raw?: boolean;
  /** This request's own body cap (see ClientOptions.maxBodyBytes). */
  maxBodyBytes?: number;
  /** This request's own deadline (see ClientOptions.deadlineMs). */
  deadlineMs?: number;
  /** Whose turn in the budget (budget.ts): the outbox's requests go before background reads (default: GET pull, else push). */
  priority?: BudgetPriority;
}

const OFFLINE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
  'EADDRNOTAVAIL',
]);

/** Network errors: unreachable remote is `offline`; everything else that broke mid-exchange is `transient`. */
export function classifyError(e: unknown): RemoteError {
  if (e instanceof RemoteError) return e;
  // A signal's reason may be the limit that aborted the exchange (see limitSignal).
  if (e instanceof Error && e.cause instanceof RemoteError) return e.cause;
  const err = e as { code?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  const message = err.message ?? String(e);
  if (code !== undefined && OFFLINE_CODES.has(code)) return new RemoteError('offline', `remote unreachable (${code})`, code, { cause: e });
  return new RemoteError('transient', `request failed: ${message}${code ? ` (${code})` : ''}`, code, { cause: e });
}

/** A failure of the exchange itself (reset, timeout), not an answer of the remote: it may be the network's. */
export function isTransportFailure(e: RemoteError): boolean {
  return e.kind === 'transient' && e.code !== TOO_LARGE;
}

/** HTTP statuses: 2xx ok; 409 conflict; 401 auth; 408/425/429/5xx transient; other 4xx rejected. */
export function classifyStatus(status: number): 'ok' | 'conflict' | 'auth' | FailureKind {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 409) return 'conflict';
  if (status === 401) return 'auth';
  if (status === 408 || status === 425 || status === 429 || status >= 500) return 'transient';
  return 'rejected';
}

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | string[] | undefined, now: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^[0-9]{1,10}$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** The server's message for the user: the spec body's `message`, else the status line. */
export function serverMessage(res: RemoteResponse): string {
  const b = res.body;
  if (typeof b === 'object' && b !== null && 'message' in b && typeof b.message === 'string' && b.message !== '') return b.message;
  return `HTTP ${res.status}`;
}

/** A refusal of the remote as the app's own error: its code when it is one the app knows, else `remote_error`. */
export function remoteError(res: RemoteResponse): ServiceError {
  const b = typeof res.body === 'object' && res.body !== null ? res.body : {};
  const code = 'error' in b && isServiceErrorCode(b.error) ? b.error : 'remote_error';
  const cause =
    'cause' in b && Array.isArray(b.cause)
      ? b.cause.filter((c): c is string | Record<string, unknown> => typeof c === 'string' || (typeof c === 'object' && c !== null))
      : [];
  return new ServiceError(res.status >= 400 && res.status < 600 ? res.status : 502, code, serverMessage(res), cause);
}

/**
 * The HTTP client of the sync engine: one undici Pool (keep-alive, bounded connections, connect /
 * headers / body timeouts) to the remote origin. Every request carries `Authorization: Bearer`
 * and the application id (`x-client-id`). A 401 asks the token provider for a new token once and
 * resends the request; any other status is returned to the caller, which classifies it.
 */
export class RemoteClient {
  private readonly pool: Pool;
  private readonly origin: string;
  private readonly prefix: string;
  private readonly maxBodyBytes: number;
  private readonly deadlineMs: number;
  private readonly onTransportFailure: ((e: RemoteError) => void) | undefined;
  private readonly budget: RequestBudget | undefined;
  /** The exchanges out now, and when the remote last sent anything (performance.now()): see silentForMs. */
  private readonly out = new Set<Answer>();
  private lastHeardAt = 0;
  /**
   * One timer for every exchange's deadline, armed for the earliest (see sweepDeadlines): an
   * AbortController, a timer and an error made up front for each request cost the sync flush more
   * CPU than undici's own work (issue 29).
   */
  private deadlineTimer: NodeJS.Timeout | undefined;
  private deadlineTimerAt = Infinity;
  private readonly heard = (): void => {
    this.lastHeardAt = performance.now();
  };
  readonly auth: TokenProvider;

  constructor(options: ClientOptions) {
    // Tokens never travel unencrypted over a network.
    const problem = remoteAddressProblem(options.baseUrl);
    if (problem) throw new ServiceError(400, 'bad_request', problem);
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.auth = options.auth;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.onTransportFailure = options.onTransportFailure;
    this.budget = options.budget;
    this.pool = new Pool(this.origin, {
      connections: options.connections ?? 8,
      pipelining: 1,
      connectTimeout: options.connectTimeoutMs ?? 5000,
      headersTimeout: options.headersTimeoutMs ?? 15_000,
      bodyTimeout: options.bodyTimeoutMs ?? 30_000,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
    });
  }

  /** One request; the body is JSON as received, `unknown` until a schema of remote-answers.ts parses it. */
  async request(method: 'GET' | 'PUT' | 'POST', path: string, opts: RequestOptions = {}): Promise<RemoteResponse> {
    let token = await this.auth.accessToken();
    let res = await this.limited(method, path, opts, token);
    if (res.status === 401) {
      // One refresh and one resend (a request of its own in the budget); a second 401 goes back to the caller.
      token = await this.auth.refreshAfter401(token);
      res = await this.limited(method, path, opts, token);
    }
    if (res.status >= 300 && res.status < 400) throw redirectError(res.status, res.headers);
    return res;
  }

  /**
   * GET returning the raw body stream (attachment downloads); the caller consumes or dumps it and
   * caps its size. The deadline covers the body too: past it the stream fails with a RemoteError.
   */
  async download(path: string, opts: RequestOptions = {}) {
    const limit = deadlineSignal(opts.deadlineMs ?? this.deadlineMs, opts.signal);
    const withLimit = { ...opts, signal: limit.signal };
    try {
      let token = await this.auth.accessToken();
      const status = (r: Dispatcher.ResponseData): [number, string | string[] | undefined] => [r.statusCode, r.headers['retry-after']];
      let res = await this.budgeted('GET', path, opts, () => this.dispatch('GET', path, withLimit, token), status);
      if (res.statusCode === 401) {
        await res.body.dump();
        token = await this.auth.refreshAfter401(token);
        res = await this.budgeted('GET', path, opts, () => this.dispatch('GET', path, withLimit, token), status);
      }
      if (res.statusCode >= 300 && res.statusCode < 400) {
        await res.body.dump().catch(() => undefined);
        throw redirectError(res.statusCode, res.headers);
      }
      res.body.once('close', limit.clear);
      return res;
    } catch (e) {
      limit.clear();
      throw classifyError(e);
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = undefined;
    this.deadlineTimerAt = Infinity;
  }

  /**
   * A limited request waits for its turn in the budget first; a 429 of it tells the budget (which
   * pauses the resource until Retry-After). The caller still gets the 429 and classifies it.
   */
  private async budgeted<T>(
    method: string,
    path: string,
    opts: RequestOptions,
    exchange: () => Promise<T>,
    status: (r: T) => [number, string | string[] | undefined],
  ): Promise<T> {
    const resource = this.budget ? budgetResourceOf(method, path) : null;
    if (resource === null) return exchange();
    const wait = this.turn(resource, method, opts);
    if (wait) await wait;
    const res = await exchange();
    const [code, retryAfter] = status(res);
    if (code === 429) this.budget?.throttled(resource, parseRetryAfter(retryAfter, Date.now()) ?? null);
    return res;
  }

  /** One exchange within the budget, as budgeted does it without a closure per request: it runs for every PUT of a flush. */
  private async limited(method: 'GET' | 'PUT' | 'POST', path: string, opts: RequestOptions, token: string): Promise<RemoteResponse> {
    const resource = this.budget ? budgetResourceOf(method, path) : null;
    const wait = resource === null ? undefined : this.turn(resource, method, opts);
    if (wait) await wait;
    const res = await this.send(method, path, opts, token);
    if (resource !== null && res.status === 429) this.budget?.throttled(resource, parseRetryAfter(res.headers['retry-after'], Date.now()) ?? null);
    return res;
  }

  /**
   * A limited request's turn: undefined when it may go now (a token there now is spent without a
   * promise), else the wait in the budget; an aborted caller is refused by acquire as before.
   */
  private turn(resource: BudgetResource, method: string, opts: RequestOptions): Promise<void> | undefined {
    const budget = this.budget;
    if (!budget || (!opts.signal?.aborted && budget.take(resource))) return undefined;
    return budget.acquire(resource, opts.priority ?? (method === 'GET' ? 'pull' : 'push'), opts.signal).catch((e: unknown) => {
      throw classifyError(e);
    });
  }

  /**
   * How long requests have been out with nothing heard from the remote (0 when none is out): the
   * time since the oldest one went, or since the last byte of any answer if that came later.
   */
  silentForMs(now = performance.now()): number {
    let oldest = Infinity;
    for (const a of this.out) oldest = Math.min(oldest, a.startedAt);
    return oldest === Infinity ? 0 : Math.max(0, now - Math.max(oldest, this.lastHeardAt));
  }

  /**
   * Ends every exchange out now with an `offline` RemoteError: the remote was found unreachable.
   * A request that may have reached it keeps its outcome unknown (the outbox resends it under its key).
   */
  cut(why: string): void {
    for (const a of [...this.out]) a.cut(new RemoteError('offline', `the marketplace cannot be reached (${why})`, UNREACHABLE));
  }

  /**
   * One light GET on a fresh connection of its own (never queued behind requests that hang), with
   * no credentials: true when the remote answered anything, even an error status, within `timeoutMs`.
   */
  async probe(path: string, timeoutMs: number): Promise<boolean> {
    const c = new Client(this.origin, { connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, pipelining: 1 });
    try {
      const res = await c.request({
        method: 'GET',
        path: `${this.prefix}${path}`,
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body.dump().catch(() => undefined);
      return true;
    } catch {
      return false;
    } finally {
      c.destroy().catch(() => undefined);
    }
  }

  private pathWithQuery(path: string, query: RequestOptions['query']): string {
    let full = `${this.prefix}${path}`;
    const entries = Object.entries(query ?? {}).filter((e): e is [string, string | number] => e[1] !== undefined);
    if (entries.length > 0) full += `?${new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
    return full;
  }

  /** The request as undici takes it: the path with its query, the headers, the body serialised. */
  private options(method: string, path: string, opts: RequestOptions, token: string): Dispatcher.DispatchOptions {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      'x-client-id': String(this.auth.applicationId),
      ...opts.headers,
    };
    if (opts.idempotencyKey !== undefined) headers['x-idempotency-key'] = opts.idempotencyKey;
    let body: string | FormData | null = null;
    if (opts.form !== undefined) body = opts.form;
    else if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    }
    return {
      method: method as 'GET',
      path: opts.query === undefined ? `${this.prefix}${path}` : this.pathWithQuery(path, opts.query),
      headers,
      body,
      // Never resent by undici itself: a resend is the outbox's decision (with the same key).
      idempotent: false,
    };
  }

  private async dispatch(method: string, path: string, opts: RequestOptions, token: string) {
    try {
      return await this.pool.request({ ...this.options(method, path, opts, token), signal: opts.signal });
    } catch (e) {
      throw classifyError(e);
    }
  }

  /** One exchange, its answer read whole (see Answer), within its size cap and deadline. */
  private send(method: string, path: string, opts: RequestOptions, token: string): Promise<RemoteResponse> {
    return new Promise((resolve, reject) => {
      const ms = opts.deadlineMs ?? this.deadlineMs;
      const ended = (answer: Answer, e: RemoteError | null) => {
        this.out.delete(answer);
        if (e === null) return;
        // The caller's own abort (a pull stopped) says nothing of the network.
        if (!opts.signal?.aborted && isTransportFailure(e)) this.onTransportFailure?.(e);
        reject(e);
      };
      const answer = new Answer(resolve, ended, opts.signal, opts.maxBodyBytes ?? this.maxBodyBytes, this.heard, ms);
      this.out.add(answer);
      this.armDeadline(answer.deadlineAt);
      // Errors (a closed pool, a bad header) come to the handler's onResponseError, not thrown.
      this.pool.dispatch(this.options(method, path, opts, token), answer);
    });
  }

  /** The deadline timer goes off at `at` at the latest (performance.now() time). */
  private armDeadline(at: number): void {
    if (at >= this.deadlineTimerAt) return;
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimerAt = at;
    this.deadlineTimer = setTimeout(() => this.sweepDeadlines(), Math.max(0, Math.ceil(at - performance.now())));
    // As each request's own timer was: a deadline never keeps the process alive.
    this.deadlineTimer.unref();
  }

  /** Ends the exchanges past their deadline with a clear error, and arms the timer for the next one. */
  private sweepDeadlines(): void {
    this.deadlineTimer = undefined;
    this.deadlineTimerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const a of [...this.out]) {
      if (a.deadlineAt <= now) a.cut(new RemoteError('transient', `no complete answer within ${a.deadlineMs} ms`, DEADLINE));
      else next = Math.min(next, a.deadlineAt);
    }
    if (next !== Infinity) this.armDeadline(next);
  }
}

/**
 * Collects one answer whole from undici's handler callbacks and parses its JSON: the answers of
 * the remote are small, and a body stream per request (what `request()` returns) cost the sync
 * flush more CPU than reading the answer itself. Failures are classified as `request` did them.
 */
const NOTHING = (): void => undefined;

class Answer implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: Record<string, string | string[] | undefined> = {};
  private chunks: Buffer[] = [];
  private controller: Dispatcher.DispatchController | null = null;
  /** Why the caller's signal aborted the request, until undici starts it. */
  private reason: unknown = undefined;
  private readonly unlisten: (() => void) | null = null;

  private size = 0;
  private done = false;
  readonly startedAt = performance.now();
  /** When the exchange must be over (performance.now() time): the client's one timer cuts it then. */
  readonly deadlineAt: number;

  constructor(
    private resolve: (res: RemoteResponse) => void,
    /** The exchange is over: with its error, or null before `resolve` is called. */
    private ended: (answer: Answer, e: RemoteError | null) => void,
    signal: AbortSignal | undefined,
    private readonly maxBytes: number,
    /** The remote sent something (headers or a chunk). */
    private readonly heard: () => void,
    readonly deadlineMs: number,
  ) {
    this.deadlineAt = this.startedAt + deadlineMs;
    if (!signal) return;
    const onAbort = () => {
      this.reason = signal.reason;
      this.controller?.abort(signal.reason as Error);
    };
    if (signal.aborted) this.reason = signal.reason;
    else {
      signal.addEventListener('abort', onAbort, { once: true });
      this.unlisten = () => signal.removeEventListener('abort', onAbort);
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.reason !== undefined) controller.abort(this.reason as Error);
  }

  onResponseStart(_c: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[] | undefined>): void {
    // 1xx answers are informational: the real one follows.
    this.heard();
    if (status < 200) return;
    this.status = status;
    this.headers = headers;
    this.chunks = [];
    this.size = 0;
    // A declared length over the cap is refused before a byte of it is read.
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBytes) this.tooLarge(declared);
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.done) return;
    this.heard();
    this.size += chunk.length;
    if (this.size > this.maxBytes) return this.tooLarge(this.size);
    this.chunks.push(chunk);
  }

  /** Drops what was read and ends the exchange: the caller gets a clear error, memory stays bounded. */
  private tooLarge(bytes: number): void {
    const controller = this.controller;
    this.fail(new RemoteError('transient', `the answer is larger than the ${this.maxBytes} bytes accepted (${bytes} bytes or more)`, TOO_LARGE));
    controller?.abort(new Error('answer too large'));
  }

  /** Ends the exchange with `e` now, whether undici started it or not. */
  cut(e: RemoteError): void {
    const reason = new Error(e.message, { cause: e });
    this.reason = reason;
    this.controller?.abort(reason);
    this.fail(e);
  }

  private fail(e: RemoteError): void {
    if (this.done) return;
    this.done = true;
    this.unlisten?.();
    const ended = this.ended;
    this.release();
    ended(this, e);
  }

  /**
   * undici keeps up to 256 finished requests per connection (their handlers with them) before it
   * trims its queue: a finished exchange lets go of what it read and of its caller at once, so
   * they are not promoted to the old space with it (issue 29: the flush's garbage collections).
   */
  private release(): void {
    this.chunks = [];
    this.headers = {};
    this.controller = null;
    this.resolve = NOTHING;
    this.ended = NOTHING;
  }

  onResponseEnd(): void {
    if (this.done) return;
    this.done = true;
    this.unlisten?.();
    const { chunks, headers, resolve, ended } = this;
    this.release();
    let body: unknown = null;
    if (chunks.length > 0 && String(headers['content-type'] ?? '').includes('json')) {
      const buf = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      // As undici's text(): UTF-8 with a byte order mark skipped.
      const start = buf.length > 2 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
      const text = buf.toString('utf8', start);
      if (text !== '') {
        try {
          body = JSON.parse(text) as unknown;
        } catch {
          body = null;
        }
      }
    }
    ended(this, null);
    resolve({ status: this.status, headers, body, replayed: headers['x-idempotent-replay'] === 'true' });
  }

  onResponseError(_c: Dispatcher.DispatchController, e: Error): void {
    this.fail(classifyError(this.reason ?? e));
  }
}

/**
 * `signal` (the caller's, if any) combined with a deadline. Its reason is an Error whose cause is
 * the RemoteError the request ends with (classifyError unwraps it); `clear` drops the timer once
 * the exchange is over (a pull sends thousands of requests: no timer outlives its own).
 */
function deadlineSignal(ms: number, signal: AbortSignal | undefined): { signal: AbortSignal; clear: () => void } {
  const deadline = new AbortController();
  const why = new RemoteError('transient', `no complete answer within ${ms} ms`, DEADLINE);
  const timer = setTimeout(() => deadline.abort(new Error(why.message, { cause: why })), ms);
  timer.unref();
  return { signal: signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal, clear: () => clearTimeout(timer) };
}

/** A redirect is not followed (the token would go wherever the remote points): a clear refusal instead. */
function redirectError(status: number, headers: Record<string, string | string[] | undefined>): RemoteError {
  const to = String(headers.location ?? '').slice(0, 200);
  return new RemoteError('rejected', `the marketplace answered a redirect (${status}${to ? ` to ${to}` : ''}), which the app does not follow`, REDIRECTED);
}

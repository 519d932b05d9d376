import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { Clock } from '../service/clock.js';
import { ServiceError } from '../service/errors.js';
import type { Service } from '../service/index.js';

/**
 * The real marketplace's rate limits (../shared/MARKETPLACE.md), off unless asked for: per
 * application and per resource, 429 `local_rate_limited` with Retry-After beyond them. `npm run
 * serve -- --rate-limit stock=100/min,messages-write=500/min` (or STOCKROOM_RATE_LIMIT), so tests
 * and the bench can run against a remote that refuses like the real one.
 */

/** The limited resources: the user-product stock reads and PUTs, messaging reads and writes. */
export const RATE_LIMITED_RESOURCES = ['stock', 'messages-read', 'messages-write'] as const;
export type RateLimitedResource = (typeof RATE_LIMITED_RESOURCES)[number];

export interface RateLimit {
  /** Requests allowed per period (the bucket's size: a burst of this many, then this rate). */
  requests: number;
  per: RateUnit;
}
type RateUnit = 'min' | 's';
export type RateLimits = Partial<Record<RateLimitedResource, RateLimit>>;

export const RATE_LIMIT_ENV = 'STOCKROOM_RATE_LIMIT';

const UNITS: Record<RateUnit, { ms: number; name: string }> = { min: { ms: 60_000, name: 'minute' }, s: { ms: 1000, name: 'second' } };
const MAX_REQUESTS = 1_000_000;

/**
 * `stock=100/min,messages-write=500/min`: comma-separated `resource=N/unit`, N a whole number from 1
 * to 1,000,000, unit `min` or `s`, each resource once. Anything else throws one line naming
 * `source` (the flag or the variable) and the bad part.
 */
export function parseRateLimits(text: string, source = '--rate-limit'): RateLimits {
  const limits: RateLimits = {};
  const parts = text.split(',').map((p) => p.trim());
  for (const part of parts) {
    const m = /^([a-z-]+)=([0-9]{1,7})\/(min|s)$/.exec(part);
    if (!m) throw new Error(`${source}: '${part}' is not resource=N/min or resource=N/s (for example stock=100/min,messages-write=500/min)`);
    const resource = RATE_LIMITED_RESOURCES.find((r) => r === m[1]);
    if (!resource) throw new Error(`${source}: unknown resource '${m[1]}' (one of ${RATE_LIMITED_RESOURCES.join(', ')})`);
    if (limits[resource]) throw new Error(`${source}: ${resource} is given twice`);
    const requests = Number(m[2]);
    if (requests < 1 || requests > MAX_REQUESTS) throw new Error(`${source}: ${resource} must allow 1 to ${MAX_REQUESTS} requests, got ${m[2]}`);
    limits[resource] = { requests, per: m[3] === 's' ? 's' : 'min' };
  }
  return limits;
}

/** The limits as the flag writes them (for the start line). */
export const describeRateLimits = (limits: RateLimits): string =>
  RATE_LIMITED_RESOURCES.flatMap((r) => {
    const l = limits[r];
    return l ? [`${r}=${l.requests}/${l.per}`] : [];
  }).join(',');

/** Which limit a route counts against (its Fastify pattern), or null for the unlimited ones. */
export function resourceOf(method: string, route: string | undefined): RateLimitedResource | null {
  if (route === undefined) return null;
  if (route.startsWith('/user-products/') && (route.endsWith('/stock') || route.includes('/stock/type/'))) return 'stock';
  if (route.startsWith('/messages/')) return method === 'GET' || method === 'HEAD' ? 'messages-read' : 'messages-write';
  return null;
}

interface Bucket {
  /** In 1/periodMs of a request: a request costs periodMs, and `requests` come back per ms (integers, exact). */
  credit: number;
  at: number;
}

/**
 * Token buckets per resource and client, least recently used first out: at most `maxClients`
 * applications and as many unknown tokens are remembered (a forgotten client starts full again).
 * Unknown tokens have their own map, so a flood of made-up tokens cannot push an application out.
 */
export class RateLimiter {
  private readonly apps = new Map<string, Bucket>();
  private readonly tokens = new Map<string, Bucket>();

  constructor(
    readonly limits: RateLimits,
    private readonly clock: Clock,
    private readonly maxClients = 10_000,
  ) {}

  /** Takes one request from the client's bucket: null when allowed, else the seconds to wait (≥ 1). */
  take(resource: RateLimitedResource, client: { app: number } | { token: string }): number | null {
    const limit = this.limits[resource];
    if (!limit) return null;
    const [map, key] = 'app' in client ? [this.apps, `${resource} ${client.app}`] : [this.tokens, `${resource} ${client.token}`];
    const now = this.clock.now();
    const periodMs = UNITS[limit.per].ms;
    const full = limit.requests * periodMs;
    const bucket = map.get(key) ?? { credit: full, at: now };
    map.delete(key);
    map.set(key, bucket);
    if (map.size > this.maxClients) map.delete(map.keys().next().value!);
    // A clock set back refills nothing.
    bucket.credit = Math.min(full, bucket.credit + Math.max(0, now - bucket.at) * limit.requests);
    bucket.at = now;
    if (bucket.credit >= periodMs) {
      bucket.credit -= periodMs;
      return null;
    }
    return Math.max(1, Math.ceil((periodMs - bucket.credit) / limit.requests / 1000));
  }

  /** How many clients are remembered (both maps). */
  get size(): number {
    return this.apps.size + this.tokens.size;
  }
}

export const rateLimited = (resource: RateLimitedResource, limit: RateLimit) =>
  new ServiceError(429, 'local_rate_limited', `Too many requests: ${resource} allows ${limit.requests} per ${UNITS[limit.per].name} per application`);

export interface RateLimitOptions {
  limits: RateLimits;
  /** Time of the buckets (tests pass a fake one); the service's clock by default. */
  clock?: Clock;
  /** Clients remembered per map (default 10,000). */
  maxClients?: number;
}

/**
 * Counts every request of a limited route before anything else runs (a refused one reads no body
 * and touches no data). The client is the bearer token's application; a token that is not valid
 * counts on its own (by its hash, so a long made-up token costs no memory), no token as one client.
 */
export function rateLimit(app: FastifyInstance, service: Service, options: RateLimitOptions): RateLimiter {
  const limiter = new RateLimiter(options.limits, options.clock ?? service.clock, options.maxClients);
  const clientOf = (req: FastifyRequest): { app: number } | { token: string } => {
    const token = service.auth.bearerToken(req.headers.authorization);
    if (token === undefined) return { token: '' };
    try {
      return { app: service.auth.authenticate(token).applicationId };
    } catch {
      return { token: createHash('sha256').update(token).digest('base64url') };
    }
  };
  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (e?: Error) => void) => {
    const resource = resourceOf(req.method, req.routeOptions.url);
    const limit = resource === null ? undefined : options.limits[resource];
    if (resource === null || limit === undefined) return done();
    const wait = limiter.take(resource, clientOf(req));
    if (wait === null) return done();
    void reply.header('retry-after', String(wait));
    done(rateLimited(resource, limit));
  });
  return limiter;
}

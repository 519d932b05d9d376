import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { createServer } from 'node:http';
import type { Principal } from '../service/auth/auth.js';
import type { Service } from '../service/index.js';
import { durabilityBarrier } from './durability.js';
import { readClientShapes, routeMethods } from './client-shapes.js';
import { errorHandler } from './errors.js';
import { type RateLimitOptions, rateLimit } from './rate-limit.js';
import { DEFAULT_SOCKET_LIMITS, type SocketLimits, answerClientError, applySocketLimits, serverOptions } from './socket-limits.js';
import { attachmentsRoutes } from './routes/attachments.js';
import { brandsRoutes } from './routes/brands.js';
import { itemsRoutes } from './routes/items.js';
import { messagesRoutes } from './routes/messages.js';
import { oauthRoutes } from './routes/oauth.js';
import { stockRoutes } from './routes/stock.js';
import { usersRoutes } from './routes/users.js';

/** Longest URL accepted (characters); longer ones are 414. */
export const MAX_URL_LENGTH = 8192;

export interface HttpOptions {
  /** Largest JSON body accepted (bytes). */
  bodyLimit?: number;
  logger?: boolean;
  /** Timeouts, the body's minimum rate and the connection cap (tests shorten them). */
  limits?: Partial<SocketLimits>;
  /** Host names (besides addresses and localhost) the sign-in page and token endpoint answer to. */
  allowedHosts?: readonly string[];
  /** The real marketplace's per-application limits (429 beyond them); none when omitted. */
  rateLimit?: RateLimitOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The caller, from the bearer token (401 when missing, unknown or expired). */
    principal(req: FastifyRequest): Principal;
  }
}

/** The spec's HTTP API over the service: routing and body parsing only, every rule is below. */
export function buildHttpApp(service: Service, options: HttpOptions = {}): FastifyInstance {
  const limits = { ...DEFAULT_SOCKET_LIMITS, ...(options.limits ?? {}) };
  const app = Fastify({
    // Our own node:http server: header deadline checked often, no total deadline on a body (a minimum rate instead).
    serverFactory: (handler) => {
      const server = createServer(serverOptions(limits), handler);
      applySocketLimits(server, limits);
      return server;
    },
    // What the HTTP parser refuses itself (431, 408, 400) gets the spec's error shape too.
    clientErrorHandler: (err, socket) =>
      answerClientError(err as { code?: string }, socket, (e) => JSON.stringify({ error: e.code, message: e.message, status: e.status, cause: [] })),
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: 0,
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    // Loopback service: no proxies in front, ids come straight from the client.
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
    // Reject prototype-poisoning keys instead of silently stripping them.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Errors raised before routing (a malformed URL escape, a bad content type) get the spec's shape too.
    frameworkErrors: (err, req, reply) => errorHandler(err, req, reply),
  });

  // A URL longer than any of the API's (ids are short) is refused before routing. A callback hook,
  // not an async one: on every request, a promise and a turn of the microtask queue fewer.
  app.addHook('onRequest', (req, reply, done) => {
    if (req.url.length > MAX_URL_LENGTH) {
      void reply.status(414).send({ error: 'uri_too_long', message: 'The URL is too long', status: 414, cause: [] });
      return;
    }
    done();
  });
  // Before the rate limit: it counts a token sent as `access_token` like a Bearer one.
  readClientShapes(app);
  if (options.rateLimit) rateLimit(app, service, options.rateLimit);
  app.decorate('principal', (req: FastifyRequest) => service.auth.authenticate(service.auth.bearerToken(req.headers.authorization)));
  durabilityBarrier(app, service.writes);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(routeMethods(app));

  app.register(usersRoutes(service));
  app.register(stockRoutes(service));
  app.register(attachmentsRoutes(service));
  app.register(brandsRoutes(service));
  app.register(itemsRoutes(service));
  app.register(messagesRoutes(service));
  app.register(oauthRoutes(service, options.allowedHosts));
  return app;
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ServiceError, badRequest } from '../service/errors.js';

/**
 * The marketplace's public SDKs (docs/compatibility.md) send the spec's calls in shapes of their
 * own. Each is read here as the spec's shape before any route, rate limit or service sees the
 * request, so nothing below knows about them:
 * - the token as the `access_token` query parameter (Go and PHP SDKs): read as
 *   `Authorization: Bearer`, and taken out of the query so strict query checks never see it;
 * - a body without a Content-Type (the Go SDK's PUT): read as JSON;
 * - a Content-Type on a DELETE or OPTIONS without a body (the PHP SDK sets one on every call):
 *   dropped, there is nothing to parse.
 */
export function readClientShapes(app: FastifyInstance): void {
  // A callback hook like the URL-length one: no promise on every request.
  app.addHook('onRequest', (req, _reply, done) => {
    const refused = tokenFromQuery(req);
    if (refused) {
      done(refused);
      return;
    }
    const h = req.headers;
    const hasBody = h['transfer-encoding'] !== undefined || (h['content-length'] !== undefined && h['content-length'] !== '0');
    if (hasBody && h['content-type'] === undefined && (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH')) {
      h['content-type'] = 'application/json';
    } else if (!hasBody && (req.method === 'DELETE' || req.method === 'OPTIONS')) {
      delete h['content-type'];
    }
    done();
  });
}

/** Moves `access_token` from the query to the Authorization header; the refusal when it cannot. */
function tokenFromQuery(req: FastifyRequest): ServiceError | undefined {
  const query: unknown = req.query;
  if (typeof query !== 'object' || query === null || !Object.hasOwn(query, 'access_token')) return undefined;
  const value: unknown = Reflect.get(query, 'access_token');
  Reflect.deleteProperty(query, 'access_token');
  if (typeof value !== 'string' || value === '') return badRequest('The access_token parameter must be given once, with a value');
  const header = req.headers.authorization;
  if (header === undefined) {
    req.headers.authorization = `Bearer ${value}`;
    return undefined;
  }
  // Both at once only when they agree: two different tokens would leave the caller ambiguous.
  const bearer = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header)?.[1];
  return bearer === value ? undefined : badRequest('Send the access token once: in the Authorization header or the access_token parameter');
}

/** A route's path pattern as a matcher (`:param` is one segment), for 405 and OPTIONS. */
const matcher = (url: string) =>
  new RegExp(
    `^${url
      .replace(/\/+$/, '')
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/:[A-Za-z_][A-Za-z0-9_]*/g, '[^/]+')}/?$`,
  );

/**
 * Remembers every route's methods (register before the routes), so that a path that exists answers
 * 405 with `Allow` to another method, and OPTIONS with 204 and `Allow` (RFC 9110 15.5.6, 9.3.7),
 * instead of a 404 that says the resource is not there.
 */
export function routeMethods(app: FastifyInstance) {
  const routes: { match: RegExp; methods: Set<string> }[] = [];
  app.addHook('onRoute', (opts) => {
    const methods = Array.isArray(opts.method) ? opts.method : [opts.method];
    const match = matcher(opts.url);
    const known = routes.find((r) => r.match.source === match.source);
    if (known) for (const m of methods) known.methods.add(m);
    else routes.push({ match, methods: new Set(methods) });
  });

  /** The not-found handler: 404, 405 or the answer to OPTIONS, always in the spec's error shape. */
  return (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0] ?? '';
    const allowed = new Set<string>();
    for (const r of routes) if (r.match.test(path)) for (const m of r.methods) allowed.add(m);
    if (allowed.size === 0) {
      void reply.status(404).send({ error: 'not_found', message: `Resource ${req.method} ${path} not found`, status: 404, cause: [] });
      return;
    }
    if (allowed.has('GET')) allowed.add('HEAD');
    allowed.add('OPTIONS');
    const allow = [...allowed].sort().join(', ');
    if (req.method === 'OPTIONS') {
      void reply.status(204).header('allow', allow).send();
      return;
    }
    void reply
      .status(405)
      .header('allow', allow)
      .send({ error: 'method_not_allowed', message: `Method ${req.method} is not allowed on ${path}: use ${allow}`, status: 405, cause: [] });
  };
}

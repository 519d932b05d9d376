import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AuthorizationOutcome, failurePage } from '../../service/auth/authorization-outcome.js';
import { DEVICE_COOKIE_PREFIX } from '../../service/auth/known-devices.js';
import { CSRF_COOKIE, oauthErrors } from '../../service/auth/oauth.js';
import { FORM_TTL_MS } from '../../service/auth/sign-in-form.js';
import { isServiceError } from '../../service/errors.js';
import type { Service } from '../../service/index.js';
import { hostGuard } from '../host-guard.js';

const OAUTH_CODES = new Set(['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope']);

/**
 * Token endpoint errors in both shapes at once: RFC 6749 5.2's `{ error, error_description }`, which
 * OAuth libraries read, and the spec's `{ error, message, status, cause }` of every other refusal,
 * which the marketplace's own clients read (RFC 6749 clients ignore members they do not know).
 */
function tokenErrorBody(error: string, description: string, status: number) {
  return { error, error_description: description, message: description, status, cause: [] as unknown[] };
}

function tokenError(err: unknown, req: FastifyRequest, reply: FastifyReply): void {
  let status: number;
  let body: ReturnType<typeof tokenErrorBody>;
  if (isServiceError(err) && OAUTH_CODES.has(err.error)) {
    status = err.status;
    body = tokenErrorBody(err.error, err.message, status);
  } else {
    const fe = err as Partial<FastifyError>;
    const code = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
    if (code >= 400 && code < 500) {
      // Bad JSON, an unsupported media type, a body too large: the request is malformed.
      status = code === 413 ? 413 : 400;
      const what =
        code === 413
          ? 'The request body is too large'
          : code === 415
            ? 'Send application/x-www-form-urlencoded or application/json'
            : 'The request body is malformed';
      body = tokenErrorBody('invalid_request', what, status);
    } else {
      req.log.error({ err }, 'token endpoint failure');
      status = 500;
      body = tokenErrorBody('server_error', 'Internal server error', status);
    }
  }
  if (status === 401) reply.header('www-authenticate', 'Basic realm="marketplace", error="invalid_client"');
  void reply.status(status).header('cache-control', 'no-store').header('pragma', 'no-cache').send(body);
}

/** A multipart form's fields, as a form body would give them; a file part is not a parameter. */
async function formFields(contentType: string | undefined, body: Buffer): Promise<URLSearchParams> {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType ?? '' } }).formData();
  } catch {
    throw oauthErrors.invalidRequest('The multipart body is malformed');
  }
  const out = new URLSearchParams();
  for (const [k, v] of form) {
    if (typeof v !== 'string') throw oauthErrors.invalidRequest(`The parameter ${k.slice(0, 40)} is a file`);
    out.append(k, v);
  }
  return out;
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (v instanceof URLSearchParams ? v.size === 0 : typeof v === 'object' && Object.keys(v).length === 0);

/**
 * The token call's parameters: the body's, or the query string's when the body is empty (the Go
 * SDK sends them there, as the marketplace once documented). Both at once is ambiguous.
 */
function tokenParams(body: unknown, query: unknown): unknown {
  if (isEmpty(query)) return body;
  if (!isEmpty(body)) throw oauthErrors.invalidRequest('Send the parameters in the body or in the query string, not both');
  return query;
}

/**
 * A browser asks for `text/html` (navigation and form posts always do); any other caller gets a
 * refusal in the spec's JSON shape instead of the page.
 */
const wantsHtml = (req: FastifyRequest) => /\btext\/html\b/i.test(req.headers.accept ?? '');

/** Errors the framework raises on the authorization endpoint (body too large, not a form): never a 500 for bad input. */
function pageError(err: unknown, req: FastifyRequest, reply: FastifyReply): void {
  const fe = err as Partial<FastifyError>;
  const code = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (code >= 500) req.log.error({ err }, 'authorization endpoint failure');
  const outcome =
    code >= 500
      ? failurePage(500, 'server_error', 'Something went wrong', 'The sign-in could not be completed.')
      : code === 413
        ? failurePage(413, 'payload_too_large', 'Invalid request', 'The request body is too large.')
        : failurePage(400, 'invalid_request', 'Invalid request', 'The request could not be read: the answer is a form (application/x-www-form-urlencoded).');
  void send(req, reply, outcome);
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Device cookies (`sr_dev_<user id>`) the browser sent, by user id. */
function deviceCookies(header: string | undefined): Map<number, string> {
  const out = new Map<number, string>();
  for (const part of (header ?? '').split(';').slice(0, 50)) {
    const eq = part.indexOf('=');
    const name = eq > 0 ? part.slice(0, eq).trim() : '';
    if (name.startsWith(DEVICE_COOKIE_PREFIX) && /^[0-9]{1,16}$/.test(name.slice(DEVICE_COOKIE_PREFIX.length))) {
      out.set(Number(name.slice(DEVICE_COOKIE_PREFIX.length)), part.slice(eq + 1).trim());
    }
  }
  return out;
}

function send(req: FastifyRequest, reply: FastifyReply, outcome: AuthorizationOutcome): FastifyReply {
  if (outcome.kind === 'redirect') {
    const d = outcome.deviceCookie;
    if (d) reply.header('set-cookie', `${d.name}=${d.value}; Path=/authorization; Max-Age=${d.maxAgeSeconds}; HttpOnly; SameSite=Strict`);
    return reply.status(302).header('location', outcome.location).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send();
  }
  if (outcome.retryAfterSeconds !== undefined) reply.header('retry-after', String(outcome.retryAfterSeconds));
  if (outcome.error) reply.header('vary', 'Accept');
  if (outcome.error && !wantsHtml(req)) {
    return reply.status(outcome.error.status).header('cache-control', 'no-store').send(outcome.error);
  }
  if (outcome.csrfCookie) {
    reply.header('set-cookie', `${CSRF_COOKIE}=${outcome.csrfCookie}; Path=/authorization; Max-Age=${FORM_TTL_MS / 1000}; HttpOnly; SameSite=Strict`);
  }
  return reply.status(outcome.page.status).headers(outcome.page.headers).send(outcome.page.html);
}

/**
 * OAuth 2.0 sign-in: GET/POST /authorization (the sign-in page: nickname or id and password) and
 * POST /oauth/token. Form bodies are parsed here only (URLSearchParams keeps repeated keys visible);
 * the token endpoint also takes JSON, the sign-in page only its form. Neither route needs a bearer
 * token. A refusal is the page for a browser, the spec's JSON shape for anyone else, with
 * Retry-After when it is the attempt limit (429).
 */
export const oauthRoutes =
  (service: Service, allowedHosts: readonly string[] = []) =>
  async (app: FastifyInstance) => {
    // Only this plugin's routes: a rebinding page could sign in or trade a code here, nowhere else.
    app.addHook('onRequest', hostGuard(allowedHosts));
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
      done(null, new URLSearchParams(body as string));
    });
    app.get('/authorization', { errorHandler: pageError }, (req, reply) => send(req, reply, service.oauth.authorize(req.query)));

    app.post('/authorization', { errorHandler: pageError }, async (req, reply) =>
      send(
        req,
        reply,
        await service.oauth.decide(req.body, {
          cookie: readCookie(req.headers.cookie, CSRF_COOKIE),
          origin: req.headers.origin,
          host: req.headers.host,
          source: req.ip,
          devices: deviceCookies(req.headers.cookie),
        }),
      ),
    );

    // The token endpoint in a context of its own: it also reads the public SDKs' token calls
    // (docs/compatibility.md), the Go SDK's empty application/json body (its parameters are in the
    // query) and the older PHP SDK's curl array, sent as multipart/form-data; the sign-in page does not.
    await app.register(async (token) => {
      const json = token.getDefaultJsonParser('error', 'error');
      token.removeContentTypeParser('application/json');
      token.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (req, body, done) => {
        if (body === '') done(null, undefined);
        else void json(req, String(body), done);
      });
      token.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (req: FastifyRequest, body: Buffer) =>
        formFields(req.headers['content-type'], body),
      );
      token.post('/oauth/token', { errorHandler: tokenError }, async (req, reply) => {
        const tokens = await service.oauth.token(tokenParams(req.body, req.query), req.headers.authorization);
        return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens);
      });
    });
  };

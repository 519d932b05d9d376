import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorPage } from '../../service/auth/authorization-page.js';
import { type AuthorizationOutcome, CODE_TTL_MS, CSRF_COOKIE } from '../../service/auth/oauth.js';
import { isServiceError } from '../../service/errors.js';
import type { Service } from '../../service/index.js';

const OAUTH_CODES = new Set(['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope']);

/** Token endpoint errors in the shape of RFC 6749 5.2: `{ error, error_description }`. */
function tokenError(err: unknown, req: FastifyRequest, reply: FastifyReply): void {
  let status: number;
  let body: { error: string; error_description: string };
  if (isServiceError(err) && OAUTH_CODES.has(err.error)) {
    status = err.status;
    body = { error: err.error, error_description: err.message };
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
      body = { error: 'invalid_request', error_description: what };
    } else {
      req.log.error({ err }, 'token endpoint failure');
      status = 500;
      body = { error: 'server_error', error_description: 'Internal server error' };
    }
  }
  if (status === 401) reply.header('www-authenticate', 'Basic realm="marketplace", error="invalid_client"');
  void reply.status(status).header('cache-control', 'no-store').header('pragma', 'no-cache').send(body);
}

/** Errors on the authorization endpoint are pages for a person, never a redirect. */
function pageError(err: unknown, req: FastifyRequest, reply: FastifyReply): void {
  const fe = err as Partial<FastifyError>;
  const status = typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500 ? fe.statusCode : 500;
  if (status === 500) req.log.error({ err }, 'authorization endpoint failure');
  const page =
    status === 500
      ? errorPage(500, 'Something went wrong', 'The sign-in could not be completed.')
      : errorPage(status, 'Invalid request', 'The request could not be read.');
  void reply.status(page.status).headers(page.headers).send(page.html);
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function send(reply: FastifyReply, outcome: AuthorizationOutcome): FastifyReply {
  if (outcome.kind === 'redirect') {
    return reply.status(302).header('location', outcome.location).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send();
  }
  if (outcome.csrfCookie) {
    reply.header('set-cookie', `${CSRF_COOKIE}=${outcome.csrfCookie}; Path=/authorization; Max-Age=${CODE_TTL_MS / 1000}; HttpOnly; SameSite=Strict`);
  }
  return reply.status(outcome.page.status).headers(outcome.page.headers).send(outcome.page.html);
}

/**
 * OAuth 2.0 sign-in: GET/POST /authorization (the consent page) and POST /oauth/token. Form bodies
 * are parsed here only (URLSearchParams keeps repeated keys visible); the token endpoint also takes
 * JSON. Neither route needs a bearer token.
 */
export const oauthRoutes = (service: Service) => async (app: FastifyInstance) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    done(null, new URLSearchParams(body as string));
  });

  app.get('/authorization', { errorHandler: pageError }, (req, reply) => send(reply, service.oauth.authorize(req.query)));

  app.post('/authorization', { errorHandler: pageError }, async (req, reply) =>
    send(
      reply,
      await service.oauth.decide(req.body, {
        cookie: readCookie(req.headers.cookie, CSRF_COOKIE),
        origin: req.headers.origin,
        host: req.headers.host,
      }),
    ),
  );

  app.post('/oauth/token', { errorHandler: tokenError }, async (req, reply) => {
    const tokens = await service.oauth.token(req.body, req.headers.authorization);
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens);
  });
};

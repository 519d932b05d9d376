import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { GroupCommit } from '../../db/group-commit.js';
import type { ApplicationRow, AuthRepo } from '../../db/repos/auth.js';
import type { OAuthRepo } from '../../db/repos/oauth.js';
import type { Clock } from '../clock.js';
import { ServiceError } from '../errors.js';
import { type AuthorizationOutcome, failurePage } from './authorization-outcome.js';
import { consentPage } from './authorization-page.js';
import type { SignInLimits } from './attempt-limits.js';
import { type DecideContext, signInService } from './sign-in.js';
import { signInForms } from './sign-in-form.js';
import { redirectUriMatches, withQuery } from './redirect-uri.js';

/**
 * OAuth 2.0 authorization server (RFC 6749) for the marketplace: authorization code with PKCE
 * (RFC 7636, S256 only) and rotating refresh tokens.
 *
 * - Codes live 10 minutes and work once; a second use is `invalid_grant` and revokes every token
 *   issued from the code (RFC 6749 4.1.2).
 * - Each code exchange starts a refresh-token family. Every refresh returns a new refresh token and
 *   the old one dies; only the newest of a family works. Presenting an older one is a reuse: the
 *   whole family (refresh and access tokens) is revoked and the answer is `invalid_grant`.
 * - Access tokens live `accessTokenTtlSeconds` (default 6 h) and go in the `tokens` table that
 *   `auth.authenticate` reads; fixture tokens there have no expiry and keep working.
 * - Only sha256 hashes of codes and refresh tokens are stored.
 * - The person signs in with nickname or id and password (sign-in.ts); the page's request is sealed
 *   into the form (sign-in-form.ts), so opening the page stores nothing.
 *
 * Token endpoint errors are ServiceErrors whose `error` is the OAuth code and whose message is the
 * `error_description`; the HTTP adapter answers them as `{ error, error_description }` and, with the
 * same text, in the spec's shape (`message`, `status`, `cause`).
 */

export const OAUTH_SCOPE = 'offline_access read write';
export const CODE_TTL_MS = 10 * 60 * 1000;
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 6 * 3600;
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 180 * 24 * 3600;
/** The cookie that binds an approval form to the browser that opened it. */
export const CSRF_COOKIE = 'stockroom_oauth_csrf';

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const CLIENT_ID = /^[0-9]{1,16}$/;

export const sha256Hex = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** RFC 7636 4.6: BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge. */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export const oauthErrors = {
  invalidRequest: (d: string) => new ServiceError(400, 'invalid_request', d),
  invalidClient: (d: string) => new ServiceError(401, 'invalid_client', d),
  invalidGrant: (d: string) => new ServiceError(400, 'invalid_grant', d),
  unsupportedGrantType: (d: string) => new ServiceError(400, 'unsupported_grant_type', d),
  invalidScope: (d: string) => new ServiceError(400, 'invalid_scope', d),
};
const { invalidRequest, invalidClient, invalidGrant, unsupportedGrantType, invalidScope } = oauthErrors;

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  user_id: number;
  refresh_token: string;
}

export type { AuthorizationOutcome };

export interface OAuthDeps {
  auth: AuthRepo;
  repo: OAuthRepo;
  writes: GroupCommit;
  clock: Clock;
  accessTokenTtlSeconds?: number | undefined;
  refreshTokenTtlSeconds?: number | undefined;
  /** Failed sign-ins allowed per source, user and known device (default: attempt-limits.ts). */
  signInLimits?: Partial<SignInLimits> | undefined;
}

/**
 * Request parameters as single strings. Form bodies arrive as URLSearchParams, JSON bodies and
 * query strings as objects; a parameter given twice is `invalid_request` (RFC 6749 3.1, 3.2) and an
 * empty value counts as absent.
 */
export function readParams(input: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (input === undefined || input === null || input === '') return out;
  if (input instanceof URLSearchParams) {
    for (const [k, v] of input) {
      if (out.has(k)) throw invalidRequest(`The parameter ${k} is repeated`);
      if (v !== '') out.set(k, v);
    }
    return out;
  }
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw invalidRequest('The body must be application/x-www-form-urlencoded or a JSON object');
  }
  for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
    if (Array.isArray(v)) throw invalidRequest(`The parameter ${k} is repeated`);
    if (v === undefined || v === null || v === '') continue;
    if (typeof v === 'string') out.set(k, v);
    else if (typeof v === 'number' && Number.isSafeInteger(v)) out.set(k, String(v));
    else throw invalidRequest(`The parameter ${k} must be a string`);
  }
  return out;
}

/** RFC 6749 2.3.1: `Authorization: Basic base64(urlencode(id):urlencode(secret))`. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  if (!header) return undefined;
  const m = /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidClient('Malformed HTTP Basic client credentials');
  try {
    const form = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: form(decoded.slice(0, colon)), secret: form(decoded.slice(colon + 1)) };
  } catch {
    throw invalidClient('Malformed HTTP Basic client credentials');
  }
}

function scopeProblem(scope: string | undefined): string | undefined {
  if (scope === undefined) return undefined;
  const known = new Set(OAUTH_SCOPE.split(' '));
  const unknown = scope.split(' ').filter((s) => s !== '' && !known.has(s));
  return unknown.length ? `Unknown scope: ${unknown.join(' ').slice(0, 100)}` : undefined;
}

function positiveSeconds(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive whole number of seconds, got ${String(value)}`);
  return v;
}

export function oauthService(deps: OAuthDeps) {
  const { auth, repo, writes, clock } = deps;
  const accessTtl = positiveSeconds(deps.accessTokenTtlSeconds, DEFAULT_ACCESS_TOKEN_TTL_SECONDS, 'accessTokenTtlSeconds');
  const refreshTtl = positiveSeconds(deps.refreshTokenTtlSeconds, DEFAULT_REFRESH_TOKEN_TTL_SECONDS, 'refreshTokenTtlSeconds');
  const forms = signInForms(clock);
  const signIn = signInService({ auth, repo, writes, clock, forms, codeTtlMs: CODE_TTL_MS, limits: deps.signInLimits });

  const registeredUris = (app: ApplicationRow): string[] => {
    try {
      const uris = JSON.parse(app.redirect_uris) as unknown;
      return Array.isArray(uris) ? uris.filter((u): u is string => typeof u === 'string') : [];
    } catch {
      return [];
    }
  };

  const pageError = (status: number, title: string, message: string): AuthorizationOutcome => failurePage(status, 'invalid_request', title, message);

  /** Issues an access token of family `grant.id` and answers it with `refresh` (inside a write). */
  function issue(now: number, grant: { id: string; clientId: number; userId: number }, refresh: string): TokenResponse {
    const access = `APP_USR-${grant.clientId}-${randomToken(32)}`;
    repo.insertAccessToken({ token: access, userId: grant.userId, clientId: grant.clientId, expiresAt: now + accessTtl * 1000, grantId: grant.id });
    return { access_token: access, token_type: 'Bearer', expires_in: accessTtl, scope: OAUTH_SCOPE, user_id: grant.userId, refresh_token: refresh };
  }

  type Outcome = { ok: true; value: TokenResponse } | { ok: false; error: ServiceError };
  /** Runs a token write; failures that must still commit (a revocation) come back as values. */
  async function write(op: () => Outcome): Promise<TokenResponse> {
    const result = await writes.run(op);
    if (!result.ok) throw result.error;
    return result.value;
  }

  function authenticateClient(params: Map<string, string>, authorization: string | undefined): ApplicationRow {
    const basic = basicCredentials(authorization);
    const bodySecret = params.get('client_secret');
    if (basic && bodySecret !== undefined) throw invalidRequest('Send the client credentials in one place: the Authorization header or the body');
    const bodyId = params.get('client_id');
    if (basic && bodyId !== undefined && bodyId !== basic.id)
      throw invalidRequest('client_id differs from the client authenticated by the Authorization header');
    const id = basic?.id ?? bodyId;
    const secret = basic?.secret ?? bodySecret;
    if (id === undefined) throw invalidRequest('client_id is required');
    if (!CLIENT_ID.test(id) || !Number.isSafeInteger(Number(id))) throw invalidClient('Unknown client');
    const app = auth.applicationById(Number(id));
    if (!app) throw invalidClient('Unknown client');
    if (app.secret !== null && app.secret !== '') {
      if (secret === undefined) throw invalidClient('This client must authenticate with its client_secret');
      if (!safeEqual(secret, app.secret)) throw invalidClient('Client authentication failed');
    } else if (secret !== undefined) {
      throw invalidClient('This client is public and has no client_secret');
    }
    return app;
  }

  function required(params: Map<string, string>, names: string[]): string[] {
    const missing = names.filter((n) => !params.has(n));
    if (missing.length) throw invalidRequest(`Missing required parameter${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
    return names.map((n) => params.get(n)!);
  }

  function exchangeCode(app: ApplicationRow, params: Map<string, string>): Promise<TokenResponse> {
    const [code, redirectUri, verifier] = required(params, ['code', 'redirect_uri', 'code_verifier']) as [string, string, string];
    if (!VERIFIER.test(verifier)) throw invalidRequest('code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
    const problem = scopeProblem(params.get('scope'));
    if (problem) throw invalidScope(problem);
    const codeHash = sha256Hex(code);
    return write(() => {
      const now = clock.now();
      const row = repo.codeByHash(codeHash);
      if (!row) return { ok: false, error: invalidGrant('The authorization code is invalid or expired') };
      if (row.used) {
        const grant = repo.grantByCode(codeHash);
        if (grant) repo.revokeGrant(grant.id, now, 'code_reuse');
        return { ok: false, error: invalidGrant('The authorization code was already used; the tokens issued from it are revoked') };
      }
      if (row.expires_at <= now) return { ok: false, error: invalidGrant('The authorization code is invalid or expired') };
      if (row.client_id !== app.id) return { ok: false, error: invalidGrant('The authorization code was issued to another client') };
      if (row.redirect_uri !== redirectUri) return { ok: false, error: invalidGrant('redirect_uri differs from the one of the authorization request') };
      if (!safeEqual(s256(verifier), row.code_challenge)) {
        return { ok: false, error: invalidGrant('PKCE verification failed: code_verifier does not match code_challenge') };
      }
      repo.purgeExpired(now);
      repo.markCodeUsed(codeHash);
      const grant = { id: randomUUID(), clientId: app.id, userId: row.user_id };
      const refresh = `TG-${randomToken(32)}`;
      const refreshHash = sha256Hex(refresh);
      const refreshExpires = now + refreshTtl * 1000;
      repo.insertGrant({ ...grant, codeHash, refreshHash, createdAt: now, expiresAt: refreshExpires });
      repo.insertRefreshToken({ hash: refreshHash, familyId: grant.id, rotatedFrom: null, createdAt: now, expiresAt: refreshExpires });
      return { ok: true, value: issue(now, grant, refresh) };
    });
  }

  function refresh(app: ApplicationRow, params: Map<string, string>): Promise<TokenResponse> {
    const [token] = required(params, ['refresh_token']) as [string];
    const problem = scopeProblem(params.get('scope'));
    if (problem) throw invalidScope(problem);
    const oldHash = sha256Hex(token);
    return write(() => {
      const now = clock.now();
      const row = repo.refreshByHash(oldHash);
      const grant = row ? repo.grantById(row.family_id) : undefined;
      if (!row || !grant) return { ok: false, error: invalidGrant('The refresh token is invalid') };
      if (grant.client_id !== app.id) return { ok: false, error: invalidGrant('The refresh token was issued to another client') };
      if (grant.revoked_at !== null) return { ok: false, error: invalidGrant('The refresh token was revoked') };
      if (grant.current_refresh_hash !== oldHash) {
        // Only the newest token of a family works: an older one here means it leaked or two
        // processes share it. Either way the sign-in can no longer be trusted.
        repo.revokeGrant(grant.id, now, 'refresh_token_reuse');
        return { ok: false, error: invalidGrant('The refresh token was already used; every token of this sign-in is revoked') };
      }
      if (row.expires_at <= now) return { ok: false, error: invalidGrant('The refresh token expired') };
      repo.purgeExpired(now);
      const next = `TG-${randomToken(32)}`;
      const nextHash = sha256Hex(next);
      const expiresAt = now + refreshTtl * 1000;
      repo.insertRefreshToken({ hash: nextHash, familyId: grant.id, rotatedFrom: oldHash, createdAt: now, expiresAt });
      repo.markRotated(oldHash, now);
      if (!repo.advanceGrant(grant.id, oldHash, nextHash, expiresAt)) throw new Error('refresh family changed inside its own transaction');
      return { ok: true, value: issue(now, { id: grant.id, clientId: grant.client_id, userId: grant.user_id }, next) };
    });
  }

  return {
    accessTokenTtlSeconds: accessTtl,
    refreshTokenTtlSeconds: refreshTtl,

    /**
     * GET /authorization (RFC 6749 4.1.1). Order of checks: client_id, then redirect_uri; a problem
     * with either is an error page (never a redirect to an unvalidated URI). Then, answered by a
     * redirect with `error` (4.1.2.1): repeated parameters, response_type, code_challenge and its
     * method (S256 only), scope. Otherwise the consent page, with a fresh anti-forgery value.
     */
    authorize(query: unknown): AuthorizationOutcome {
      const q = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
      const single = (name: string): string | undefined | null => {
        const v = q[name];
        if (Array.isArray(v)) return null;
        return typeof v === 'string' && v !== '' ? v : undefined;
      };
      const clientId = single('client_id');
      if (clientId === null) return pageError(400, 'Invalid request', 'The parameter client_id is repeated.');
      if (clientId === undefined) return pageError(400, 'Invalid request', 'The parameter client_id is missing.');
      const app = CLIENT_ID.test(clientId) && Number.isSafeInteger(Number(clientId)) ? auth.applicationById(Number(clientId)) : undefined;
      if (!app) return pageError(400, 'Unknown application', `No application has the id ${clientId.slice(0, 40)}.`);
      const redirectUri = single('redirect_uri');
      if (redirectUri === null) return pageError(400, 'Invalid request', 'The parameter redirect_uri is repeated.');
      if (redirectUri === undefined) return pageError(400, 'Invalid request', 'The parameter redirect_uri is missing.');
      if (!redirectUriMatches(redirectUri, registeredUris(app))) {
        return pageError(400, 'Invalid redirect', `The redirect_uri is not registered for the application ${app.name}.`);
      }

      const state = single('state');
      const fail = (error: string, description: string): AuthorizationOutcome => ({
        kind: 'redirect',
        location: withQuery(redirectUri, { error, error_description: description, state: state ?? undefined }),
      });
      for (const [k, v] of Object.entries(q)) if (Array.isArray(v)) return fail('invalid_request', `The parameter ${k.slice(0, 40)} is repeated`);
      if (state !== undefined && state !== null && state.length > 1024) return fail('invalid_request', 'state is longer than 1024 characters');
      const responseType = single('response_type');
      if (responseType === undefined) return fail('invalid_request', 'response_type is required');
      if (responseType !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported');
      const challenge = single('code_challenge');
      if (!challenge) return fail('invalid_request', 'code challenge required');
      if (single('code_challenge_method') !== 'S256') return fail('invalid_request', 'transform algorithm not supported: code_challenge_method must be S256');
      if (!S256_CHALLENGE.test(challenge)) return fail('invalid_request', 'code_challenge must be 43 base64url characters (S256)');
      const problem = scopeProblem(single('scope') ?? undefined);
      if (problem) return fail('invalid_scope', problem);

      // Nothing is stored per page: the request travels sealed in the form (sign-in-form.ts).
      const { csrf, sealed } = forms.seal({ clientId: app.id, redirectUri, state: state ?? undefined, challenge });
      return { kind: 'page', csrfCookie: csrf, page: consentPage({ appName: app.name, redirectUri, csrf, sealed }) };
    },

    /**
     * POST /authorization: the person's answer, authenticated by their password (sign-in.ts). Deny
     * redirects with `access_denied`; approve with the right user and password issues a code.
     */
    decide(body: unknown, ctx: DecideContext): Promise<AuthorizationOutcome> {
      return signIn.decide(body, ctx);
    },

    /**
     * POST /oauth/token (RFC 6749 4.1.3, 6). Order of checks: the body's shape and repeated
     * parameters, grant_type (missing: invalid_request; other than authorization_code and
     * refresh_token: unsupported_grant_type), client authentication (client_id, then the secret
     * when the application has one: invalid_client, 401), the grant's own parameters
     * (invalid_request), then the grant itself (invalid_grant).
     */
    async token(body: unknown, authorization: string | undefined): Promise<TokenResponse> {
      const params = readParams(body);
      const grantType = params.get('grant_type');
      if (grantType === undefined) throw invalidRequest('grant_type is required');
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
        throw unsupportedGrantType(`Unsupported grant_type ${grantType.slice(0, 40)}: use authorization_code or refresh_token`);
      }
      const app = authenticateClient(params, authorization);
      return grantType === 'authorization_code' ? exchangeCode(app, params) : refresh(app, params);
    },
  };
}
export type OAuthService = ReturnType<typeof oauthService>;

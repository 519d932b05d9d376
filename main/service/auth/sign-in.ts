import { createHash, randomBytes } from 'node:crypto';
import type { GroupCommit } from '../../db/group-commit.js';
import type { AuthRepo } from '../../db/repos/auth.js';
import type { OAuthRepo } from '../../db/repos/oauth.js';
import type { Clock } from '../clock.js';
import { type AuthorizationOutcome, type RefusalBody, failurePage, refusal } from './authorization-outcome.js';
import { MAX_USERNAME_LENGTH, consentPage } from './authorization-page.js';
import { type AttemptLimiter, DEFAULT_LIMITS, type SignInLimits, attemptLimiter } from './attempt-limits.js';
import { knownDevices } from './known-devices.js';
import { MAX_PASSWORD_LENGTH, verifyPassword } from './passwords.js';
import { type PendingRequest, type SignInForms } from './sign-in-form.js';
import { withQuery } from './redirect-uri.js';

/** The one answer to a wrong password, an unknown user and a user without a password alike. */
export const WRONG_CREDENTIALS = 'Wrong user or password.';

/** Longest value each form field may have; longer is refused before any work. */
const FIELD_LIMITS: Record<string, number> = { csrf: 128, request: 8192, decision: 16, username: MAX_USERNAME_LENGTH, password: MAX_PASSWORD_LENGTH };

export interface SignInDeps {
  auth: AuthRepo;
  repo: OAuthRepo;
  writes: GroupCommit;
  clock: Clock;
  forms: SignInForms;
  codeTtlMs: number;
  limits?: Partial<SignInLimits> | undefined;
}

export interface DecideContext {
  cookie: string | undefined;
  origin: string | undefined;
  host: string | undefined;
  /** The client's address: failures are limited per source. */
  source: string;
  /** Device cookies the browser sent, by user id (known-devices.ts). */
  devices?: ReadonlyMap<number, string>;
}

const sha256Hex = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

/**
 * The person's answer on the authorization page (POST /authorization): who they are and their
 * password. Checks, cheapest first: the body is a form with each field once and short; the request
 * comes from this site (Origin) with the page's anti-forgery value (cookie = form value); the
 * sealed request is intact, fresh and unused; the attempt limits allow a try (per source and per
 * user, or only the device's own for a browser that signed in as this user before: see
 * attempt-limits.ts); then the password (scrypt, off the event loop). Only then a code is issued,
 * with a device cookie for a browser not yet known for this user.
 */
export function signInService(deps: SignInDeps) {
  const { auth, repo, writes, clock, forms } = deps;
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const perSource = attemptLimiter(limits.perSource, clock);
  const perUser = attemptLimiter(limits.perUser, clock);
  const perDevice = attemptLimiter(limits.perDevice, clock);
  const devices = knownDevices(clock);

  type Form = { csrf: string; sealed: string; request: PendingRequest; appName: string };
  /** The same page again, with what went wrong; the form stays usable until it expires. */
  function again(form: Form, status: number, error: RefusalBody, username?: string, retryAfterSeconds?: number): AuthorizationOutcome {
    const page = consentPage(
      { appName: form.appName, redirectUri: form.request.redirectUri, csrf: form.csrf, sealed: form.sealed, problem: error.message, username },
      status,
    );
    return retryAfterSeconds === undefined
      ? { kind: 'page', page, csrfCookie: form.csrf, error }
      : { kind: 'page', page, csrfCookie: form.csrf, error, retryAfterSeconds };
  }

  const WHO = { source: 'from this address', user: 'for this user', device: 'on this browser' } as const;

  /** 429 with Retry-After: the attempt limit of the source, the user or the device is reached. */
  function tooMany(form: Form, who: keyof typeof WHO, waitMs: number, username: string): AuthorizationOutcome {
    const seconds = Math.ceil(waitMs / 1000);
    const m = minutes(seconds);
    const message = `Too many failed sign-ins ${WHO[who]}. Try again in ${m} minute${m > 1 ? 's' : ''}.`;
    return again(form, 429, refusal(429, 'too_many_requests', message), username, seconds);
  }

  function readForm(body: unknown): Map<string, string> | string {
    // A browser posts this page's form url-encoded; anything else is not an answer to it.
    if (!(body instanceof URLSearchParams)) return 'The answer is a form: send application/x-www-form-urlencoded.';
    const fields = new Map<string, string>();
    for (const [k, v] of body) {
      if (fields.has(k)) return `The field ${k.slice(0, 40)} is repeated.`;
      const max = FIELD_LIMITS[k];
      if (max !== undefined && v.length > max) return `The field ${k} is longer than ${max} characters.`;
      fields.set(k, v);
    }
    return fields;
  }

  async function issueCode(request: PendingRequest, userId: number): Promise<string> {
    const code = `TG-${randomBytes(32).toString('base64url')}`;
    await writes.run(() => {
      const now = clock.now();
      repo.insertCode({
        codeHash: sha256Hex(code),
        clientId: request.clientId,
        userId,
        redirectUri: request.redirectUri,
        challenge: request.challenge,
        createdAt: now,
        expiresAt: now + deps.codeTtlMs,
      });
    });
    return code;
  }

  return {
    async decide(body: unknown, ctx: DecideContext): Promise<AuthorizationOutcome> {
      const fields = readForm(body);
      if (typeof fields === 'string') return failurePage(400, 'invalid_request', 'Invalid request', fields);
      if (ctx.origin !== undefined && ctx.origin !== 'null' && ctx.origin !== `http://${ctx.host ?? ''}`) {
        return failurePage(403, 'forbidden', 'Forbidden', 'The approval came from another site.');
      }
      const csrf = fields.get('csrf');
      const sealed = fields.get('request');
      const notHere = 'This approval form was not opened in this browser, or it is out of date.';
      if (!csrf || !sealed || !ctx.cookie || ctx.cookie.length !== csrf.length || sha256Hex(csrf) !== sha256Hex(ctx.cookie)) {
        return failurePage(403, 'forbidden', 'Forbidden', notHere);
      }
      const opened = forms.open(sealed, csrf);
      if (!opened.ok) {
        if (opened.reason === 'forged') return failurePage(403, 'forbidden', 'Forbidden', notHere);
        const why = opened.reason === 'expired' ? 'This approval form expired.' : 'This approval form was already used.';
        return failurePage(400, 'invalid_request', 'Sign-in expired', why);
      }
      const { request } = opened;
      const app = auth.applicationById(request.clientId);
      if (!app) return failurePage(400, 'invalid_request', 'Unknown application', 'The application no longer exists.');
      const form: Form = { csrf, sealed, request, appName: app.name };

      const decision = fields.get('decision');
      if (decision === 'deny') {
        // No password needed to refuse; nothing is remembered, so a replayed denial only denies again.
        return {
          kind: 'redirect',
          location: withQuery(request.redirectUri, { error: 'access_denied', error_description: 'The user denied the request', state: request.state }),
        };
      }
      const username = fields.get('username')?.trim() ?? '';
      if (decision !== 'approve') return again(form, 400, refusal(400, 'invalid_request', 'Choose Approve or Deny.'), username);
      const password = fields.get('password') ?? '';
      if (!username || !password) return again(form, 400, refusal(400, 'invalid_request', 'Enter your nickname or user id and your password.'), username);

      const user = repo.signInUser(username);
      // A browser that signed in as this user before is counted on its own: others' failures do not block it.
      const device = user ? devices.verify(user.id, ctx.devices?.get(user.id)) : undefined;
      // An unknown name is counted under itself, exactly as a user is: a lock says nothing about existence.
      const userKey = user ? `id:${user.id}` : `name:${username.toLowerCase()}`;
      const buckets: [keyof typeof WHO, AttemptLimiter, string][] =
        device !== undefined
          ? [['device', perDevice, device]]
          : [
              ['source', perSource, ctx.source],
              ['user', perUser, userKey],
            ];
      for (const [who, limiter, key] of buckets) {
        const wait = limiter.waitMs(key);
        // A locked source still lets through a first attempt at an account nobody is guessing
        // (attempt-limits.ts): made-up names and others' accounts do not lock its owner out.
        if (wait > 0 && !(who === 'source' && perUser.untouched(userKey))) return tooMany(form, who, wait, username);
      }

      for (const [, limiter, key] of buckets) limiter.begin(key);
      let ok = false;
      try {
        ok = await verifyPassword(password, user?.password_hash);
      } finally {
        for (const [who, limiter, key] of buckets) limiter.end(key, ok ? (who === 'source' ? 'succeeded' : 'cleared') : 'failed');
      }
      if (!ok || !user) return again(form, 400, refusal(400, 'invalid_grant', WRONG_CREDENTIALS), username);

      // Checked again after the password: two answers of one form race through the KDF together.
      if (!forms.markUsed(opened.key, request.expiresAt)) {
        return failurePage(400, 'invalid_request', 'Sign-in expired', 'This approval form was already used.');
      }
      const code = await issueCode(request, user.id);
      const location = withQuery(request.redirectUri, { code, state: request.state });
      return device === undefined ? { kind: 'redirect', location, deviceCookie: devices.issue(user.id) } : { kind: 'redirect', location };
    },
  };
}
export type SignInService = ReturnType<typeof signInService>;

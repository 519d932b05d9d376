import { inspect } from 'node:util';
import type { CredentialStore, StoredCredentials } from './credential-store.js';
import { NotSignedInError, OAuthError, RefreshFailedError, SessionExpiredError } from './errors.js';
import { type Credentials, type SignInOptions, signIn } from './loopback-sign-in.js';
import { requestTokens } from './token-endpoint.js';

/**
 * What the sync engine needs from a sign-in: a bearer token for each call, a way to recover from a
 * 401, and who is calling. Implemented by TokenManager (OAuth) and staticTokenProvider (a fixture
 * token).
 */
export interface TokenProvider {
  readonly applicationId: number;
  /** The signed-in user; undefined only for a static token given without its user. */
  readonly userId: number | undefined;
  /** A token to send now; refreshes first (once for all callers) when it is about to expire. */
  accessToken(): Promise<string>;
  /**
   * After the server answered 401 to `rejectedToken`: a token to retry with. When another caller
   * or another process already replaced that token, the replacement is returned without a refresh.
   * Rejects with SessionExpiredError when the person must sign in again.
   */
  refreshAfter401(rejectedToken: string): Promise<string>;
  signOut(): Promise<void>;
}

export interface TokenManagerOptions {
  store: CredentialStore;
  /** Row of `client_credentials` (default `default`). */
  profile?: string;
  /** Only for a confidential application. */
  clientSecret?: string;
  /** Time source for expiry decisions (tests pass a controllable one). */
  clock?: { now(): number };
  /** Timeout of one refresh request (default 15 s). */
  requestTimeoutMs?: number;
  /** Refresh this long before expiry; default the smaller of 5 minutes and 10% of the lifetime. */
  refreshMarginMs?: number;
  /** Called once when the session ends (refresh refused): the place to show "sign in again". */
  onSessionExpired?: (error: SessionExpiredError) => void;
}

type Trigger = { kind: 'expiring' } | { kind: 'rejected'; token: string };

/** After a refresh that failed for a transient reason, wait this long before trying again early. */
const RETRY_AFTER_FAILURE_MS = 5_000;

/**
 * OAuth tokens of one profile, kept fresh.
 *
 * - Refreshes are single-flight: every caller in this process waiting for a refresh shares one
 *   request. Across processes, `CredentialStore.withLock` (a SQLite IMMEDIATE transaction held
 *   during the request) makes one process refresh while the others wait and then use its result.
 * - Inside the lock the refresh token is read from the store, never from memory: another process
 *   may have rotated it. When the stored access token is already a fresh one, it is used as is.
 * - The new pair is written and committed before the new access token is returned to anyone, so
 *   the newest refresh token is always the stored one.
 * - `invalid_grant` ends the session: the credentials are removed and SessionExpiredError is
 *   thrown (and given to `onSessionExpired`). Network and server failures are RefreshFailedError;
 *   while the current token has not expired it is still handed out.
 * - Tokens are never logged, and this object prints without them.
 */
export class TokenManager implements TokenProvider {
  #creds: StoredCredentials;
  #inflight: Promise<string> | undefined;
  #ended: Error | undefined;
  #retryAfter = 0;
  #refreshes = 0;
  private readonly store: CredentialStore;
  private readonly clock: { now(): number };
  readonly profile: string;

  /** Opens the stored session of a profile; NotSignedInError when there is none. */
  static async open(options: TokenManagerOptions): Promise<TokenManager> {
    const profile = options.profile ?? 'default';
    const creds = await options.store.load(profile);
    if (!creds) throw new NotSignedInError(profile);
    return new TokenManager(options, creds);
  }

  /** Signs in through the system browser, stores the credentials, and returns their manager. */
  static async signIn(options: TokenManagerOptions & Omit<SignInOptions, 'clock' | 'clientSecret'>): Promise<TokenManager> {
    const { store, profile = 'default', clientSecret, clock } = options;
    const creds: Credentials = await signIn({ ...options, ...(clientSecret !== undefined ? { clientSecret } : {}), ...(clock ? { clock } : {}) });
    const stored = await store.save(profile, creds);
    return new TokenManager(options, stored);
  }

  private constructor(
    private readonly options: TokenManagerOptions,
    creds: StoredCredentials,
  ) {
    this.store = options.store;
    this.profile = options.profile ?? 'default';
    this.clock = options.clock ?? { now: () => Date.now() };
    this.#creds = creds;
  }

  get applicationId(): number {
    return this.#creds.applicationId;
  }

  get userId(): number {
    return this.#creds.userId;
  }

  get baseUrl(): string {
    return this.#creds.baseUrl;
  }

  /** When the current access token expires (ms, this manager's clock). */
  get accessExpiresAt(): number {
    return this.#creds.accessExpiresAt;
  }

  /** Refresh requests this manager sent to the server. */
  get refreshCount(): number {
    return this.#refreshes;
  }

  async accessToken(): Promise<string> {
    if (this.#ended) throw this.#ended;
    const current = this.#creds;
    const now = this.clock.now();
    if (!this.expiringSoon(current, now)) return current.accessToken;
    if (now < current.accessExpiresAt && now < this.#retryAfter && !this.#inflight) return current.accessToken;
    try {
      return await this.refresh({ kind: 'expiring' });
    } catch (e) {
      // A refresh that could not be done now does not stop work while the token still works.
      if (e instanceof RefreshFailedError && this.clock.now() < current.accessExpiresAt && !this.#ended) return current.accessToken;
      throw e;
    }
  }

  async refreshAfter401(rejectedToken: string): Promise<string> {
    for (;;) {
      if (this.#ended) throw this.#ended;
      if (this.#inflight) {
        const token = await this.#inflight;
        if (token !== rejectedToken) return token;
        continue;
      }
      if (this.#creds.accessToken !== rejectedToken) return this.accessToken();
      return this.refresh({ kind: 'rejected', token: rejectedToken });
    }
  }

  async signOut(): Promise<void> {
    this.#ended = new NotSignedInError(this.profile);
    const { applicationId, userId } = this.#creds;
    await this.store.withLock(async (tx) => {
      const stored = await tx.load(this.profile);
      // Only this person's session: another sign-in written since then stays.
      if (stored && stored.applicationId === applicationId && stored.userId === userId) tx.remove(this.profile);
    });
  }

  private margin(c: Credentials): number {
    if (this.options.refreshMarginMs !== undefined) return this.options.refreshMarginMs;
    const lifetime = Math.max(0, c.accessExpiresAt - c.accessIssuedAt);
    return Math.min(5 * 60_000, lifetime / 10);
  }

  private expiringSoon(c: Credentials, now: number): boolean {
    return now >= c.accessExpiresAt - this.margin(c);
  }

  /** Single-flight: every caller during a refresh gets the same promise. */
  private refresh(trigger: Trigger): Promise<string> {
    if (!this.#inflight) {
      this.#inflight = this.runRefresh(trigger).finally(() => {
        this.#inflight = undefined;
      });
    }
    return this.#inflight;
  }

  private async runRefresh(trigger: Trigger): Promise<string> {
    const mine = this.#creds;
    const sameSession = (s: StoredCredentials | undefined): s is StoredCredentials =>
      s !== undefined && s.applicationId === mine.applicationId && s.userId === mine.userId && s.baseUrl === mine.baseUrl;
    let outcome: { kind: 'ok'; creds: StoredCredentials } | { kind: 'ended'; error: SessionExpiredError };
    try {
      outcome = await this.store.withLock(async (tx) => {
        const stored = await tx.load(this.profile);
        if (!sameSession(stored))
          return { kind: 'ended', error: new SessionExpiredError('The stored marketplace session was removed; sign in again') } as const;
        const now = this.clock.now();
        const fresh = !this.expiringSoon(stored, now) && (trigger.kind === 'expiring' || stored.accessToken !== trigger.token);
        // Another process (or an earlier flight) already refreshed: use its tokens.
        if (fresh) return { kind: 'ok', creds: stored } as const;
        let tokens;
        try {
          this.#refreshes++;
          tokens = await requestTokens(
            stored.baseUrl,
            {
              grant_type: 'refresh_token',
              refresh_token: stored.refreshToken,
              client_id: String(stored.applicationId),
              client_secret: this.options.clientSecret,
            },
            { timeoutMs: this.options.requestTimeoutMs ?? 15_000, now: () => this.clock.now() },
          );
        } catch (e) {
          if (!(e instanceof OAuthError && e.code === 'invalid_grant')) throw e;
          // Refused. If someone stored a newer token meanwhile, that one is the session now.
          const again = await tx.load(this.profile);
          if (sameSession(again) && again.refreshToken !== stored.refreshToken) return { kind: 'ok', creds: again } as const;
          if (again) tx.remove(this.profile);
          return {
            kind: 'ended',
            error: new SessionExpiredError(`The marketplace refused the refresh token (${e.description || 'invalid_grant'}); sign in again`),
          } as const;
        }
        if (tokens.userId !== stored.userId) throw new RefreshFailedError('The marketplace answered the refresh with tokens of another user');
        const next = await tx.write(this.profile, {
          ...stored,
          accessToken: tokens.accessToken,
          accessIssuedAt: tokens.issuedAt,
          accessExpiresAt: tokens.expiresAt,
          refreshToken: tokens.refreshToken,
          scope: tokens.scope || stored.scope,
        });
        return { kind: 'ok', creds: next } as const;
      });
    } catch (e) {
      if (e instanceof RefreshFailedError) this.#retryAfter = this.clock.now() + RETRY_AFTER_FAILURE_MS;
      throw e;
    }
    // Committed: only now is the new access token handed out.
    if (outcome.kind === 'ended') {
      this.#ended = outcome.error;
      this.options.onSessionExpired?.(outcome.error);
      throw outcome.error;
    }
    this.#creds = outcome.creds;
    this.#retryAfter = 0;
    return outcome.creds.accessToken;
  }

  toJSON(): object {
    return { profile: this.profile, baseUrl: this.baseUrl, applicationId: this.applicationId, userId: this.userId, accessExpiresAt: this.accessExpiresAt };
  }

  [inspect.custom](): string {
    return `TokenManager ${JSON.stringify(this.toJSON())}`;
  }
}

/**
 * A fixed bearer token (a fixture's long-lived test token) behind the same interface. It cannot be
 * refreshed: a 401 means it is wrong, reported as SessionExpiredError.
 */
export function staticTokenProvider(token: string, applicationId: number, userId?: number): TokenProvider {
  let ended: Error | undefined;
  return {
    applicationId,
    userId,
    accessToken: async () => {
      if (ended) throw ended;
      return token;
    },
    refreshAfter401: async () => {
      throw ended ?? new SessionExpiredError('The marketplace rejected the access token, which cannot be refreshed; use another token');
    },
    signOut: async () => {
      ended = new NotSignedInError('static token');
    },
    toJSON: () => ({ applicationId, userId, token: '[redacted]' }),
    [inspect.custom]: () => `StaticTokenProvider ${JSON.stringify({ applicationId, userId })}`,
  } as TokenProvider;
}

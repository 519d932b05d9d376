import { join } from 'node:path';
import type { SessionView } from '../../preload/contract.js';
import type { FixtureFile } from '../fixtures/schema.js';
import { type Cipher, CredentialStore, NotSignedInError, TokenManager } from '../sync/auth/index.js';
import { DesktopError } from './errors.js';
import { externalUrlAllowed } from './external.js';
import { type Profile, demoSeller } from './profile.js';
import type { Settings } from './settings.js';

export interface SessionOptions {
  dataDir: string;
  cipher: Cipher;
  /** The marketplace refused the refresh token (the session is already forgotten). */
  onExpired(): void;
}

/**
 * The seller's OAuth session: the credentials database (`credentials.db`, encrypted by the host's
 * cipher), the token manager of the configured marketplace and application, and the sign-in
 * through the system browser in progress, if any.
 */
export class Session {
  private store: CredentialStore | null = null;
  private manager: TokenManager | null = null;
  private abort: AbortController | null = null;

  constructor(private readonly o: SessionOptions) {}

  /** A sign-in through the browser is in progress. */
  get signingIn(): boolean {
    return this.abort !== null;
  }

  private async credentials(): Promise<CredentialStore> {
    this.store ??= CredentialStore.open(join(this.o.dataDir, 'credentials.db'), this.o.cipher);
    return this.store;
  }

  /** The OAuth session for the configured marketplace and application, if one is stored. */
  async stored(s: Settings): Promise<TokenManager | null> {
    if (!s.baseUrl || !s.applicationId) return null;
    if (this.manager && this.manager.baseUrl === s.baseUrl && this.manager.applicationId === s.applicationId) return this.manager;
    try {
      const tm = await TokenManager.open({
        store: await this.credentials(),
        onSessionExpired: () => this.expired(),
      });
      if (tm.baseUrl !== s.baseUrl || tm.applicationId !== s.applicationId) return null;
      this.manager = tm;
      return tm;
    } catch (e) {
      if (e instanceof NotSignedInError) return null;
      throw e;
    }
  }

  /** The marketplace refused the refresh token: the replica stays readable, signed out, until the person signs in again. */
  private expired(): void {
    this.manager = null;
    this.o.onExpired();
  }

  /**
   * Signs in through the system browser (OAuth code + PKCE) on `to`; the sign-in page opens with
   * `openExternal`, and only on that marketplace. `started` runs once the sign-in counts as in
   * progress, `signedIn` with the new session while it still does (the caller switches profiles).
   */
  async signIn(
    to: { baseUrl: string; applicationId: number; openExternal: (url: string) => Promise<void> },
    steps: { started(): Promise<void>; signedIn(tm: TokenManager): Promise<void> },
  ): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    await steps.started();
    try {
      const tm = await TokenManager.signIn({
        store: await this.credentials(),
        baseUrl: to.baseUrl,
        applicationId: to.applicationId,
        signal: abort.signal,
        openExternal: async (url) => {
          if (!externalUrlAllowed(url, { hosts: [], signIn: [to.baseUrl] }))
            throw new DesktopError('forbidden_url', 'The sign-in page is not on the marketplace configured in Settings', 403);
          await to.openExternal(url);
        },
        onSessionExpired: () => this.expired(),
      });
      this.manager = tm;
      await steps.signedIn(tm);
    } finally {
      this.abort = null;
    }
  }

  /** Stops the sign-in in progress, if any. */
  cancelSignIn(): void {
    this.abort?.abort();
  }

  /** Forgets the OAuth session (the token manager signs out) or, without one open, the stored credentials. */
  async signOut(): Promise<void> {
    const tm = this.manager;
    this.manager = null;
    if (tm) await tm.signOut();
    else if (this.store) await this.store.remove('default');
  }

  close(): void {
    this.store?.close();
    this.store = null;
  }
}

/** Who the app acts as: the demo seller on local data, else the open replica's seller and how it signed in. */
export function sessionView(s: Settings, p: Profile | null, signingIn: boolean, fixtures: FixtureFile): SessionView {
  const nickname = (id: number) => (p ? p.repos.users.nickname(id) : null);
  if (!p || p.kind === 'local') {
    const seller = demoSeller(fixtures);
    return {
      mode: 'local-only',
      signedIn: true,
      via: 'demo',
      user: { id: seller.userId, nickname: nickname(seller.userId) },
      baseUrl: s.baseUrl,
      applicationId: s.applicationId,
      signingIn,
    };
  }
  return {
    mode: p.engine.mode,
    signedIn: p.auth !== null,
    via: p.via,
    user: { id: p.sellerId, nickname: nickname(p.sellerId) },
    baseUrl: s.baseUrl,
    applicationId: s.applicationId,
    signingIn,
  };
}

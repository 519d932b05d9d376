import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionView, SettingsView } from '../../common/contract/contract.js';
import type { FixtureFile } from '../fixtures/schema.js';
import { type Cipher, CredentialStore, NotSignedInError, type Protection, TokenManager, protectionOf, signIn } from '../sync/auth/index.js';
import { DesktopError } from './errors.js';
import { externalUrlAllowed } from './external.js';
import { type Profile, demoSeller } from './profile.js';
import type { Settings, SettingsStore } from './settings.js';

export interface SessionOptions {
  dataDir: string;
  cipher: Cipher;
  /** False: the credentials live in memory only (the person chose not to stay signed in here). */
  keep(): boolean;
  /** The marketplace refused the refresh token (the session is already forgotten). */
  onExpired(): void;
}

export const CREDENTIALS_FILE = 'credentials.db';
/** The row of sessions stored before there were several accounts. */
const LEGACY_ROW = 'default';
/** One row per account: several accounts stay signed in side by side. */
const rowOf = (baseUrl: string, userId: number) => `account:${baseUrl}|${userId}`;

/**
 * The seller's OAuth sessions: the credentials database (`credentials.db`, encrypted by the host's
 * cipher; one row per account) or, when the person chose not to stay signed in, the same store in
 * memory; the token manager of the open account; the sign-in through the system browser in
 * progress, if any.
 */
export class Session {
  private file: CredentialStore | null = null;
  private memory: CredentialStore | null = null;
  private manager: TokenManager | null = null;
  private abort: AbortController | null = null;
  /** Bumped when the sessions move between the file and memory: the open replica takes the new manager. */
  private moves = 0;

  constructor(private readonly o: SessionOptions) {}

  /** A sign-in through the browser is in progress. */
  get signingIn(): boolean {
    return this.abort !== null;
  }

  /** How the stored sessions are protected on this computer (the host's cipher). */
  get protection(): Protection {
    return protectionOf(this.o.cipher);
  }

  /** Changes whenever the store behind the sessions changes (part of the open profile's key). */
  get storeGeneration(): number {
    return this.moves;
  }

  private credentials(): CredentialStore {
    if (!this.o.keep()) return (this.memory ??= CredentialStore.inMemory());
    this.file ??= CredentialStore.open(join(this.o.dataDir, CREDENTIALS_FILE), this.o.cipher);
    return this.file;
  }

  private async openRow(row: string): Promise<TokenManager | null> {
    try {
      return await TokenManager.open({ store: this.credentials(), profile: row, onSessionExpired: () => this.expired() });
    } catch (e) {
      if (e instanceof NotSignedInError) return null;
      throw e;
    }
  }

  /** The OAuth session of the settings' account (marketplace, application, seller), if one is stored. */
  async stored(s: Settings): Promise<TokenManager | null> {
    if (!s.baseUrl || !s.applicationId) return null;
    const fits = (tm: TokenManager) => tm.baseUrl === s.baseUrl && tm.applicationId === s.applicationId && (s.userId === null || tm.userId === s.userId);
    if (this.manager && fits(this.manager)) return this.manager;
    const tm = (s.userId !== null ? await this.openRow(rowOf(s.baseUrl, s.userId)) : null) ?? (await this.openRow(LEGACY_ROW));
    if (!tm || !fits(tm)) return null;
    this.manager = tm;
    return tm;
  }

  /** The marketplace refused the refresh token: the replica stays readable, signed out, until the person signs in again. */
  private expired(): void {
    this.manager = null;
    this.o.onExpired();
  }

  /**
   * Signs in through the system browser (OAuth code + PKCE) on `to`; the sign-in page opens with
   * `openExternal`, and only on that marketplace. The seller is the `user_id` of the token answer.
   * `started` runs once the sign-in counts as in progress, `signedIn` with the new session while
   * it still does (the caller switches profiles).
   */
  async signIn(
    to: { baseUrl: string; applicationId: number; openExternal: (url: string) => Promise<void> },
    steps: { started(): Promise<void>; signedIn(tm: TokenManager): Promise<void> },
  ): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    await steps.started();
    try {
      const creds = await signIn({
        baseUrl: to.baseUrl,
        applicationId: to.applicationId,
        signal: abort.signal,
        openExternal: async (url) => {
          if (!externalUrlAllowed(url, { hosts: [], signIn: [to.baseUrl] }))
            throw new DesktopError('forbidden_url', 'The sign-in page is not on the marketplace configured in Settings', 403);
          await to.openExternal(url);
        },
      });
      const store = this.credentials();
      const row = rowOf(creds.baseUrl, creds.userId);
      await store.save(row, creds);
      const tm = await this.openRow(row);
      if (!tm) throw new NotSignedInError(row);
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

  /** Forgets the account's OAuth session (the token manager signs out) or, without one open, its stored credentials. */
  async signOut(s: Settings): Promise<void> {
    const tm = this.manager;
    this.manager = null;
    if (tm) await tm.signOut();
    const store = this.o.keep() ? this.file : this.memory;
    if (!store) return;
    if (s.baseUrl && s.userId !== null) await store.remove(rowOf(s.baseUrl, s.userId));
    if (!tm) await store.remove(LEGACY_ROW);
  }

  /**
   * The person changed "keep me signed in": the open account's session moves to the new place.
   * Turned off, the credentials file is deleted (the other accounts sign in again): nothing of a
   * token stays on disk, not even in SQLite's free pages or its WAL.
   */
  async moveTo(keep: boolean, s: Settings): Promise<void> {
    const file = join(this.o.dataDir, CREDENTIALS_FILE);
    if (!keep && !this.file && existsSync(file)) this.file = CredentialStore.open(file, this.o.cipher);
    const from = keep ? this.memory : this.file;
    const rows = s.baseUrl && s.userId !== null ? [rowOf(s.baseUrl, s.userId), LEGACY_ROW] : [LEGACY_ROW];
    const moving = [];
    if (from)
      for (const row of rows) {
        const c = await from.load(row);
        if (c) moving.push({ row, c });
      }
    this.manager = null;
    this.moves++;
    if (keep) {
      this.memory?.close();
      this.memory = null;
    } else {
      this.file?.close();
      this.file = null;
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
    }
    // o.keep() already answers the new choice: this is the store the sessions move to.
    const to = this.credentials();
    for (const { row, c } of moving) {
      const { generation: _generation, ...creds } = c;
      await to.save(row, creds);
    }
  }

  close(): void {
    this.file?.close();
    this.file = null;
    this.memory?.close();
    this.memory = null;
  }
}

/** The settings as the screens see them: no token, whether this is a first run, how sign-ins are kept, the known accounts. */
export function settingsView(store: SettingsStore, p: Profile | null, session: Session, o: { dataDir: string; welcome: boolean }): SettingsView {
  const s = store.get();
  const prefs = store.prefs();
  const open = (a: { baseUrl: string; userId: number }) => p?.kind === 'remote' && p.baseUrl === a.baseUrl && p.sellerId === a.userId;
  return {
    ...s,
    hasAccessToken: store.accessToken() !== null,
    dataDir: o.dataDir,
    firstRun: o.welcome && prefs.start === null,
    siteId: prefs.siteId,
    keepSignedIn: prefs.keepSignedIn,
    tokenProtection: session.protection,
    accounts: prefs.accounts.map((a) => ({ ...a, open: open(a) })),
    theme: prefs.theme,
  };
}

/** Who the app acts as: the demo seller on local data, else the open replica's seller and how it signed in. */
export function sessionView(s: Settings, p: Profile | null, signingIn: boolean, fixtures: FixtureFile, siteId: string | null = null): SessionView {
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
      siteId: null,
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
    siteId: p.repos.users.byId(p.sellerId)?.site_id ?? siteId,
  };
}

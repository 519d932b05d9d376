import { createHash } from 'node:crypto';
import { ERROR_CODES } from '../../common/contract/contract.js';
import type { FixtureFile } from '../fixtures/schema.js';
import { type Clock, systemClock } from '../service/clock.js';
import { type RequestBudget, TokenBudget } from '../sync/budget.js';
import { staticTokenProvider } from '../sync/auth/index.js';
import type { CallsInFlight } from './dispatch.js';
import { DesktopError, desktopErrors } from './errors.js';
import type { EventFeed } from './events.js';
import { type EngineTuning, type Profile, closeProfile, demoSeller, openLocalProfile, openRemoteProfile } from './profile.js';
import type { Session } from './session.js';
import type { Settings, SettingsStore } from './settings.js';

export interface ProfilesOptions {
  dataDir: string;
  /** The demo marketplace of the local profile. */
  fixtures: FixtureFile;
  settings: SettingsStore;
  session: Pick<Session, 'stored' | 'storeGeneration'>;
  /** A switch waits for the calls in progress (other than the one switching). */
  calls: Pick<CallsInFlight, 'settle'>;
  feed: Pick<EventFeed, 'attach' | 'stockChanged' | 'scheduleStatus' | 'emit'>;
  clock?: Clock | undefined;
  jobPollMs?: number | undefined;
  engine?: EngineTuning | undefined;
  /** A profile was opened (at start or by a switch), before any call reaches it. */
  opened?: ((p: Profile) => void) | undefined;
  /** The accounts on this computer changed (an account's name learned by its pull): the screens showing them read them again. */
  accountsChanged?: (() => void) | undefined;
  log(e: unknown): void;
}

/**
 * The open profile (main/desktop/profile.ts) and the switches between profiles: the settings
 * (mode, marketplace, seller, credentials) decide which one is open; a change of them closes the
 * open one, once the calls in progress are over, and opens the other.
 */
export class Profiles {
  private profile: Profile | null = null;
  private switching: Promise<void> = Promise.resolve();
  /**
   * The marketplace limits requests per application, not per seller (issue 29): every replica of
   * the same application and marketplace opened in this process spends one budget, kept across
   * switches, so signing in as another account (or back) never starts with a fresh burst.
   */
  private readonly budgets = new Map<string, RequestBudget>();

  constructor(private readonly o: ProfilesOptions) {}

  /** The open profile right now: null while a switch replaces it, or once closed. */
  get active(): Profile | null {
    return this.profile;
  }

  /** The open profile, once any switch in progress is over. */
  async current(): Promise<Profile> {
    await this.switching;
    if (!this.profile) throw new DesktopError(ERROR_CODES.busy, 'The data is not open (the app is closing or failed to open it)', 503);
    return this.profile;
  }

  /** What the settings ask for: the local profile, or a replica with its credentials. */
  private async target(s: Settings) {
    if (s.mode === 'local-only') return { kind: 'local' as const, key: 'local' };
    if (!s.baseUrl) throw desktopErrors.notConfigured('address (base_url)');
    if (!s.applicationId) throw desktopErrors.notConfigured('application id');
    const tm = await this.o.session.stored(s);
    const pasted = this.o.settings.accessToken();
    let auth = null;
    let via: 'oauth' | 'token' | null = null;
    let sellerId = s.userId;
    if (tm) {
      auth = tm;
      via = 'oauth' as const;
      sellerId = tm.userId;
    } else if (pasted && s.userId) {
      auth = staticTokenProvider(pasted, s.applicationId, s.userId);
      via = 'token' as const;
    }
    if (!sellerId) throw desktopErrors.notSignedIn();
    // The key tells profiles apart (a new pasted token means new credentials, sessions moved to or
    // from memory mean a new token manager) without holding the token itself.
    const credentials =
      via === 'token' && pasted ? createHash('sha256').update(pasted).digest('hex') : via === 'oauth' ? `store${this.o.session.storeGeneration}` : '';
    // The application too: its request budget (budgetOf) and the principal are the application's.
    const key = `remote|${s.baseUrl}|${s.applicationId}|${sellerId}|${via ?? 'signed-out'}|${credentials}`;
    return { kind: 'remote' as const, key, baseUrl: s.baseUrl, applicationId: s.applicationId, sellerId, auth, via, mode: s.mode };
  }

  /** Opens the profile of the settings at start; settings that cannot open a replica fall back to the local data. */
  async open(): Promise<void> {
    const s = this.o.settings.get();
    let t;
    try {
      t = await this.target(s);
    } catch (e) {
      // Settings that cannot open a replica (credentials gone): start on the local data instead.
      this.o.log(e);
      await this.o.settings.update({ mode: 'local-only' });
      t = await this.target(this.o.settings.get());
    }
    this.profile = this.build(t);
    this.attach(this.profile);
  }

  /** Events of a newly opened profile: the feed's, the first pull's progress, the account's name once pulled. */
  private attach(p: Profile): void {
    try {
      this.o.opened?.(p);
    } catch (e) {
      // Housekeeping: a failure to tidy must not keep the profile from opening.
      this.o.log(e);
    }
    this.o.feed.attach(p);
    p.engine.on('pull-progress', (progress) => this.o.feed.emit({ type: 'sync.pull', progress }));
    if (p.kind !== 'remote' || !p.baseUrl) return;
    const baseUrl = p.baseUrl;
    p.engine.on('pulled', () => {
      const user = p.repos.users.byId(p.sellerId);
      this.o.settings
        .rememberAccount({
          baseUrl,
          applicationId: p.principal.applicationId,
          userId: p.sellerId,
          siteId: user?.site_id ?? this.o.settings.prefs().siteId,
          nickname: user?.nickname ?? null,
        })
        // Settings lists the account by this name, not as "seller <id>" (issue 27).
        .then((changed) => changed && this.o.accountsChanged?.())
        .catch((e: unknown) => this.o.log(e));
    });
  }

  private build(t: Awaited<ReturnType<Profiles['target']>>): Profile {
    const o = this.o;
    if (t.kind === 'local') {
      return openLocalProfile({
        dataDir: o.dataDir,
        fixtures: o.fixtures,
        seller: demoSeller(o.fixtures),
        clock: o.clock,
        jobPollMs: o.jobPollMs,
        engine: o.engine,
      });
    }
    return openRemoteProfile({
      dataDir: o.dataDir,
      baseUrl: t.baseUrl,
      applicationId: t.applicationId,
      sellerId: t.sellerId,
      auth: t.auth,
      via: t.via,
      mode: t.mode === 'offline' ? 'offline' : 'online',
      key: t.key,
      clock: o.clock,
      engine: o.engine,
      budget: this.budgetOf(t.baseUrl, t.applicationId),
    });
  }

  /** The budget of a marketplace application (an engine tuning's own budget object wins: tests share theirs). */
  budgetOf(baseUrl: string, applicationId: number): RequestBudget {
    const given = this.o.engine?.budget;
    if (given !== undefined && 'acquire' in given) return given;
    const key = `${baseUrl.replace(/\/+$/, '')}|${applicationId}`;
    let b = this.budgets.get(key);
    if (!b) {
      b = new TokenBudget({ clock: this.o.clock ?? systemClock, ...(given ? { rates: given } : {}) });
      this.budgets.set(key, b);
    }
    return b;
  }

  /** Replaces the open profile when the settings now ask for another one (mode, marketplace, seller, credentials). */
  async reconcile(): Promise<void> {
    const run = async () => {
      const t = await this.target(this.o.settings.get());
      const p = this.profile;
      if (p && p.key === t.key) {
        if (t.kind === 'remote' && t.auth && p.engine.mode !== t.mode) p.engine.setMode(t.mode === 'offline' ? 'offline' : 'online');
        return;
      }
      if (p) {
        this.profile = null;
        await this.o.calls.settle();
        await closeProfile(p);
      }
      this.profile = this.build(t);
      this.attach(this.profile);
      this.o.feed.stockChanged(null);
      this.o.feed.scheduleStatus();
    };
    const next = this.switching.then(run, run);
    this.switching = next.catch(() => undefined);
    await next;
  }

  /** Closes the open profile once the switch and the calls in progress are over. */
  async close(): Promise<void> {
    await this.switching;
    await this.o.calls.settle();
    const p = this.profile;
    this.profile = null;
    if (p) await closeProfile(p);
  }
}

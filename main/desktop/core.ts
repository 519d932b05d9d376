import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { Language, Result, RevealTarget, SessionView, SyncStatusView } from '../../common/contract/contract.js';
import { privateDir } from '../db/private-files.js';
import { DEMO_FIXTURES, readFixtureFile } from '../fixtures/load.js';
import type { FixtureFile } from '../fixtures/schema.js';
import type { Clock } from '../service/clock.js';
import { plainCipher } from '../sync/auth/index.js';
import { type CoreApi, CallsInFlight, type Dispatch, dispatch } from './dispatch.js';
import { type CoreEvents, EventFeed } from './events.js';
import { externalUrlAllowed, linkHosts } from './external.js';
import { pictureHosts } from '../security.js';
import { createHandlers } from './handlers/index.js';
import type { DesktopHost } from './host.js';
import { useNativeBinding } from '../db/open.js';
import { acquireDataDirLock } from './lock.js';
import type { EngineTuning } from './profile.js';
import type { RequestBudget } from '../sync/budget.js';
import { Profiles } from './profiles.js';
import { QuickReplies } from './quick-replies.js';
import { Session, sessionView, settingsView } from './session.js';
import { SettingsStore, defaultSettings } from './settings.js';
import { Staging } from './staging.js';
import { draftsOf, keptOwner } from './drafts.js';
import { UpdateController, type UpdateControllerOptions, coreOutboxDrain } from './updates.js';

export type { CoreApi } from './dispatch.js';
export type { CoreEvents } from './events.js';
export type { DesktopHost } from './host.js';

export interface CoreOptions {
  /** The user-data folder: settings, databases, attachments, credentials. */
  dataDir: string;
  host?: DesktopHost;
  /** Language of a first start (later the setting wins). */
  language?: Language;
  version?: string;
  /** The demo marketplace loaded into a new local database (default main/fixtures/demo.json). */
  fixturesFile?: string;
  clock?: Clock;
  jobPollMs?: number;
  engine?: EngineTuning;
  /** Where unexpected errors are reported (default console.error). */
  log?: (e: unknown) => void;
  /** The app's own updates (main/updater-electron.ts in a packaged app); absent: updates are off. */
  updates?: Pick<UpdateControllerOptions, 'updater' | 'timers' | 'policy'> | undefined;
  /**
   * Ask a data folder where the person never chose how to start (the app's shells: Electron and
   * the browser mode) with the welcome screen; without it (tools and tests opening a core
   * directly) a first start opens on the demo data as before.
   */
  welcome?: boolean;
  /**
   * The compiled better-sqlite3 module for every database of this process (better-sqlite3's
   * `nativeBinding`): Electron's build in the Electron main process of a checkout
   * (main/desktop/native-binding.ts); absent, the package's own build.
   */
  nativeBinding?: string | undefined;
}

/**
 * The desktop core: one object per data folder that owns the settings, the open profile (database,
 * embedded service, sync engine), the credentials and the staged files, and exposes them as
 * `api` — plain async functions grouped by area, each taking one payload checked against its
 * schema in common/contract/contract.ts and answering `{ ok, value } | { ok: false, error }`. The IPC
 * adapter (main/ipc) and the browser bridge (main/web) call `call(channel, payload)`; both get the
 * same validation and the same error mapping. No Electron import here.
 *
 * The parts: dispatch.ts (payload checks, calls in progress, errors as values), events.ts (the
 * coalesced events), profiles.ts and session.ts (which profile is open, the credentials),
 * handlers/ (one file per area of the contract).
 */
export class DesktopCore {
  readonly events = new EventEmitter<CoreEvents>();
  readonly api: CoreApi;
  readonly dataDir: string;
  private readonly settings: SettingsStore;
  private readonly log: (e: unknown) => void;
  private readonly calls = new CallsInFlight();
  private readonly feed: EventFeed;
  private readonly session: Session;
  private readonly profiles: Profiles;
  private readonly dispatch: Dispatch;
  private readonly sessionView: () => Promise<SessionView>;
  private closed = false;
  private readonly releaseLock: () => void;
  private readonly updates: UpdateController | null;
  /** The link allow-list, read once: a bad STOCKROOM_LINK_HOSTS stops the start with its reason. */
  private readonly linkHosts = linkHosts();

  private constructor(options: CoreOptions, settings: SettingsStore, fixtures: FixtureFile, releaseLock: () => void) {
    const dataDir = options.dataDir;
    const host = options.host ?? { shell: 'browser' };
    const log = options.log ?? ((e) => console.error('stockroom:', e));
    this.dataDir = dataDir;
    this.settings = settings;
    this.releaseLock = releaseLock;
    this.log = log;
    this.sessionView = async () => sessionView(settings.get(), this.profiles.active, this.session.signingIn, fixtures, settings.prefs().siteId);
    this.feed = new EventFeed({ emitter: this.events, profile: () => this.profiles.active, closed: () => this.closed, log });
    this.session = new Session({
      dataDir,
      cipher: host.cipher ?? plainCipher,
      keep: () => settings.prefs().keepSignedIn,
      onExpired: () => this.sessionExpired(),
    });
    // Installs wait for this core's outbox; the state goes to the screens as `update.state`.
    this.updates = options.updates
      ? new UpdateController({
          ...options.updates,
          drain: coreOutboxDrain(this),
          onChange: (update) => this.feed.emit({ type: 'update.state', update }),
          log,
        })
      : null;
    const staging = new Staging(join(dataDir, 'staging'));
    this.profiles = new Profiles({
      dataDir,
      fixtures,
      settings,
      session: this.session,
      calls: this.calls,
      feed: this.feed,
      clock: options.clock,
      jobPollMs: options.jobPollMs,
      engine: options.engine,
      // Draft files whose draft is gone (a crash between the two): each profile sweeps its own on opening.
      opened: (p) => draftsOf(p.db).sweep(staging, keptOwner(p)),
      accountsChanged: () =>
        this.feed.emit({
          type: 'settings.changed',
          settings: settingsView(settings, this.profiles.active, this.session, { dataDir, welcome: options.welcome === true }),
        }),
      log,
    });
    const handlers = createHandlers({
      dataDir,
      version: options.version,
      host,
      settings,
      session: this.session,
      staging,
      quickReplies: new QuickReplies(dataDir),
      feed: this.feed,
      current: () => this.profiles.current(),
      reconcile: () => this.profiles.reconcile(),
      settingsView: () => settingsView(settings, this.profiles.active, this.session, { dataDir, welcome: options.welcome === true }),
      sessionView: this.sessionView,
      linkAllowed: (url) => this.linkAllowed(url),
      // The same reading as the shells' CSP (main/app.ts, main/web/server.ts), so the page asks only hosts it may load.
      pictureHosts: pictureHosts(),
      updates: this.updates,
      log,
    });
    this.dispatch = dispatch(handlers, { calls: this.calls, closed: () => this.closed, writes: () => this.profiles.active?.service.writes, log });
    this.api = this.dispatch.api;
  }

  /** Opens the data folder: settings, the profile of the current mode (the demo data the first time), the engine. */
  static async open(options: CoreOptions): Promise<DesktopCore> {
    if (options.nativeBinding) useNativeBinding(options.nativeBinding);
    // The owner's only (0700): it holds tokens and buyers' messages.
    privateDir(options.dataDir);
    const release = acquireDataDirLock(options.dataDir);
    try {
      const settings = await SettingsStore.open(options.dataDir, options.host?.cipher ?? plainCipher, defaultSettings(options.language));
      const fixtures = readFixtureFile(options.fixturesFile ?? DEMO_FIXTURES);
      const core = new DesktopCore(options, settings, fixtures, release);
      await core.profiles.open();
      core.updates?.start();
      return core;
    } catch (e) {
      release();
      throw e;
    }
  }

  /** One call by channel name (`stockroom:stock.adjust`): unknown channel, bad payload, service errors, all as values. */
  async call(channel: string, payload: unknown): Promise<Result<unknown>> {
    return this.dispatch.call(channel, payload);
  }

  /** The marketplace refused the refresh token: the replica stays readable, signed out, until the person signs in again. */
  private sessionExpired(): void {
    this.profiles
      .reconcile()
      .catch((e: unknown) => this.log(e))
      .then(async () => this.feed.emit({ type: 'session.changed', session: await this.sessionView() }))
      .catch((e: unknown) => this.log(e));
  }

  /** Whether a link may open in the system browser: https on the allow-list, or the configured marketplace (main/desktop/external.ts). */
  linkAllowed(url: string): boolean {
    const baseUrl = this.settings.get().baseUrl;
    return externalUrlAllowed(url, { hosts: this.linkHosts, signIn: baseUrl ? [baseUrl] : [] });
  }

  /**
   * Clean shutdown: refuses new calls, waits for the calls in progress, stops the engine (it waits
   * for the requests on the wire; what is queued stays queued in SQLite), stops background jobs,
   * closes the databases and releases the data folder.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.updates?.stop();
    this.session.cancelSignIn();
    this.feed.stop();
    try {
      await this.profiles.close();
    } finally {
      this.session.close();
      this.releaseLock();
      this.events.removeAllListeners();
    }
  }

  /** The shell's notification was clicked: the window shows what it was about (the renderer listens for `app.reveal`). */
  reveal(target: RevealTarget): void {
    if (!this.closed) this.feed.emit({ type: 'app.reveal', target });
  }

  /** For tests: the request budget the open profile's engine spends (one per marketplace application: profiles.ts). */
  budget(): RequestBudget | null {
    return this.profiles.active?.engine.budget ?? null;
  }

  /** For tests and the shell: the open profile's engine status without a call. */
  status(): SyncStatusView | null {
    return this.profiles.active?.engine.status() ?? null;
  }
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import type { ZodType } from 'zod';
import { EventEmitter } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { join } from 'node:path';
import {
  type Area,
  CHANNELS,
  type ConversationsView,
  type FnOf,
  type Language,
  type OutputOf,
  type ParsedOf,
  type QueueResultView,
  type Result,
  type SessionView,
  type SettingsView,
  type StockroomEvent,
  type SyncStatusView,
  contract,
  schemaOf,
  ERROR_CODES,
} from '../../preload/contract.js';
import { messagesRepo } from '../db/repos/messages.js';
import { DEMO_FIXTURES, readFixtureFile } from '../fixtures/load.js';
import type { FixtureFile } from '../fixtures/schema.js';
import type { Clock } from '../service/clock.js';
import { ServiceError, badRequest, isServiceError } from '../service/errors.js';
import { MAX_ATTACHMENT_BYTES } from '../service/messages/attachments/service.js';
import { orderErrors, resolvePack } from '../service/messages/orders.js';
import { type Cipher, CredentialStore, NotSignedInError, TokenManager, plainCipher, staticTokenProvider } from '../sync/auth/index.js';
import { serverMessage } from '../sync/client.js';
import { history as cellHistory, cellView } from '../sync/read-model.js';
import { cellKey } from '../service/stock/cells.js';
import { DesktopError, desktopErrors, toApiError } from './errors.js';
import { DEFAULT_EXTERNAL_HOSTS, externalUrlAllowed } from './external.js';
import { enrichOneCell, gridPage, invalidateGrid, locate, rowsByIds } from './grid.js';
import { acquireDataDirLock } from './lock.js';
import { type EngineTuning, type Profile, closeProfile, openLocalProfile, openRemoteProfile } from './profile.js';
import { type Settings, SettingsStore, defaultSettings } from './settings.js';
import { Staging } from './staging.js';
import { QuickReplies } from './quick-replies.js';

/** What the shell around the core provides: Electron's shell and dialogs, or the browser mode's. */
export interface DesktopHost {
  shell: 'electron' | 'browser';
  /** Opens a URL in the system browser. The core checks the allow-list before calling it. */
  openExternal?: ((url: string) => Promise<void>) | undefined;
  /** Main-process file dialogs (Electron); absent in the browser mode. */
  dialogs?: {
    openFiles(): Promise<string[]>;
    saveFile(defaultName: string): Promise<string | null>;
  } | undefined;
  /** Encryption of stored tokens (Electron: the OS keychain through safeStorage); plain bytes otherwise. */
  cipher?: Cipher | undefined;
}

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
}

export interface CoreEvents {
  event: [StockroomEvent];
}

type Handlers = { [A in Area]: { [F in FnOf<A>]: (input: ParsedOf<A, F>) => Promise<OutputOf<A, F>> } };
export type CoreApi = { [A in Area]: { [F in FnOf<A>]: (payload?: unknown) => Promise<Result<OutputOf<A, F>>> } };

const DEFAULT_GRID_LIMIT = 100;
const DEFAULT_LIST_LIMIT = 50;
const STATUS_THROTTLE_MS = 150;

/** The demo seller of the local profile: the user of the first token of the demo data. */
function demoSeller(f: FixtureFile) {
  const token = f.tokens?.[0];
  if (!token) throw new DesktopError(ERROR_CODES.internal, 'The demo data has no token: cannot pick the demo seller');
  return { userId: token.user_id, applicationId: token.application_id };
}

async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > limit) {
      stream.destroy();
      throw badRequest('File attachment is bigger than 25 Mb.');
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/**
 * The desktop core: one object per data folder that owns the settings, the open profile (database,
 * embedded service, sync engine), the credentials and the staged files, and exposes them as
 * `api` — plain async functions grouped by area, each taking one payload checked against its
 * schema in preload/contract.ts and answering `{ ok, value } | { ok: false, error }`. The IPC
 * adapter (main/ipc) and the browser bridge (main/web) call `call(channel, payload)`; both get the
 * same validation and the same error mapping. No Electron import here.
 */
export class DesktopCore {
  readonly events = new EventEmitter<CoreEvents>();
  readonly api: CoreApi;
  readonly dataDir: string;
  private readonly host: DesktopHost;
  private readonly settings: SettingsStore;
  private readonly staging: Staging;
  private readonly quickReplies: QuickReplies;
  private readonly fixtures: FixtureFile;
  private readonly log: (e: unknown) => void;
  private profile: Profile | null = null;
  private switching: Promise<void> = Promise.resolve();
  private credentialStore: CredentialStore | null = null;
  private tokenManager: TokenManager | null = null;
  private signInAbort: AbortController | null = null;
  private closed = false;
  /** Calls in progress, by a token that identifies each (so a call that switches profiles does not wait for itself). */
  private readonly inflight = new Map<object, Promise<unknown>>();
  private readonly callContext = new AsyncLocalStorage<object>();
  private statusTimer: NodeJS.Timeout | undefined;
  private lastStatusAt = 0;
  private stockTimer: NodeJS.Timeout | undefined;
  private changedProducts: Set<string> | null = new Set();
  private messageTimer: NodeJS.Timeout | undefined;
  private incoming: StockroomEvent & { type: 'messages.new' } = { type: 'messages.new', messages: [] };
  private readonly releaseLock: () => void;

  private constructor(
    private readonly options: CoreOptions,
    settings: SettingsStore,
    fixtures: FixtureFile,
    releaseLock: () => void,
  ) {
    this.dataDir = options.dataDir;
    this.host = options.host ?? { shell: 'browser' };
    this.settings = settings;
    this.fixtures = fixtures;
    this.releaseLock = releaseLock;
    this.log = options.log ?? ((e) => console.error('stockroom:', e));
    this.staging = new Staging(join(options.dataDir, 'staging'));
    this.quickReplies = new QuickReplies(options.dataDir);
    this.api = this.wrap(this.handlers());
  }

  /** Opens the data folder: settings, the profile of the current mode (the demo data the first time), the engine. */
  static async open(options: CoreOptions): Promise<DesktopCore> {
    await mkdir(options.dataDir, { recursive: true });
    const release = acquireDataDirLock(options.dataDir);
    try {
      const settings = await SettingsStore.open(options.dataDir, options.host?.cipher ?? plainCipher, defaultSettings(options.language));
      const fixtures = readFixtureFile(options.fixturesFile ?? DEMO_FIXTURES);
      const core = new DesktopCore(options, settings, fixtures, release);
      await core.openProfile();
      return core;
    } catch (e) {
      release();
      throw e;
    }
  }

  // ---------------------------------------------------------------- calls

  /** One call by channel name (`stockroom:stock.adjust`): unknown channel, bad payload, service errors, all as values. */
  async call(channel: string, payload: unknown): Promise<Result<unknown>> {
    const entry = CHANNELS.find((c) => c.channel === channel);
    if (!entry || !schemaOf(channel)) return { ok: false, error: { code: ERROR_CODES.unknownChannel, message: `Unknown channel ${channel.slice(0, 100)}`, status: 404 } };
    const fns = (this.api as unknown as Record<string, Record<string, (p: unknown) => Promise<Result<unknown>>>>)[entry.area]!;
    return fns[entry.fn]!(payload);
  }

  private wrap(handlers: Handlers): CoreApi {
    const api: Record<string, Record<string, (payload: unknown) => Promise<Result<unknown>>>> = {};
    for (const [area, fns] of Object.entries(contract)) {
      api[area] = {};
      for (const [fn, def] of Object.entries(fns as Record<string, { input: ZodType }>)) {
        const impl = (handlers as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>)[area]![fn]!;
        api[area][fn] = async (payload: unknown): Promise<Result<unknown>> => {
          const parsed = def.input.safeParse(payload);
          if (!parsed.success) return { ok: false, error: toApiError(parsed.error, this.log) };
          if (this.closed) return { ok: false, error: { code: ERROR_CODES.busy, message: 'The app is closing', status: 503 } };
          const token = {};
          const work = this.callContext.run(token, () => impl(parsed.data));
          this.inflight.set(token, work);
          try {
            const value = await work;
            // As the HTTP adapter: nothing is told before the commits it could have seen are on disk.
            const writes = this.profile?.service.writes;
            if (writes && !writes.settled) await writes.durable();
            return { ok: true, value };
          } catch (e) {
            return { ok: false, error: toApiError(e, this.log) };
          } finally {
            this.inflight.delete(token);
          }
        };
      }
    }
    return api as unknown as CoreApi;
  }

  /** The open profile, once any switch in progress is over. */
  private async current(): Promise<Profile> {
    await this.switching;
    if (!this.profile) throw new DesktopError(ERROR_CODES.busy, 'The data is not open (the app is closing or failed to open it)', 503);
    return this.profile;
  }

  // ---------------------------------------------------------------- events

  private emit(event: StockroomEvent): void {
    this.events.emit('event', event);
  }

  /** Sync status, at most every 150 ms (the engine reports every lane change). */
  private scheduleStatus(): void {
    if (this.statusTimer || this.closed) return;
    const wait = Math.max(0, this.lastStatusAt + STATUS_THROTTLE_MS - Date.now());
    this.statusTimer = setTimeout(() => {
      this.statusTimer = undefined;
      this.lastStatusAt = Date.now();
      const p = this.profile;
      if (p) this.emit({ type: 'sync.status', status: p.engine.status() });
    }, wait);
  }

  private stockChanged(ids: string[] | null): void {
    if (ids === null) this.changedProducts = null;
    else if (this.changedProducts) for (const id of ids) this.changedProducts.add(id);
    if (this.stockTimer || this.closed) return;
    this.stockTimer = setTimeout(() => {
      this.stockTimer = undefined;
      const changed = this.changedProducts;
      this.changedProducts = new Set();
      this.emit({ type: 'stock.changed', userProductIds: changed ? [...changed] : null });
    }, STATUS_THROTTLE_MS);
  }

  private attach(p: Profile): void {
    const e = p.engine;
    for (const name of ['progress', 'online', 'offline', 'synced', 'failed', 'retry', 'pulled'] as const) e.on(name, () => this.scheduleStatus());
    e.on('synced', () => this.stockChanged(null));
    e.on('pulled', () => {
      // A pull can bring stores and location types the grid's column set did not have.
      invalidateGrid(p.db);
      this.stockChanged(null);
    });
    e.on('conflict', ({ entryId, cell }) => {
      this.emit({ type: 'sync.conflict', entryId, cell });
      this.stockChanged([cell.split('|')[0]!]);
    });
    // The first pull of a new replica brings the whole history: those messages are not news.
    let historyLoaded = e.status().lastPullAt !== null;
    e.on('pulled', () => (historyLoaded = true));
    e.on('message', (m) => {
      if (!historyLoaded) return;
      const packId = Number(m.message_resources.find((r) => r.name === 'packs')?.id ?? 0);
      this.incoming.messages.push({ packId, id: m.id, text: m.text, date: m.message_date.created, fromUserId: m.from.user_id });
      if (this.messageTimer) return;
      this.messageTimer = setTimeout(() => {
        this.messageTimer = undefined;
        const batch = this.incoming;
        this.incoming = { type: 'messages.new', messages: [] };
        if (batch.messages.length > 0) this.emit(batch);
      }, 200);
    });
    e.on('sync-error', (err) => this.log(err));
    // Conflicts kept from before this start (or from before a switch to this profile) are
    // announced like new ones, once whoever opened the core has attached its listeners.
    setImmediate(() => {
      if (this.profile !== p || this.closed) return;
      for (const entry of p.outbox.list({ kind: 'stock', state: 'conflict', limit: 1000, offset: 0 }).entries) {
        const s = entry.stock!;
        this.emit({ type: 'sync.conflict', entryId: entry.id, cell: cellKey(s.userProductId, s.type, s.storeId ?? '') });
      }
    });
  }

  // ---------------------------------------------------------------- profiles and credentials

  private async credentials(): Promise<CredentialStore> {
    this.credentialStore ??= CredentialStore.open(join(this.dataDir, 'credentials.db'), this.host.cipher ?? plainCipher);
    return this.credentialStore;
  }

  /** The OAuth session for the configured marketplace and application, if one is stored. */
  private async storedSession(s: Settings): Promise<TokenManager | null> {
    if (!s.baseUrl || !s.applicationId) return null;
    if (this.tokenManager && this.tokenManager.baseUrl === s.baseUrl && this.tokenManager.applicationId === s.applicationId) return this.tokenManager;
    try {
      const tm = await TokenManager.open({
        store: await this.credentials(),
        onSessionExpired: () => this.sessionExpired(),
      });
      if (tm.baseUrl !== s.baseUrl || tm.applicationId !== s.applicationId) return null;
      this.tokenManager = tm;
      return tm;
    } catch (e) {
      if (e instanceof NotSignedInError) return null;
      throw e;
    }
  }

  /** The marketplace refused the refresh token: the replica stays readable, signed out, until the person signs in again. */
  private sessionExpired(): void {
    this.tokenManager = null;
    this.reconcile()
      .catch((e: unknown) => this.log(e))
      .then(async () => this.emit({ type: 'session.changed', session: await this.sessionView() }))
      .catch((e: unknown) => this.log(e));
  }

  /** What the settings ask for: the local profile, or a replica with its credentials. */
  private async target(s: Settings) {
    if (s.mode === 'local-only') return { kind: 'local' as const, key: 'local' };
    if (!s.baseUrl) throw desktopErrors.notConfigured('address (base_url)');
    if (!s.applicationId) throw desktopErrors.notConfigured('application id');
    const tm = await this.storedSession(s);
    const pasted = this.settings.accessToken();
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
    // The key tells profiles apart (a new pasted token means new credentials) without holding the token itself.
    const key = `remote|${s.baseUrl}|${sellerId}|${via ?? 'signed-out'}|${via === 'token' && pasted ? createHash('sha256').update(pasted).digest('hex') : ''}`;
    return { kind: 'remote' as const, key, baseUrl: s.baseUrl, applicationId: s.applicationId, sellerId, auth, via, mode: s.mode };
  }

  private async openProfile(): Promise<void> {
    const s = this.settings.get();
    let t;
    try {
      t = await this.target(s);
    } catch (e) {
      // Settings that cannot open a replica (credentials gone): start on the local data instead.
      this.log(e);
      await this.settings.update({ mode: 'local-only' });
      t = await this.target(this.settings.get());
    }
    this.profile = this.build(t);
    this.attach(this.profile);
  }

  private build(t: Awaited<ReturnType<DesktopCore['target']>>): Profile {
    const o = this.options;
    if (t.kind === 'local') {
      return openLocalProfile({ dataDir: this.dataDir, fixtures: this.fixtures, seller: demoSeller(this.fixtures), clock: o.clock, jobPollMs: o.jobPollMs, engine: o.engine });
    }
    return openRemoteProfile({
      dataDir: this.dataDir,
      baseUrl: t.baseUrl,
      applicationId: t.applicationId,
      sellerId: t.sellerId,
      auth: t.auth,
      via: t.via,
      mode: t.mode === 'offline' ? 'offline' : 'online',
      key: t.key,
      clock: o.clock,
      engine: o.engine,
    });
  }

  /** Replaces the open profile when the settings now ask for another one (mode, marketplace, seller, credentials). */
  private async reconcile(): Promise<void> {
    const run = async () => {
      const t = await this.target(this.settings.get());
      const p = this.profile;
      if (p && p.key === t.key) {
        if (t.kind === 'remote' && t.auth && p.engine.mode !== t.mode) p.engine.setMode(t.mode === 'offline' ? 'offline' : 'online');
        return;
      }
      if (p) {
        this.profile = null;
        await this.settle();
        await closeProfile(p);
      }
      this.profile = this.build(t);
      this.attach(this.profile);
      this.stockChanged(null);
      this.scheduleStatus();
    };
    const next = this.switching.then(run, run);
    this.switching = next.catch(() => undefined);
    await next;
  }

  /** Waits for the calls in progress (other than the caller's own) to finish. */
  private async settle(): Promise<void> {
    const own = this.callContext.getStore();
    const others = [...this.inflight].filter(([token]) => token !== own).map(([, work]) => work);
    await Promise.race([Promise.allSettled(others), new Promise((r) => setTimeout(r, 10_000).unref())]);
  }

  // ---------------------------------------------------------------- views

  private settingsView(): SettingsView {
    const s = this.settings.get();
    return { ...s, hasAccessToken: this.settings.accessToken() !== null, dataDir: this.dataDir };
  }

  private async sessionView(): Promise<SessionView> {
    const s = this.settings.get();
    const p = this.profile;
    const nickname = (id: number) => (p ? (p.db.prepare<[number], { nickname: string }>('SELECT nickname FROM users WHERE id = ?').get(id)?.nickname ?? null) : null);
    const signingIn = this.signInAbort !== null;
    if (!p || p.kind === 'local') {
      const seller = demoSeller(this.fixtures);
      return { mode: 'local-only', signedIn: true, via: 'demo', user: { id: seller.userId, nickname: nickname(seller.userId) }, baseUrl: s.baseUrl, applicationId: s.applicationId, signingIn };
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

  // ---------------------------------------------------------------- the API

  private handlers(): Handlers {
    const ownedCell = (p: Profile, input: { userProductId: string; type: string; storeId?: string | undefined }) => {
      p.service.stock.ownedUserProduct(p.principal, input.userProductId);
      return { userProductId: input.userProductId, type: input.type as 'seller_warehouse', storeKey: input.type === 'seller_warehouse' ? (input.storeId ?? '') : '' };
    };
    /**
     * One stock edit. The local profile is the marketplace itself: the edit is the service's own
     * write (its rules, history row, version and jobs in one transaction). A replica queues it.
     */
    const edit = async (p: Profile, target: { userProductId: string; type: string; storeId?: string | undefined }, change: { delta: number } | { quantity: number }, ref: string | undefined) => {
      let result: QueueResultView;
      if (p.kind === 'local') {
        const done = await p.service.localEdits.edit(p.principal, target, change, { author: p.author, ref });
        result = { entryId: null, how: 'queued', shown: done.shown, historyId: done.historyId };
      } else {
        const meta = { author: p.author, ...(ref ? { ref } : {}) };
        result = 'delta' in change ? p.engine.queueAdjustment({ ...target, delta: change.delta, ...meta }) : p.engine.queueCount({ ...target, quantity: change.quantity, ...meta });
      }
      this.stockChanged([target.userProductId]);
      this.scheduleStatus();
      return result;
    };
    const attachmentRow = (p: Profile, id: string) => {
      const row = p.db
        .prepare<[string], { site_id: string; original_filename: string; media_type: string }>('SELECT site_id, original_filename, media_type FROM attachments WHERE id = ?')
        .get(id);
      if (!row) throw new ServiceError(404, 'not_found', `Attachment ${id.slice(0, 200)} not found`);
      return row;
    };
    const openAttachment = async (p: Profile, id: string) => {
      const row = attachmentRow(p, id);
      // A replica fetches the bytes from the marketplace the first time (needs a connection).
      if (p.kind === 'remote') await p.engine.attachmentFile(id);
      const d = await p.service.attachments.download(p.principal, id, { site_id: row.site_id, tag: 'post_sale' });
      return { row, download: d };
    };
    const remoteOnline = (p: Profile, what: string) => {
      if (p.kind === 'local') throw desktopErrors.localOnly(what);
      if (!p.remote || !p.auth) throw desktopErrors.notSignedIn();
      if (p.engine.mode !== 'online') throw desktopErrors.offline(what);
      return p.remote;
    };

    return {
      app: {
        info: async () => ({ name: 'Stockroom', version: this.options.version ?? '0.0.0', shell: this.host.shell, platform: process.platform, dataDir: this.dataDir }),
        openExternal: async ({ url }) => {
          if (!this.linkAllowed(url)) {
            throw new DesktopError('forbidden_url', 'This link is not on the list of sites the app opens', 403);
          }
          if (!this.host.openExternal) throw desktopErrors.unsupported('Opening links');
          await this.host.openExternal(url);
          return { opened: true };
        },
      },

      settings: {
        get: async () => this.settingsView(),
        update: async (patch) => {
          const before = this.settings.get();
          const beforeToken = this.settings.accessToken();
          const { accessToken, ...rest } = patch;
          await this.settings.update({ ...rest, ...(accessToken !== undefined ? { accessToken } : {}) });
          try {
            await this.reconcile();
          } catch (e) {
            // The new settings cannot open their profile: nothing changes.
            await this.settings.update({ ...before, accessToken: beforeToken });
            await this.reconcile().catch((err: unknown) => this.log(err));
            throw e;
          }
          const settings = this.settingsView();
          this.emit({ type: 'settings.changed', settings });
          this.emit({ type: 'session.changed', session: await this.sessionView() });
          return settings;
        },
      },

      session: {
        status: async () => this.sessionView(),
        signIn: async () => {
          if (this.signInAbort) throw desktopErrors.busy('A sign-in');
          const s = this.settings.get();
          if (!s.baseUrl) throw desktopErrors.notConfigured('address (base_url)');
          if (!s.applicationId) throw desktopErrors.notConfigured('application id');
          const open = this.host.openExternal;
          if (!open) throw desktopErrors.unsupported('Signing in through the browser');
          const abort = new AbortController();
          this.signInAbort = abort;
          this.emit({ type: 'session.changed', session: await this.sessionView() });
          try {
            const baseUrl = s.baseUrl;
            const tm = await TokenManager.signIn({
              store: await this.credentials(),
              baseUrl,
              applicationId: s.applicationId,
              signal: abort.signal,
              openExternal: async (url) => {
                if (!externalUrlAllowed(url, { hosts: [], origins: [baseUrl] })) throw new DesktopError('forbidden_url', 'The sign-in page is not on the marketplace configured in Settings', 403);
                await open(url);
              },
              onSessionExpired: () => this.sessionExpired(),
            });
            this.tokenManager = tm;
            await this.settings.update({ userId: tm.userId });
            await this.reconcile();
          } finally {
            this.signInAbort = null;
          }
          const session = await this.sessionView();
          this.emit({ type: 'session.changed', session });
          return session;
        },
        cancelSignIn: async () => {
          this.signInAbort?.abort();
          return this.sessionView();
        },
        signOut: async () => {
          const tm = this.tokenManager;
          this.tokenManager = null;
          if (tm) await tm.signOut();
          else if (this.credentialStore) await this.credentialStore.remove('default');
          const s = this.settings.get();
          await this.settings.update({ accessToken: null, ...(s.mode === 'online' ? { mode: 'offline' as const } : {}) });
          await this.reconcile();
          const session = await this.sessionView();
          this.emit({ type: 'session.changed', session });
          this.emit({ type: 'settings.changed', settings: this.settingsView() });
          return session;
        },
      },

      stock: {
        grid: async (q) => {
          const p = await this.current();
          const { limit, offset, ...filters } = q ?? {};
          return gridPage(p.db, p.sellerId, { limit: limit ?? DEFAULT_GRID_LIMIT, offset: offset ?? 0, ...filters }, { authority: p.kind === 'local' });
        },
        locate: async (q) => {
          const p = await this.current();
          return locate(p.db, p.sellerId, q);
        },
        rows: async ({ ids }) => {
          const p = await this.current();
          return rowsByIds(p.db, p.sellerId, ids, { authority: p.kind === 'local' });
        },
        cell: async (input) => {
          const p = await this.current();
          return enrichOneCell(p.db, cellView(p.db, ownedCell(p, input)), { authority: p.kind === 'local' });
        },
        history: async (input) => {
          const p = await this.current();
          return cellHistory(p.db, ownedCell(p, input), input.limit ?? 50, input.before);
        },
        adjust: async ({ userProductId, type, storeId, delta, ref }) => edit(await this.current(), { userProductId, type, storeId }, { delta }, ref),
        count: async ({ userProductId, type, storeId, quantity, ref }) => edit(await this.current(), { userProductId, type, storeId }, { quantity }, ref),
        resolveConflict: async ({ entryId, resolution }) => {
          const p = await this.current();
          const up = p.outbox.productOf(entryId);
          const r = p.engine.resolveConflict(entryId, resolution, { author: p.author });
          this.stockChanged(up ? [up] : null);
          this.scheduleStatus();
          return r;
        },
        stores: async () => {
          const p = await this.current();
          const all = [];
          for (let offset = 0; ; ) {
            const page = p.service.stores.search(p.principal, String(p.sellerId), { limit: '50', offset: String(offset) });
            all.push(...page.results);
            offset += page.results.length;
            if (page.results.length === 0 || offset >= page.paging.total) break;
          }
          return all;
        },
        createListing: async (body) => {
          const p = await this.current();
          if (p.kind === 'local') {
            const item = await p.service.items.createMultiwarehouse(p.principal, body);
            invalidateGrid(p.db);
            this.stockChanged(null);
            return item;
          }
          const remote = remoteOnline(p, 'Creating a listing');
          const res = await remote.request<OutputOf<'stock', 'createListing'>>('POST', '/items/multiwarehouse', { json: body, idempotencyKey: randomUUID() });
          if (res.status !== 201 || !res.body) {
            const b = (res.body ?? {}) as { error?: unknown; cause?: unknown };
            throw new ServiceError(res.status, typeof b.error === 'string' ? b.error : 'remote_error', serverMessage(res), Array.isArray(b.cause) ? (b.cause as []) : []);
          }
          // The new user product reaches the grid with the next pull.
          p.engine.pullNow().catch((e: unknown) => this.log(e));
          return res.body;
        },
      },

      outbox: {
        list: async (q) => {
          const p = await this.current();
          return p.outbox.list({ kind: q?.kind, state: q?.state, limit: q?.limit ?? DEFAULT_LIST_LIMIT, offset: q?.offset ?? 0 });
        },
        retry: async ({ entryId }) => {
          const p = await this.current();
          p.engine.retry(entryId);
          this.stockChanged(null);
          this.scheduleStatus();
          return { entryId };
        },
        discard: async ({ entryId }) => {
          const p = await this.current();
          p.engine.discard(entryId, { author: p.author });
          this.stockChanged(null);
          this.scheduleStatus();
          return { entryId };
        },
      },

      messages: {
        conversations: async (q): Promise<ConversationsView> => {
          const p = await this.current();
          return p.inbox.conversations(p.sellerId, { filter: q?.filter ?? 'all', limit: q?.limit ?? DEFAULT_LIST_LIMIT, offset: q?.offset ?? 0 });
        },
        thread: async ({ packId, limit, offset, markAsRead }) => {
          const p = await this.current();
          const unreadBefore = p.kind === 'remote' && markAsRead !== false ? p.inbox.conversations(p.sellerId, { filter: 'unread', limit: 1000, offset: 0 }).conversations.some((c) => c.packId === packId) : false;
          const list = await p.service.messages.list(p.principal, String(packId), String(p.sellerId), {
            limit: String(limit ?? 20),
            offset: String(offset ?? 0),
            mark_as_read: markAsRead === false ? 'false' : 'true',
          });
          if (unreadBefore && p.remote && p.engine.mode === 'online') {
            // The marketplace marks a pack read when its seller reads it; a pull never does (it reads with mark_as_read=false).
            p.remote
              .request('GET', `/messages/packs/${packId}/sellers/${p.sellerId}`, { query: { mark_as_read: 'true', limit: 1 } })
              .catch((e: unknown) => this.log(e));
          }
          const queued = p.outbox.queuedMessages(packId);
          return { packId, ...list, conversation_status: list.conversation_status as unknown as Record<string, unknown> | null, queued };
        },
        send: async ({ packId, text, fileIds }) => {
          const p = await this.current();
          const files = (fileIds ?? []).map((id) => this.staging.get(id));
          if (p.kind === 'remote') {
            const r = await p.engine.queueMessage({ packId, text, files: files.map((f) => ({ path: f.path, name: f.name, ...(f.type ? { type: f.type } : {}) })), author: p.author });
            for (const f of files) await this.staging.discard(f.fileId);
            this.scheduleStatus();
            return { status: 'queued' as const, entryId: r.entryId, warnings: r.warnings };
          }
          // Local-only: the embedded service is the marketplace; upload, then send, as a client of the spec would.
          const pack = resolvePack(messagesRepo(p.db), packId);
          if (!pack) throw orderErrors.packNotFound(packId);
          const ids: string[] = [];
          for (const f of files) {
            const ticket = p.service.attachments.beginUpload(p.principal, { site_id: pack.siteId, tag: 'post_sale' }, 'multipart/form-data; boundary=stockroom', undefined);
            const info = await stat(f.path);
            if (info.size > MAX_ATTACHMENT_BYTES) throw badRequest('File attachment is bigger than 25 Mb.');
            const part = { type: 'file' as const, fieldname: 'file', filename: f.name, mimetype: f.type ?? undefined, file: createReadStream(f.path) };
            ids.push((await p.service.attachments.upload(ticket, (async function* () { yield part; })())).id);
          }
          const message = await p.service.messages.send(p.principal, String(packId), String(p.sellerId), { tag: 'post_sale' }, {
            from: { user_id: p.sellerId },
            to: { user_id: pack.buyerId },
            text,
            ...(ids.length > 0 ? { attachments: ids } : {}),
          });
          for (const f of files) await this.staging.discard(f.fileId);
          return { status: 'sent' as const, message };
        },
        stageFile: async ({ name, type, bytes }) => this.staging.stageBytes(name, type, bytes),
        pickFiles: async () => {
          if (!this.host.dialogs) throw desktopErrors.unsupported('The file dialog');
          const paths = await this.host.dialogs.openFiles();
          const out = [];
          for (const path of paths) out.push(await this.staging.stagePath(path));
          return out;
        },
        discardFile: async ({ fileId }) => {
          await this.staging.discard(fileId);
          return { fileId };
        },
        readAttachment: async ({ attachmentId }) => {
          const p = await this.current();
          const { row, download } = await openAttachment(p, attachmentId);
          const bytes = await readAll(download.stream, MAX_ATTACHMENT_BYTES);
          return { name: row.original_filename, type: row.media_type, size: bytes.length, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
        },
        saveAttachment: async ({ attachmentId }) => {
          if (!this.host.dialogs) throw desktopErrors.unsupported('The save dialog');
          const p = await this.current();
          const row = attachmentRow(p, attachmentId);
          const target = await this.host.dialogs.saveFile(row.original_filename);
          if (target === null) return { saved: false, path: null };
          const { download } = await openAttachment(p, attachmentId);
          const tmp = `${target}.stockroom-part`;
          await pipeline(download.stream, createWriteStream(tmp, { mode: 0o644 }));
          await rename(tmp, target);
          return { saved: true, path: target };
        },
        quickReplies: async () => this.quickReplies.list(),
        saveQuickReplies: async ({ replies }) => this.quickReplies.save(replies),
      },

      brands: {
        list: async (q) => {
          const p = await this.current();
          const userId = q?.userId ?? p.sellerId;
          try {
            return { userId, list: p.service.brands.list(p.principal, String(userId)) };
          } catch (e) {
            if (isServiceError(e) && e.error === 'B00001') return { userId, list: null };
            throw e;
          }
        },
        detail: async ({ officialStoreId, userId }) => {
          const p = await this.current();
          return p.service.brands.get(p.principal, String(userId ?? p.sellerId), String(officialStoreId));
        },
      },

      sync: {
        status: async (): Promise<SyncStatusView> => (await this.current()).engine.status(),
        pullNow: async () => {
          const p = await this.current();
          if (p.kind === 'local') throw desktopErrors.localOnly('Pulling from the marketplace');
          if (!p.auth) throw desktopErrors.notSignedIn();
          const { incoming: _incoming, ...report } = await p.engine.pullNow();
          this.scheduleStatus();
          return report;
        },
      },
    };
  }

  /** Whether a link may open in the system browser: https on the allow-list, or the configured marketplace (main/desktop/external.ts). */
  linkAllowed(url: string): boolean {
    const baseUrl = this.settings.get().baseUrl;
    return externalUrlAllowed(url, { hosts: DEFAULT_EXTERNAL_HOSTS, origins: baseUrl ? [baseUrl] : [] });
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Clean shutdown: refuses new calls, waits for the calls in progress, stops the engine (it waits
   * for the requests on the wire; what is queued stays queued in SQLite), stops background jobs,
   * closes the databases and releases the data folder.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.signInAbort?.abort();
    for (const t of [this.statusTimer, this.stockTimer, this.messageTimer]) if (t) clearTimeout(t);
    await this.switching;
    await this.settle();
    const p = this.profile;
    this.profile = null;
    try {
      if (p) await closeProfile(p);
    } finally {
      this.credentialStore?.close();
      this.credentialStore = null;
      this.releaseLock();
      this.events.removeAllListeners();
    }
  }

  /** For tests and the shell: the open profile's engine status without a call. */
  status(): SyncStatusView | null {
    return this.profile?.engine.status() ?? null;
  }
}

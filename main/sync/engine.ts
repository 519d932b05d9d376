// Over 400 lines on purpose: SyncEngine is the one place that orders the claim, the send, the
// settling transaction and the events of every entry; splitting that sequence across files would
// hide it. Its rules live elsewhere and are tested alone: lanes.ts and scheduler.ts (which entry
// goes next), settle.ts (what an outcome writes, when a bad spell ends), connectivity.ts,
// outbox.ts (intents and coalescing), stock-push.ts / message-push.ts, pull.ts.
import type { Mode, PullProgressView, SyncStatusView } from '../../common/views.js';
import { EventEmitter, setMaxListeners } from 'node:events';
import { createReadStream } from 'node:fs';

import type { Db } from '../db/open.js';
import { type MessagesRepo, messagesRepo } from '../db/repos/messages.js';
import { type StockRepo, stockRepo } from '../db/repos/stock.js';
import { type ClaimedFields, type LaneEntry, type OutboxRow, type StockClaim, claimedFields } from '../db/repos/sync.js';
import { type Clock, systemClock } from '../service/clock.js';
import { badRequest } from '../service/errors.js';
import { resolveMediaType } from '../service/messages/attachments/media.js';
import { fileStorage } from '../service/messages/attachments/storage.js';
import { DEFAULT_MEDIATION_SITE } from '../service/messages/messages.js';
import type { MessageView } from '../service/messages/views.js';
import { type Checkpointer, startCheckpointer } from '../db/checkpointer.js';
import { COUNTED, type LaneCounts, emptyLaneCounts, laneCounts } from './lanes.js';
import { LaneScheduler } from './scheduler.js';
import { Connectivity } from './connectivity.js';
import { RelaxedWrites } from '../db/relaxed-writes.js';
import { RemoteClient, RemoteError, type TokenProvider } from './client.js';
import { type FileStore, type MessagePayload, MessagePusher } from './message-push.js';
import {
  type DiscardResult,
  type EditMeta,
  Outbox,
  type QueueResult,
  type Resolution,
  type TransferResult,
  type UndoResult,
  newKey,
  packLane,
} from './outbox.js';
import { PullError, type PullReport, Puller } from './pull.js';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
import { type Effect, SpellWatch, recordOutcome } from './settle.js';
import { type Plan, type PushOutcome, StockPusher } from './stock-push.js';
import { type ModerationWarning, type OutgoingFile, type StockTarget, checkMessage, checkStockTarget } from './validate.js';
import { checkCount, checkDelta } from '../service/stock/cells.js';
import { atIndex } from '../service/stock/local-edits.js';

/** online: push and pull; offline: queue only (the user chose so); local-only: no remote; the database is the marketplace and the service edits it (no outbox). */
export type SyncMode = Mode;

export interface SyncEngineOptions {
  /** The replica (openDatabase: every migration, 007 included). One engine per replica. */
  db: Db;
  /** The seller this replica belongs to. */
  sellerId: number;
  /** The remote marketplace API (required unless local-only). */
  baseUrl?: string;
  /** Access token and application id of every request (required unless local-only). */
  auth?: TokenProvider;
  mode?: SyncMode;
  /** Pull every this many ms while online (default 60 s; 0: only on demand and at start). */
  pollIntervalMs?: number;
  /** Entries pushed at the same time (different lanes), and connections to the remote (default 8). */
  concurrency?: number;
  clock?: Clock;
  retry?: Partial<RetryPolicy>;
  /** The app's own file store (queued attachments, downloaded files). */
  filesDir: string;
  /** Where "mediation in process" blocks sending (SPEC 7.6), as on the remote (default MLB). */
  mediationSite?: string;
  /** Most user products whose stock one pull reads (default 5000). */
  stockBatch?: number;
  /** Pull when started online (default true). */
  pullOnStart?: boolean;
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /** Jitter source (tests pass a seeded one). */
  random?: () => number;
  /** WAL checkpoints in a worker thread every this many ms (default 1000); false leaves them to SQLite. */
  checkpointEveryMs?: number | false;
}

/** What the status bar shows (the shape is the preload contract's): connection, counts, progress. */
export type SyncStatus = SyncStatusView;

export interface SyncEvents {
  progress: [SyncStatus];
  synced: [{ entryId: number; kind: OutboxRow['kind']; replayed: boolean }];
  conflict: [{ entryId: number; cell: string }];
  /** An entry taken back once its outcome was learnt: it had not been applied (model.ts). */
  withdrawn: [{ entryId: number; kind: OutboxRow['kind'] }];
  failed: [{ entryId: number; status: number | null; error: string }];
  retry: [{ entryId: number; status: number | null; error: string; delayMs: number }];
  message: [MessageView];
  online: [];
  offline: [string];
  pulled: [PullReport];
  /** How far the pull in progress is (pull.ts: each step's start and end, about every 1% between). */
  'pull-progress': [PullProgressView];
  'sync-error': [Error];
}

/**
 * A claimed entry: a stock entry with its planned request, or a message entry (read whole);
 * `before`: what undoing the claim restores, while its request has not gone out.
 */
type Claim = (({ row: StockClaim; plan: Plan } | { row: OutboxRow; plan: null }) & { before: ClaimedFields }) | null;

/**
 * How long the outcomes that come back during a flush wait for more of them, so that one
 * transaction records more answers (and the remote gets the next requests together): the slots
 * do not wait meanwhile, they take the entries claimed ahead.
 */
const SETTLE_LINGER_MS = 4;
/** What settling an entry's outcome and announcing it need of the claimed row. */
type Sent = Pick<OutboxRow, 'id' | 'kind' | 'attempts' | 'cell'>;

/**
 * The offline-first sync engine: a durable outbox pushed to the remote marketplace, and a pull
 * that keeps the replica's mirror current. See outbox.ts (state machine, coalescing), stock-push.ts
 * (rebase and conflicts), message-push.ts, pull.ts (cadence and change detection), retry.ts.
 *
 * Scheduling: each lane (a user product, a conversation) sends one entry at a time in id order;
 * up to `concurrency` lanes are in flight together. The scheduler keeps the active entries of
 * every lane in memory (re-read from SQLite whenever a lane changes); SQLite stays the truth.
 *
 * Flushing a backlog: up to `concurrency` more entries are claimed ahead (claimed and their
 * requests persisted, in flight for SQLite, not sent yet), so a request that comes back hands its
 * slot to the next one at once; the answers are recorded in batches (see finish). An entry
 * claimed ahead goes back to pending as it was when sending stops (offline, stop); after a crash
 * it is sent as planned, under its key, like any request whose outcome is unknown.
 */
export class SyncEngine extends EventEmitter<SyncEvents> {
  readonly db: Db;
  readonly outbox: Outbox;
  readonly sellerId: number;
  private readonly clock: Clock;
  private readonly writes: RelaxedWrites;
  private readonly files: FileStore;
  private readonly policy: RetryPolicy;
  private readonly concurrency: number;
  private readonly random: () => number;
  private readonly mediationSite: string;
  private readonly stockData: StockRepo;
  private readonly messagesData: MessagesRepo;
  private readonly client: RemoteClient | null;
  private readonly stock: StockPusher | null;
  private readonly messages: MessagePusher | null;
  private readonly puller: Puller | null;
  private modeValue: SyncMode;
  private readonly pollIntervalMs: number;
  private readonly pullOnStart: boolean;

  private running = false;
  private stopped = false;
  private readonly connectivity: Connectivity;
  private readonly lanes: LaneScheduler;
  private readonly inflight = new Set<Promise<void>>();
  private active = 0;
  private pumpScheduled = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private pulling: Promise<PullReport> | null = null;
  private pullAbort: AbortController | null = null;
  private lastSyncAt: number | null = null;
  private lastError: string | null = null;
  private doneSinceIdle = 0;
  private idleWaiters: (() => void)[] = [];
  private checkpointer: Checkpointer | null = null;
  private settling: { lane: string; row: Sent; outcome: PushOutcome }[] = [];
  private settleTimer: NodeJS.Timeout | undefined;
  private settleQueued = false;
  /** Claimed and planned (committed), waiting for a free slot: a request that comes back hands its slot to the first at once. */
  private ahead: { lane: string; claim: NonNullable<Claim> }[] = [];
  private readonly spell: SpellWatch;
  private readonly checkpointEveryMs: number | false;

  constructor(options: SyncEngineOptions) {
    super();
    this.db = options.db;
    this.sellerId = options.sellerId;
    this.clock = options.clock ?? systemClock;
    this.outbox = new Outbox(this.db, this.clock);
    this.lanes = new LaneScheduler(this.clock, () => this.schedulePump());
    this.stockData = stockRepo(this.db);
    this.messagesData = messagesRepo(this.db);
    this.writes = new RelaxedWrites(this.db);
    this.files = fileStorage(options.filesDir);
    this.policy = { ...DEFAULT_RETRY, ...(options.retry ?? {}) };
    this.spell = new SpellWatch(this.policy.baseMs);
    this.connectivity = new Connectivity(this.policy, { reach: () => this.reachable(), active: () => this.running, back: () => this.backOnline() });
    this.concurrency = Math.max(1, options.concurrency ?? 8);
    this.random = options.random ?? Math.random;
    this.mediationSite = options.mediationSite ?? DEFAULT_MEDIATION_SITE;
    this.modeValue = options.mode ?? 'online';
    this.pollIntervalMs = options.pollIntervalMs ?? 60_000;
    this.pullOnStart = options.pullOnStart ?? true;
    this.checkpointEveryMs = options.checkpointEveryMs ?? 1000;
    if (this.modeValue !== 'local-only' || options.baseUrl !== undefined) {
      if (!options.baseUrl || !options.auth) throw new Error('SyncEngine: baseUrl and auth are required unless the mode is local-only');
      this.client = new RemoteClient({
        baseUrl: options.baseUrl,
        auth: options.auth,
        connections: this.concurrency,
        ...(options.timeouts?.connectMs !== undefined ? { connectTimeoutMs: options.timeouts.connectMs } : {}),
        ...(options.timeouts?.headersMs !== undefined ? { headersTimeoutMs: options.timeouts.headersMs } : {}),
        ...(options.timeouts?.bodyMs !== undefined ? { bodyTimeoutMs: options.timeouts.bodyMs } : {}),
      });
      this.stock = new StockPusher(this.outbox, this.client, this.writes, this.clock);
      this.messages = new MessagePusher(this.outbox, this.client, this.writes, this.clock, this.files);
      this.puller = new Puller(this.outbox, this.client, this.writes, this.clock, {
        sellerId: this.sellerId,
        concurrency: this.concurrency,
        stockBatch: options.stockBatch ?? 5000,
        files: this.files,
        retry: this.policy,
        random: this.random,
        onProgress: (p) => this.emit('pull-progress', p),
      });
    } else {
      this.client = null;
      this.stock = null;
      this.messages = null;
      this.puller = null;
    }
  }

  get mode(): SyncMode {
    return this.modeValue;
  }

  // ---------------------------------------------------------------- intents (the UI's calls)

  /** "Received 12", "2 damaged": a delta. Returns once it is durable (one transaction, fsynced). */
  queueAdjustment(input: StockTarget & { delta: number } & EditMeta): QueueResult {
    this.assertReplica();
    const cell = checkStockTarget(this.stockData, this.outbox.mirror, this.sellerId, input);
    const delta = checkDelta(input.delta);
    const result = this.outbox.adjust(cell, delta, input);
    this.laneChanged(`up:${cell.userProductId}`);
    return result;
  }

  /** "There are 40 on the shelf": an absolute count at the current base. Durable on return. */
  queueCount(input: StockTarget & { quantity: number } & EditMeta): QueueResult {
    this.assertReplica();
    const cell = checkStockTarget(this.stockData, this.outbox.mirror, this.sellerId, input);
    const quantity = checkCount(input.quantity);
    const result = this.outbox.count(cell, quantity, input);
    this.laneChanged(`up:${cell.userProductId}`);
    return result;
  }

  /** N units from one store of a product to another: one entry, later one PUT with both stores. Durable on return. */
  queueTransfer(input: StockTarget & { toStoreId: string; units: number } & EditMeta): TransferResult {
    this.assertReplica();
    const from = checkStockTarget(this.stockData, this.outbox.mirror, this.sellerId, input);
    const to = checkStockTarget(this.stockData, this.outbox.mirror, this.sellerId, { ...input, storeId: input.toStoreId });
    const result = this.outbox.transfer(from, to.storeKey, input.units, input);
    this.laneChanged(`up:${from.userProductId}`);
    return result;
  }

  /** Takes back the author's last edit: withdrawn while only queued, else an inverse edit (outbox.ts). */
  undoLast(author: string): UndoResult {
    this.assertReplica();
    const result = this.outbox.undoLast(author);
    if (result.userProductId) this.laneChanged(`up:${result.userProductId}`);
    return result;
  }

  /**
   * Many edits as one intent (a file import): each checked and queued exactly as queueCount /
   * queueAdjustment do, all in one transaction with one fsync, so a refusal anywhere (thrown as a
   * BatchEditError with its index) leaves none of them queued. The lanes learn of them after the commit.
   */
  queueStockBatch(edits: (StockTarget & ({ delta: number } | { quantity: number }) & EditMeta)[]): QueueResult[] {
    this.assertReplica();
    const lanes = new Set<string>();
    const results = this.db
      .transaction(() =>
        edits.map((input, index) =>
          atIndex(index, () => {
            const cell = checkStockTarget(this.stockData, this.outbox.mirror, this.sellerId, input);
            lanes.add(`up:${cell.userProductId}`);
            return 'delta' in input ? this.outbox.adjust(cell, checkDelta(input.delta), input) : this.outbox.count(cell, checkCount(input.quantity), input);
          }),
        ),
      )
      .immediate();
    for (const lane of lanes) this.laneChanged(lane);
    return results;
  }

  /**
   * Counts observed earlier at their bases (a count session's lines, main/desktop/count-sessions.ts):
   * each a sealed entry of its own (Outbox.countObserved), all in one transaction; a refusal
   * anywhere (a BatchEditError with its index) leaves none of them queued.
   */
  queueObservedCounts(edits: (StockTarget & { quantity: number; base: number } & EditMeta)[]): (QueueResult & { moved: boolean })[] {
    this.assertReplica();
    const lanes = new Set<string>();
    const results = this.db
      .transaction(() =>
        edits.map((input, index) =>
          atIndex(index, () => {
            const cell = checkStockTarget(this.stockData, this.outbox.mirror, this.sellerId, input);
            lanes.add(`up:${cell.userProductId}`);
            return this.outbox.countObserved(cell, checkCount(input.quantity), input.base, input);
          }),
        ),
      )
      .immediate();
    for (const lane of lanes) this.laneChanged(lane);
    return results;
  }

  /**
   * An outgoing message: checked like the marketplace checks it (refused here with its error when
   * it would be refused there), its files copied into the app's store, then queued in one
   * transaction. Moderation findings come back as warnings (the message is still queued).
   */
  async queueMessage(
    input: { packId: number; text: string; files?: OutgoingFile[] } & EditMeta,
    /** Writes that belong with the queued message (the conversation's draft cleared), in its transaction. */
    alsoInTransaction?: () => void,
  ): Promise<{ entryId: number; warnings: ModerationWarning[] }> {
    if (this.modeValue === 'local-only') throw badRequest('In local-only mode messages are sent through the local service');
    const checked = await checkMessage(this.messagesData, this.sellerId, this.mediationSite, input);
    const attachments: MessagePayload['attachments'] = [];
    for (const f of checked.files) {
      const staged = await this.files.stage(createReadStream(f.path));
      await this.files.commit(staged);
      if (staged.size !== f.size || staged.size === 0) throw badRequest(`The file ${f.name} changed while it was being queued`);
      attachments.push({
        sha256: staged.sha256,
        name: f.name,
        type: f.type ?? resolveMediaType(undefined, staged.head, f.name),
        size: staged.size,
        remoteId: null,
      });
    }
    const payload: MessagePayload = {
      packId: input.packId,
      sellerId: this.sellerId,
      toUserId: checked.pack.buyerId,
      siteId: checked.pack.siteId,
      text: checked.text,
      attachments,
      warnings: checked.warnings,
      uploadRound: 0,
    };
    const lane = packLane(input.packId);
    const entryId = this.db
      .transaction(() => {
        const id = this.outbox.repo.insert({ kind: 'message', lane, idempotency_key: newKey(), now: this.clock.now(), payload: JSON.stringify(payload) });
        alsoInTransaction?.();
        return id;
      })
      .immediate();
    this.laneChanged(lane);
    return { entryId, warnings: checked.warnings };
  }

  resolveConflict(entryId: number, resolution: Resolution, meta: EditMeta = {}): QueueResult {
    const lane = this.outbox.repo.byId(entryId)?.lane;
    const result = this.outbox.resolve(entryId, resolution, meta);
    if (lane) this.laneChanged(lane);
    return result;
  }

  retry(entryId: number): void {
    const lane = this.outbox.repo.byId(entryId)?.lane;
    this.outbox.retry(entryId);
    if (lane) this.laneChanged(lane);
  }

  discard(entryId: number, meta: EditMeta = {}): DiscardResult {
    const lane = this.outbox.repo.byId(entryId)?.lane;
    const result = this.outbox.discard(entryId, meta);
    if (lane) this.laneChanged(lane);
    return result;
  }

  /** The local path of an attachment's bytes (downloaded from the remote the first time). */
  async attachmentFile(id: string): Promise<string> {
    if (!this.puller) throw badRequest('No remote in local-only mode');
    return this.puller.attachmentFile(id);
  }

  /** Local-only: the database is the marketplace itself, and its stock is edited through the service (service/stock/local-edits.ts). */
  private assertReplica(): void {
    if (this.modeValue === 'local-only') throw badRequest('In local-only mode stock is edited through the local service, not queued');
  }

  // ---------------------------------------------------------------- status and lifecycle

  status(): SyncStatus {
    // Before start the scheduler has not loaded the outbox: count in SQLite.
    const totals = this.running ? this.lanes.totals : this.countAll();
    // Entries held behind a conflict or a failure are not "pending": nothing sends them until the person acts.
    const pending = totals.pending - totals.blocked;
    const inFlight = totals.in_flight;
    return {
      mode: this.modeValue,
      online: this.modeValue === 'online' && this.connectivity.isOnline,
      pending,
      inFlight,
      blocked: totals.blocked,
      conflicts: totals.conflict,
      failed: totals.failed,
      lastSyncAt: this.lastSyncAt,
      lastPullAt: this.lastPullAt(),
      lastError: this.lastError,
      progress: { done: this.doneSinceIdle, total: this.doneSinceIdle + pending + inFlight },
    };
  }

  private countAll(): LaneCounts {
    const total = emptyLaneCounts();
    for (const rows of this.loadLanes().values()) {
      const c = laneCounts(rows);
      for (const k of COUNTED) total[k] += c[k];
    }
    return total;
  }

  private loadLanes(): Map<string, LaneEntry[]> {
    const byLane = new Map<string, LaneEntry[]>();
    // Each row kept as read (its lane along): a start reads every active entry.
    for (const r of this.outbox.repo.activeLanes()) {
      const list = byLane.get(r.lane);
      if (list) list.push(r);
      else byLane.set(r.lane, [r]);
    }
    return byLane;
  }

  private lastPullAt(): number | null {
    const v = this.outbox.repo.getState('last_pull_at');
    return v === undefined ? null : Number(v);
  }

  /**
   * Recovers (a crash left entries in flight: they go back to pending, their request kept, their
   * key unchanged), loads the scheduler, and starts pushing and polling when online.
   */
  start(): void {
    if (this.running) return;
    if (this.stopped) throw new Error('SyncEngine: an engine runs once; create a new one after stop()');
    this.running = true;
    const now = this.clock.now();
    this.db.transaction(() => {
      this.outbox.repo.recoverInFlight(now);
      this.outbox.repo.pruneDone(now - 7 * 24 * 3600_000);
    })();
    this.lanes.clear();
    this.lanes.start();
    for (const [lane, rows] of this.loadLanes()) this.lanes.setLane(lane, rows);
    this.files.sweepTemp(now);
    if (this.checkpointEveryMs !== false) this.checkpointer = startCheckpointer(this.db, { everyMs: this.checkpointEveryMs });
    if (this.modeValue === 'online') this.goOnlineWork(this.pullOnStart);
  }

  /** Stops pushing and polling; waits for the requests in flight to settle (nothing is lost: what is left stays queued). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopped = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
    this.connectivity.stop();
    this.lanes.stop();
    this.pullAbort?.abort();
    await Promise.allSettled([...this.inflight]);
    // Outcomes that came back but wait for their batch: recorded now, before the caller closes the database.
    this.settleBatch();
    this.releaseAhead();
    await this.pulling?.catch(() => undefined);
    await this.writes.run(() => undefined);
    await this.client?.close();
    await this.checkpointer?.stop();
    this.checkpointer = null;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  setMode(mode: SyncMode): void {
    if (mode === this.modeValue) return;
    if (mode === 'local-only' || this.modeValue === 'local-only') throw badRequest('Switching to or from local-only needs a new engine');
    this.modeValue = mode;
    if (mode === 'online' && this.running) this.goOnlineWork(true);
    if (mode === 'offline') {
      this.releaseAhead();
      if (this.pollTimer) clearTimeout(this.pollTimer);
      this.pollTimer = undefined;
      this.pullAbort?.abort();
    }
    this.emit('progress', this.status());
  }

  /** Resolves when nothing is left to push right now (conflicts and failures wait for the user). */
  drain(timeoutMs = 60_000): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.idleWaiters = this.idleWaiters.filter((w) => w !== done);
        reject(new Error(`drain: still ${JSON.stringify(this.status())} after ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.idleWaiters.push(done);
    });
  }

  /** Pulls the remote state into the mirror now (shared with a pull already running). */
  pullNow(): Promise<PullReport> {
    if (!this.puller) return Promise.reject(badRequest('No remote in local-only mode'));
    if (this.modeValue === 'offline') return Promise.reject(badRequest('Offline mode: switch to online to pull'));
    if (this.pulling) return this.pulling;
    const abort = new AbortController();
    // Every request of the pull listens to this one signal.
    setMaxListeners(0, abort.signal);
    this.pullAbort = abort;
    const run = this.puller.pull(abort.signal).then(
      (report) => {
        this.lastSyncAt = this.clock.now();
        this.lastError = null;
        this.settleFoundMessages();
        for (const m of report.incoming) this.emit('message', m);
        this.emit('pulled', report);
        return report;
      },
      (e: unknown) => {
        if (e instanceof PullError && e.offline) this.goOffline(e.message);
        this.lastError = (e as Error).message;
        throw e;
      },
    );
    this.pulling = run.finally(() => {
      this.pulling = null;
      if (this.pullAbort === abort) this.pullAbort = null;
    });
    return this.pulling;
  }

  /**
   * Messages whose request may have reached the marketplace (waiting to be resent, or of unknown
   * outcome) that the pull found there: delivered, so their entries are done (model.ts). Each
   * marketplace message settles one entry at most.
   */
  private settleFoundMessages(): void {
    const lanes = new Set<string>();
    try {
      this.writes.runNow(() => {
        const used = new Set<string>();
        const settled = new Set<number>();
        const now = this.clock.now();
        for (const c of this.outbox.repo.sentCandidates()) {
          if (settled.has(c.entry_id) || used.has(c.message_id) || c.files !== c.wanted) continue;
          const row = this.outbox.repo.byId(c.entry_id);
          if (!row || (row.state !== 'pending' && row.state !== 'failed')) continue;
          this.outbox.repo.markDone(c.entry_id, { result_version: null, result: c.message_id, status: 200 }, now);
          settled.add(c.entry_id);
          used.add(c.message_id);
          lanes.add(row.lane);
        }
      });
    } catch (e) {
      this.emit('sync-error', e as Error);
    }
    for (const lane of lanes) this.laneChanged(lane);
  }

  private goOnlineWork(pull: boolean): void {
    this.schedulePump();
    if (pull) this.backgroundPull();
    this.schedulePoll();
  }

  private backgroundPull(): void {
    if (!this.running || this.modeValue !== 'online' || !this.connectivity.isOnline || !this.puller) return;
    this.pullNow().catch((e: unknown) => this.emit('sync-error', e as Error));
  }

  private schedulePoll(): void {
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
    if (!this.running || this.modeValue !== 'online' || this.pollIntervalMs <= 0) return;
    this.pollTimer = setTimeout(() => {
      this.backgroundPull();
      this.schedulePoll();
    }, this.pollIntervalMs);
    this.pollTimer.unref();
  }

  // ---------------------------------------------------------------- connectivity

  private goOffline(reason: string): void {
    if (!this.connectivity.lost()) return;
    this.releaseAhead();
    this.lastError = reason;
    this.emit('offline', reason);
  }

  /** Any HTTP answer (even an error status) proves the remote is reachable again. */
  private async reachable(): Promise<boolean> {
    if (!this.client) return false;
    try {
      await this.client.request('GET', `/users/${this.sellerId}`);
    } catch (e) {
      if (e instanceof RemoteError && e.kind === 'offline') return false;
    }
    return true;
  }

  private backOnline(): void {
    this.lastError = null;
    // The remote answers again: what waited out a backoff during the bad spell goes now.
    try {
      this.writes.runNow(() => this.expedite(this.clock.now()));
    } catch (e) {
      this.emit('sync-error', e as Error);
    }
    this.emit('online');
    if (this.modeValue === 'online') this.goOnlineWork(true);
  }

  // ---------------------------------------------------------------- scheduler

  /** After any change to a lane in SQLite: reload it and reschedule. */
  private laneChanged(lane: string): void {
    if (!this.running) return;
    this.lanes.setLane(lane, this.outbox.repo.activeOfLane(lane));
    this.schedulePump();
    if (this.listenerCount('progress') > 0) this.emit('progress', this.status());
  }

  /**
   * After a bad spell (transient failures, or the remote unreachable) the remote answers again:
   * every entry waiting out a backoff becomes due now, spread over up to a second (`baseMs` when
   * shorter) so they do not all go in the same millisecond. Runs inside a write transaction.
   */
  private expedite(now: number): void {
    this.spell.reset();
    this.lanes.expedite(now, Math.max(1, Math.min(this.policy.baseMs, 1000)), this.random, (id, at) => this.outbox.repo.setNextAttempt(id, at));
  }

  /** Re-evaluates the timers now (a test that moved its clock calls this). */
  wake(): void {
    this.lanes.wake();
    this.schedulePump();
  }

  private schedulePump(): void {
    if (this.pumpScheduled || !this.running) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /**
   * Fills the free slots and the reserve: the ready lanes' next entries are claimed (and their
   * requests planned and persisted) in one transaction, then sent as slots are free.
   */
  private pump(): void {
    this.sendAhead();
    if (this.canSend() && this.room() > 0 && this.lanes.readyCount > 0) {
      const picked = this.lanes.pick(this.room());
      if (picked.length > 0) {
        const now = this.clock.now();
        let claims: Claim[];
        try {
          claims = this.writes.runNow(() => this.claimAll(picked, now));
        } catch (e) {
          this.claimFailed(picked, e, now);
          return;
        }
        this.sendAll(picked, claims);
      }
    }
    this.checkIdle();
  }

  /**
   * How many more entries to claim: the free slots, and a reserve of `concurrency` claimed ahead,
   * so that a slot never waits for the transaction that records an answer and claims the next.
   */
  private room(): number {
    return 2 * this.concurrency - this.active - this.ahead.length;
  }

  /** Hands the free slots to the entries claimed ahead, oldest first. */
  private sendAhead(): void {
    while (this.active < this.concurrency && this.ahead.length > 0 && this.canSend()) {
      const { lane, claim } = this.ahead.shift()!;
      this.dispatch(lane, claim);
    }
  }

  /**
   * The entries claimed ahead go back to pending as they were (their requests never went out),
   * when sending stops: they stay editable like any queued entry.
   */
  private releaseAhead(): void {
    if (this.ahead.length === 0) return;
    const ahead = this.ahead;
    this.ahead = [];
    const now = this.clock.now();
    try {
      this.writes.runNow(() => ahead.forEach(({ claim }) => this.outbox.repo.unclaim(claim.row.id, claim.before, now)));
    } catch (e) {
      // Left in flight: back to pending at the next start, their planned requests kept (sent once then).
      this.emit('sync-error', e as Error);
    }
    for (const { lane } of ahead) {
      this.lanes.release(lane);
      this.laneChanged(lane);
    }
  }

  private canSend(): boolean {
    return this.running && this.modeValue === 'online' && this.connectivity.isOnline;
  }

  /** Inside a transaction: claims the picked entries and plans their requests. */
  private claimAll(picked: { lane: string; entry: LaneEntry }[], now: number): Claim[] {
    return picked.map(({ entry }): Claim => {
      if (entry.kind === 'stock') return this.stock!.claim(entry.id, now);
      const row = this.outbox.repo.claim(entry.id, now);
      return row ? { row, plan: null, before: claimedFields(row) } : null;
    });
  }

  /** The claim transaction failed (nothing was claimed): those entries wait a little rather than spin. */
  private claimFailed(picked: { lane: string; entry: LaneEntry }[], e: unknown, now: number): void {
    this.lastError = (e as Error).message;
    this.emit('sync-error', e as Error);
    try {
      this.writes.runNow(() =>
        picked.forEach(({ entry }) => this.outbox.repo.reschedule(entry.id, now + this.policy.baseMs, null, (e as Error).message, false, now)),
      );
    } catch {
      // The database itself is failing: the lanes are looked at again at the next change.
    }
    for (const { lane } of picked) {
      this.lanes.release(lane);
      this.laneChanged(lane);
    }
  }

  private sendAll(picked: { lane: string; entry: LaneEntry }[], claims: Claim[]): void {
    picked.forEach(({ lane }, i) => {
      const claim = claims[i];
      if (claim) {
        this.lanes.markInFlight(lane, claim.row.id);
        this.ahead.push({ lane, claim });
      } else {
        // Gone meanwhile (coalesced away, discarded): look at the lane again.
        this.lanes.release(lane);
        this.laneChanged(lane);
      }
    });
    // Sending stopped meanwhile (offline, stopped): what was claimed goes back.
    if (this.canSend()) this.sendAhead();
    else this.releaseAhead();
  }

  private isIdle(): boolean {
    return !this.running || (this.active === 0 && this.ahead.length === 0 && this.settling.length === 0 && this.lanes.quiet);
  }

  private checkIdle(): void {
    if (!this.isIdle()) return;
    if (this.lanes.totals.pending === 0 && this.lanes.totals.in_flight === 0) this.doneSinceIdle = 0;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  private dispatch(lane: string, claim: NonNullable<Claim>): void {
    this.active++;
    const work: Promise<void> = this.push(claim).then((outcome) => {
      this.inflight.delete(work);
      this.finish(lane, claim.row, outcome);
    });
    this.inflight.add(work);
  }

  private async push(claim: NonNullable<Claim>): Promise<PushOutcome> {
    try {
      return claim.plan !== null ? await this.stock!.push(claim.row, claim.plan) : await this.messages!.push(claim.row);
    } catch (e) {
      return { type: 'retry', offline: false, status: null, error: (e as Error).message };
    }
  }

  /**
   * An entry came back: its slot goes to the first entry claimed ahead at once, and its outcome
   * waits for its batch. The outcomes that arrive together are recorded together (group commit):
   * one transaction records them, re-reads nothing it does not have to, and claims the entries that
   * refill the slots and the reserve; then the events, then the new sends. The batch is recorded in
   * the next turn of the event loop when nothing is claimed ahead (a slot would wait for it) or a
   * slot's worth of outcomes is in, else SETTLE_LINGER_MS later. Until then an outcome is only in
   * memory: a crash leaves its entry in flight in SQLite, sent again after a restart under the
   * same key (the remote replays its answer).
   */
  private finish(lane: string, row: Sent, outcome: PushOutcome): void {
    this.active--;
    this.sendAhead();
    this.settling.push({ lane, row, outcome });
    if (this.ahead.length === 0 || this.settling.length >= this.concurrency) {
      if (!this.settleQueued) {
        this.settleQueued = true;
        setImmediate(() => this.settleBatch());
      }
    } else this.settleTimer ??= setTimeout(() => this.settleBatch(), SETTLE_LINGER_MS);
  }

  private settleBatch(): void {
    this.settleQueued = false;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = undefined;
    const batch = this.settling;
    if (batch.length === 0) return;
    this.settling = [];
    for (const { lane } of batch) this.lanes.release(lane);
    const now = this.clock.now();
    let picked: { lane: string; entry: LaneEntry }[] = [];
    let result: { effects: Effect[]; claims: Claim[] };
    try {
      result = this.writes.runNow(() => {
        const effects = batch.map(({ lane, row, outcome }) => {
          const effect = recordOutcome(this.outbox.repo, row, outcome, this.policy, this.random, now);
          // The scheduler's copy of the lane (other changes while the entry was out already reloaded it).
          if (this.running && !(effect.type === 'done' && this.lanes.done(lane, row.id))) this.lanes.setLane(lane, this.outbox.repo.activeOfLane(lane));
          return effect;
        });
        if (effects.some((e) => e.type === 'done')) this.lastError = null;
        // The remote is back after a bad spell: nothing waits out a backoff earned during it.
        if (this.spell.observe(effects, now) && this.running) this.expedite(now);
        if (this.canSend()) picked = this.lanes.pick(this.room());
        return { effects, claims: this.claimAll(picked, now) };
      });
    } catch (e) {
      // Not recorded: the entries stay in flight in SQLite and go again after a restart (same keys).
      this.lastError = (e as Error).message;
      this.emit('sync-error', e as Error);
      for (const p of picked) this.lanes.release(p.lane);
      if (this.running) for (const { lane } of batch) this.laneChanged(lane);
      this.checkIdle();
      return;
    }
    batch.forEach(({ row }, i) => this.announce(row, result.effects[i]!));
    if (!this.running) return this.checkIdle();
    this.sendAll(picked, result.claims);
    if (this.listenerCount('progress') > 0) this.emit('progress', this.status());
    this.pump();
  }

  /** After the commit: events, and what the outcome asks of the engine. */
  private announce(row: Sent, effect: Effect): void {
    switch (effect.type) {
      case 'done':
        this.doneSinceIdle++;
        this.lastSyncAt = this.clock.now();
        this.emit('synced', { entryId: row.id, kind: row.kind, replayed: effect.replayed });
        if (effect.refresh && this.puller && this.running && this.connectivity.isOnline) {
          this.puller.refreshStock([effect.refresh]).catch((e: unknown) => this.emit('sync-error', e as Error));
        }
        return;
      case 'conflict':
        this.emit('conflict', { entryId: row.id, cell: row.cell ?? '' });
        return;
      case 'withdrawn':
        this.emit('withdrawn', { entryId: row.id, kind: row.kind });
        return;
      case 'failed':
        this.emit('failed', { entryId: row.id, status: effect.status, error: effect.error });
        return;
      case 'offline':
        this.goOffline(effect.error);
        return;
      case 'retry':
        this.lastError = effect.error;
        this.emit('retry', { entryId: row.id, status: effect.status, error: effect.error, delayMs: effect.delayMs });
        return;
    }
  }
}

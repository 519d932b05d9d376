// Past 400 lines: the lifecycle, the status, the connectivity and the pull share the engine's state. Its
// parts live beside it: intents.ts (the person's calls), sender.ts (claim, send, record), kinds/ (each kind's
// claim and push), model.ts and outbox*.ts (an entry's life), lanes.ts, scheduler.ts, pull*.ts, connectivity.ts.
import { EventEmitter, setMaxListeners } from 'node:events';
import type { Db } from '../db/open.js';
import { type MessagesRepo, messagesRepo } from '../db/repos/messages.js';
import { type StockRepo, stockRepo } from '../db/repos/stock.js';
import { type Clock, systemClock } from '../service/clock.js';
import { badRequest } from '../service/errors.js';
import type { OperatorStamp } from '../service/operators/operators.js';
import { fileStorage } from '../service/messages/attachments/storage.js';
import { DEFAULT_MEDIATION_SITE } from '../service/messages/messages.js';
import { type Checkpointer, startCheckpointer } from '../db/checkpointer.js';
import { LaneScheduler } from './scheduler.js';
import { Connectivity, reachable } from './connectivity.js';
import { RelaxedWrites } from '../db/relaxed-writes.js';
import { RemoteClient } from './client.js';
import { type RequestBudget, TokenBudget } from './budget.js';
import { type FileStore, MessagePusher } from './message-push.js';
import { type DiscardResult, type EditMeta, Outbox, type QueueResult, type Resolution, type TransferResult, type UndoResult } from './outbox.js';
import { PullError, type PullReport, Puller, type StockReads } from './pull.js';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
import type { Effect } from './settle.js';
import { StockPusher } from './stock-push.js';
import { StockBatcher } from './stock-batch.js';
import { Intents } from './intents.js';
import { NO_KINDS, type OutboxKinds, type Sent, outboxKinds, settleFoundMessages } from './kinds/index.js';
import { type SyncEngineOptions, type SyncEvents, type SyncMode, type SyncStatus, clientOptions, countAll, lastPullAt, loadLanes } from './engine-options.js';
import { Sender } from './sender.js';

export type { SyncEngineOptions, SyncEvents, SyncMode, SyncStatus } from './engine-options.js';

/**
 * The offline-first sync engine: a durable outbox pushed to the remote marketplace, and a pull
 * that keeps the replica's mirror current. It owns the lifecycle (start, stop, mode), the status,
 * the connectivity and the pull; the person's intents are intents.ts, the sending is sender.ts.
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
  private readonly kinds: OutboxKinds | null;
  private readonly puller: Puller | null;
  private modeValue: SyncMode;
  private readonly pollIntervalMs: number;
  private readonly pullOnStart: boolean;

  private running = false;
  private stopped = false;
  private readonly connectivity: Connectivity;
  private readonly lanes: LaneScheduler;
  private readonly sender: Sender;
  private readonly intents: Intents;
  private pollTimer: NodeJS.Timeout | undefined;
  private pulling: Promise<PullReport> | null = null;
  private pullAbort: AbortController | null = null;
  private lastSyncAt: number | null = null;
  private lastError: string | null = null;
  private doneSinceIdle = 0;
  private checkpointer: Checkpointer | null = null;
  private readonly checkpointEveryMs: number | false;
  /** What each limited request spends (budget.ts); the pull and the outbox share it. */
  readonly budget: RequestBudget;

  constructor(options: SyncEngineOptions) {
    super();
    this.db = options.db;
    this.sellerId = options.sellerId;
    this.clock = options.clock ?? systemClock;
    this.outbox = new Outbox(this.db, this.clock);
    this.lanes = new LaneScheduler(this.clock, () => this.sender.schedulePump());
    this.stockData = stockRepo(this.db);
    this.messagesData = messagesRepo(this.db);
    this.writes = new RelaxedWrites(this.db);
    this.files = fileStorage(options.filesDir);
    this.policy = { ...DEFAULT_RETRY, ...(options.retry ?? {}) };
    this.connectivity = new Connectivity(this.policy, this.clock, {
      reach: () => reachable(this.client, this.sellerId, this.policy.probeTimeoutMs),
      silentForMs: () => this.client?.silentForMs() ?? 0,
      active: () => this.running,
      gone: (reason) => this.gone(reason),
      back: () => this.backOnline(),
    });
    this.concurrency = Math.max(1, options.concurrency ?? 8);
    this.random = options.random ?? Math.random;
    this.mediationSite = options.mediationSite ?? DEFAULT_MEDIATION_SITE;
    this.modeValue = options.mode ?? 'online';
    this.pollIntervalMs = options.pollIntervalMs ?? 60_000;
    this.pullOnStart = options.pullOnStart ?? true;
    this.checkpointEveryMs = options.checkpointEveryMs ?? 1000;
    const b = options.budget;
    this.budget = b !== undefined && 'acquire' in b ? b : new TokenBudget({ clock: this.clock, ...(b ? { rates: b } : {}) });
    if (this.modeValue !== 'local-only' || options.baseUrl !== undefined) {
      if (!options.baseUrl || !options.auth) throw new Error('SyncEngine: baseUrl and auth are required unless the mode is local-only');
      const onTransportFailure = (e: Error) => this.connectivity.suspect(e.message);
      // One connection beyond `concurrency`: a first pull's stock readers take `concurrency` (pull-stock.ts), and a push or another read still finds one free.
      this.client = new RemoteClient({
        ...clientOptions(options, options.auth, options.baseUrl, this.concurrency + 1),
        onTransportFailure,
        budget: this.budget,
      });
      const messages = new MessagePusher(this.outbox, this.client, this.writes, this.clock, this.files);
      const stock = new StockPusher(this.outbox, this.client, this.writes, this.clock);
      const batcher = options.batch === false ? null : new StockBatcher(this.outbox, this.client, this.writes, this.clock);
      this.kinds = outboxKinds(this.outbox.repo, stock, messages, batcher);
      this.puller = new Puller(this.outbox, this.client, this.writes, this.clock, {
        sellerId: this.sellerId,
        concurrency: this.concurrency,
        stockBatch: options.stockBatch ?? 5000,
        files: this.files,
        retry: this.policy,
        random: this.random,
        onProgress: (p) => this.emit('pull-progress', p),
        stockPerMinute: () => this.budget.perMinute('stock'),
        onStockRead: (ids) => {
          this.emit('stock-read', ids);
          if (this.listenerCount('progress') > 0) this.emit('progress', this.status());
        },
        onStockReadEnd: (e) => this.stockReadEnded(e),
      });
    } else {
      this.client = null;
      this.kinds = null;
      this.puller = null;
    }
    this.sender = this.newSender();
    this.intents = new Intents({
      db: this.db,
      outbox: this.outbox,
      sellerId: this.sellerId,
      clock: this.clock,
      stockData: this.stockData,
      messagesData: this.messagesData,
      files: this.files,
      mediationSite: this.mediationSite,
      localOnly: () => this.modeValue === 'local-only',
      laneChanged: (lane) => this.sender.laneChanged(lane),
    });
  }

  private newSender(): Sender {
    const kinds = this.kinds;
    return new Sender({
      outbox: this.outbox,
      writes: this.writes,
      lanes: this.lanes,
      // Local-only never sends (canSend is false there), so no kind is ever looked up.
      kinds: kinds ?? NO_KINDS,
      policy: this.policy,
      random: this.random,
      clock: this.clock,
      concurrency: this.concurrency,
      running: () => this.running,
      canSend: () => this.canSend(),
      reachable: () => this.connectivity.verdict(),
      announce: (row, effect) => this.announce(row, effect),
      failed: (e, asLastError) => {
        if (asLastError) this.lastError = e.message;
        this.emit('sync-error', e);
      },
      succeeded: () => {
        this.lastError = null;
      },
      progress: () => {
        if (this.listenerCount('progress') > 0) this.emit('progress', this.status());
      },
      idle: () => {
        if (this.lanes.totals.pending === 0 && this.lanes.totals.in_flight === 0) this.doneSinceIdle = 0;
      },
    });
  }

  get mode(): SyncMode {
    return this.modeValue;
  }

  // ---------------------------------------------------------------- intents (intents.ts): each durable when it returns

  /** "Received 12", "2 damaged": a delta. */
  readonly queueAdjustment = (input: Parameters<Intents['adjustment']>[0]): QueueResult => this.intents.adjustment(input);
  /** "There are 40 on the shelf": an absolute count at the current base. */
  readonly queueCount = (input: Parameters<Intents['count']>[0]): QueueResult => this.intents.count(input);
  /** N units from one store of a product to another: one entry, later one PUT with both stores. */
  readonly queueTransfer = (input: Parameters<Intents['transfer']>[0]): TransferResult => this.intents.transfer(input);
  /** Takes back the author's last edit (outbox-undo.ts). */
  readonly undoLast = (author: string, operator: OperatorStamp | null = null): UndoResult => this.intents.undoLast(author, operator);
  /** Many edits as one intent (a file import): all queued or none (a BatchEditError names the index). */
  readonly queueStockBatch = (edits: Parameters<Intents['stockBatch']>[0]): QueueResult[] => this.intents.stockBatch(edits);
  /** A count session's lines: counts observed earlier at their bases, each sealed, all or none. */
  readonly queueObservedCounts = (edits: Parameters<Intents['observedCounts']>[0]) => this.intents.observedCounts(edits);
  /** An outgoing message, checked as the marketplace checks it; `alsoInTransaction` is written with it. */
  readonly queueMessage = (input: Parameters<Intents['message']>[0], alsoInTransaction?: () => void) => this.intents.message(input, alsoInTransaction);
  readonly resolveConflict = (entryId: number, resolution: Resolution, meta: EditMeta = {}): QueueResult =>
    this.intents.resolveConflict(entryId, resolution, meta);
  readonly retry = (entryId: number): void => this.intents.retry(entryId);
  /** Drops an entry; one of unknown outcome is checked with the marketplace first (model.ts). */
  readonly discard = (entryId: number, meta: EditMeta = {}): DiscardResult => this.intents.discard(entryId, meta);

  /** The local path of an attachment's bytes (downloaded from the remote the first time). */
  async attachmentFile(id: string): Promise<string> {
    if (!this.puller) throw badRequest('No remote in local-only mode');
    return this.puller.attachmentFile(id);
  }

  // ---------------------------------------------------------------- status and lifecycle

  status(): SyncStatus {
    // Before start the scheduler has not loaded the outbox: count in SQLite.
    const totals = this.running ? this.lanes.totals : countAll(this.outbox.repo);
    // Entries held behind a conflict or a failure are not "pending": nothing sends them until the person acts.
    const pending = totals.pending - totals.blocked;
    const inFlight = totals.in_flight;
    return {
      mode: this.modeValue,
      online: this.modeValue === 'online' && this.connectivity.isOnline,
      unreachableSince: this.modeValue === 'online' ? this.connectivity.since : null,
      pending,
      inFlight,
      blocked: totals.blocked,
      conflicts: totals.conflict,
      failed: totals.failed - totals.unknown,
      unknown: totals.unknown,
      lastSyncAt: this.lastSyncAt,
      lastPullAt: lastPullAt(this.outbox.repo),
      lastError: this.lastError,
      progress: { done: this.doneSinceIdle, total: this.doneSinceIdle + pending + inFlight },
      ...this.stockRead(),
    };
  }

  private stockRead(): Pick<SyncStatus, 'stockRead'> {
    const read = this.puller?.stockReadStatus();
    return read ? { stockRead: read } : {};
  }

  /** The products on screen, whose stock a first pull reads first (issue 29). */
  showing(ids: readonly string[]): void {
    this.puller?.setVisible(ids);
  }

  /** A product just scanned or edited: a first pull reads its stock next after those on screen. */
  touched(userProductId: string): void {
    this.puller?.touch(userProductId);
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
    for (const [lane, rows] of loadLanes(this.outbox.repo)) this.lanes.setLane(lane, rows);
    this.files.sweepTemp(now);
    if (this.checkpointEveryMs !== false) this.checkpointer = startCheckpointer(this.db, { everyMs: this.checkpointEveryMs });
    this.connectivity.start();
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
    const reading = this.puller?.stopReading();
    await this.sender.stop();
    await this.pulling?.catch(() => undefined);
    await reading;
    await this.writes.run(() => undefined);
    await this.client?.close();
    await this.checkpointer?.stop();
    this.checkpointer = null;
    this.sender.releaseWaiters();
  }

  setMode(mode: SyncMode): void {
    if (mode === this.modeValue) return;
    if (mode === 'local-only' || this.modeValue === 'local-only') throw badRequest('Switching to or from local-only needs a new engine');
    this.modeValue = mode;
    if (mode === 'online' && this.running) this.goOnlineWork(true);
    if (mode === 'offline') {
      this.sender.releaseAhead();
      if (this.pollTimer) clearTimeout(this.pollTimer);
      this.pollTimer = undefined;
      this.pullAbort?.abort();
      void this.puller?.stopReading();
    }
    this.emit('progress', this.status());
  }

  /** Resolves when nothing is left to push right now (conflicts and failures wait for the user). */
  drain(timeoutMs = 60_000): Promise<void> {
    return this.sender.whenIdle(timeoutMs, () => JSON.stringify(this.status()));
  }

  /** Pulls the remote state into the mirror now, a first pull's stock reads included (rejects when they fail). */
  async pullNow(): Promise<PullReport> {
    const report = await this.pull();
    const read = await this.stockReadDone();
    return read ? { ...report, stock: read } : report;
  }

  /**
   * Pulls now (shared with a pull already running). A first pull's stock reads go on behind it
   * (issue 29: hours at the marketplace's rate) while later pulls bring orders and messages.
   */
  pull(): Promise<PullReport> {
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
        if (e instanceof PullError && e.offline) this.connectivity.lost(e.message);
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

  /** Resolves when a first pull's background stock reads end (pull-stock.ts; at once when none runs). */
  stockReadDone(): Promise<StockReads | null> {
    return this.puller?.stockReadDone() ?? Promise.resolve(null);
  }

  /** The background stock reads ended: a failure is the pull's (the next poll resumes them). */
  private stockReadEnded(e: unknown): void {
    if (this.listenerCount('progress') > 0) this.emit('progress', this.status());
    if (e === null || !this.running || this.modeValue !== 'online') return;
    if (e instanceof PullError && e.offline) this.connectivity.lost(e.message);
    this.lastError = (e as Error).message;
    this.emit('sync-error', e as Error);
  }

  /** Messages of unknown outcome the pull found on the marketplace: delivered (kinds/message.ts). */
  private settleFoundMessages(): void {
    let lanes: string[] = [];
    try {
      lanes = this.writes.runNow(() => settleFoundMessages(this.outbox.repo, this.clock.now()));
    } catch (e) {
      this.emit('sync-error', e as Error);
    }
    for (const lane of lanes) this.sender.laneChanged(lane);
  }

  private goOnlineWork(pull: boolean): void {
    this.sender.schedulePump();
    if (pull) this.backgroundPull();
    this.schedulePoll();
  }

  private backgroundPull(): void {
    if (!this.running || this.modeValue !== 'online' || !this.connectivity.isOnline || !this.puller) return;
    this.pull().catch((e: unknown) => this.emit('sync-error', e as Error));
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

  /** Found unreachable (connectivity.ts): what is out is cut (an unknown outcome, resent under its key later), nothing more goes. */
  private gone(reason: string): void {
    this.sender.releaseAhead();
    this.client?.cut(reason);
    this.lastError = reason;
    this.emit('offline', reason);
  }

  private backOnline(): void {
    this.lastError = null;
    // The remote answers again: what waited out a backoff during the bad spell goes now.
    try {
      this.writes.runNow(() => this.sender.expedite(this.clock.now()));
    } catch (e) {
      this.emit('sync-error', e as Error);
    }
    this.emit('online');
    if (this.modeValue === 'online') this.goOnlineWork(true);
  }

  // ---------------------------------------------------------------- sending (sender.ts)

  private canSend(): boolean {
    return this.running && this.modeValue === 'online' && this.connectivity.isOnline;
  }

  /** Re-evaluates the timers now (a test that moved its clock calls this). */
  wake(): void {
    if (this.budget instanceof TokenBudget) this.budget.tick();
    this.lanes.wake();
    this.sender.schedulePump();
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
        this.connectivity.lost(effect.error);
        return;
      case 'retry':
        this.lastError = effect.error;
        this.emit('retry', { entryId: row.id, status: effect.status, error: effect.error, delayMs: effect.delayMs });
        return;
    }
  }
}

import { setMaxListeners } from 'node:events';
import type { PullReportView } from '../../common/views.js';
import { applyStockSnapshot, type StockSnapshot } from './mirror-writes.js';
import { PullError } from './paging.js';
import { type PullReads, type StepProgress, sleep } from './pull-reads.js';
import { readStock } from './stock-push.js';
import { ReadPace, StockOrder } from './stock-order.js';

/**
 * A pull's stock reads (pull.ts). Each user product's `x-version` is read; a snapshot is written
 * only when it is newer than the mirror's, and a product with a stock request on the wire (outcome
 * unknown) is skipped: its own answer (or its 409 re-read) updates it. Known products are read in a
 * round-robin window of `stockBatch` per pull (cursor in sync_state). Products not read yet (a first
 * pull, or its resume, issue 29) are read behind the pull in the person's order (stock-order.ts: on
 * screen, then scanned or edited, then the rest); each answer is committed within the turn it
 * arrives, so a restart or a SIGKILL reads none of them again. A 429 holds every reader until its
 * Retry-After, and costs no attempt.
 */

/** What a pull's stock reads did: products read, changed, skipped (a request of theirs on the wire). */
export type StockReads = PullReportView['stock'];

/**
 * Mirror writes of a pull go in transactions of this many products (or items): a first pull of
 * 100,000 products never holds the event loop (the screens' calls) for the whole catalogue.
 */
const WRITE_CHUNK = 1000;

export interface StockReadOptions {
  /** Most user products whose stock one pull reads (new products are always read). */
  stockBatch: number;
  /** Products' stock was read for the first time (the status's count moved; their rows changed). */
  onStockRead?: (ids: string[]) => void;
  /** The first pull's background stock reads ended: all read, or stopped by a failure (the next pull resumes them). */
  onStockReadEnd?: (error: unknown) => void;
  /** Stock requests a minute the request budget allows now (budget.ts; Infinity when unlimited). */
  stockPerMinute?: () => number;
}

export class StockReader {
  /** The stock reads of the pull running now, in the person's order (null between pulls). */
  private order: StockOrder | null = null;
  private visible: readonly string[] = [];
  private readonly touched: string[] = [];
  private readonly pace: ReadPace;
  /** Products not read yet and all products of the seller: counted once, then kept as reads are written. */
  private counts: { unread: number; total: number } | null = null;
  /** Until when the remote asked the stock readers to wait (a 429's Retry-After, on the clock). */
  private throttledUntil = 0;
  /**
   * The first pull's stock reads, running behind the pulls (null when none runs): at the
   * marketplace's rate they take hours, and brands, orders and messages must not wait for them.
   * Kept once ended until the next pull, so the pull that started them can report them.
   */
  private reading: { done: Promise<StockReads>; abort: AbortController; running: boolean } | null = null;

  constructor(
    private readonly r: PullReads,
    private readonly options: StockReadOptions,
  ) {
    this.pace = new ReadPace(() => this.r.clock.now());
  }

  /** Whether the first pull's reads are running behind the pulls. */
  get running(): boolean {
    return this.reading?.running === true;
  }

  /**
   * The pull's stock step. Products not read yet (a first pull, or its resume): read in the
   * background in the person's order, while brands, orders and messages are pulled now and on
   * every poll after. While a first pull is unfinished, what it read is fresh: the known
   * products' round-robin window waits until none is unread (a resume reads only what is left).
   */
  async pull(signal?: AbortSignal): Promise<StockReads> {
    const me = this.r.options.sellerId;
    let stock: StockReads = { read: 0, changed: 0, skipped: 0 };
    if (this.reading && !this.reading.running) this.reading = null;
    if (!this.reading) {
      const unread = this.r.outbox.mirror.unreadProductIds(me, '', Number.MAX_SAFE_INTEGER);
      if (unread.length > 0) {
        this.readInBackground(unread);
        // New listings found by a pull planned with the stock step: the step has nothing of its own to wait for.
        if (this.r.plan.includes('stock')) this.r.step('stock').finish();
      } else stock = await this.readKnown(this.stockWindow(this.r.outbox.mirror.productIdsOf(me)), signal);
    }
    return stock;
  }

  /** The products on screen: their stock is read first (issue 29). */
  setVisible(ids: readonly string[]): void {
    this.visible = ids;
    this.order?.setVisible(ids);
  }

  /** A product just scanned or edited: read after those on screen, before the rest. */
  touch(id: string): void {
    this.touched.unshift(id);
    this.touched.length = Math.min(this.touched.length, 100);
    this.order?.touch(id);
  }

  /** How far the first pull's stock reads are (absent when every product is read). */
  stockReadStatus(): { read: number; total: number; perMinute: number | null; leftMs: number | null } | undefined {
    this.counts ??= {
      unread: this.r.outbox.mirror.unreadCount(this.r.options.sellerId),
      total: this.r.outbox.mirror.productIdsOf(this.r.options.sellerId).length,
    };
    const { unread, total } = this.counts;
    if (unread === 0) return undefined;
    // At the budget's rate, or at the pace measured over the last minute when the pushes leave the reads less.
    const allowed = this.options.stockPerMinute?.() ?? Infinity;
    const measured = this.pace.perMinute();
    const perMinute = Number.isFinite(allowed) ? Math.min(allowed, measured ?? allowed) : measured;
    return { read: total - unread, total, perMinute, leftMs: perMinute ? Math.round((unread / perMinute) * 60_000) : null };
  }

  /** Counts again after the listings changed what is known. */
  recount(): void {
    const me = this.r.options.sellerId;
    const unread = this.r.outbox.mirror.unreadCount(me);
    this.counts = { unread, total: unread + this.r.outbox.mirror.productIdsOf(me).length };
  }

  /** Reads and applies the stock of user products; returns how many changed. */
  refreshStock(ids: string[], signal?: AbortSignal, progress?: StepProgress): Promise<{ read: number; changed: number; skipped: number }> {
    return this.readInOrder(new StockOrder(ids), signal, progress);
  }

  /**
   * Reads the stock of `order`'s products, `concurrency` at a time, each taken when a reader is
   * free (so a product put first while the pull runs is read next). Answers are written within
   * the turn they arrive (one transaction for all that arrived in it): a kill loses only reads
   * still on the wire.
   */
  private async readInOrder(order: StockOrder, signal?: AbortSignal, progress?: StepProgress, readers = this.r.options.concurrency): Promise<StockReads> {
    progress?.setTotal(order.size);
    let changed = 0;
    let skipped = 0;
    let failed = false;
    let arrived: { id: string; snap: StockSnapshot }[] = [];
    let flushing = false;
    const write = () => {
      flushing = false;
      const chunk = arrived;
      arrived = [];
      if (chunk.length === 0 || failed) return;
      const nowRead: string[] = [];
      this.r.writes.runNow(() => {
        const wire = this.r.outbox.repo.productsOnTheWire();
        for (const { id, snap } of chunk) {
          const before = this.r.outbox.mirror.product(id);
          if (wire.has(id)) skipped++;
          else if (applyStockSnapshot(this.r.outbox, this.r.clock, id, snap)) {
            changed++;
            if (before && !before.stockRead) nowRead.push(id);
          }
        }
      });
      if (this.counts && nowRead.length > 0) this.counts.unread = Math.max(0, this.counts.unread - nowRead.length);
      if (nowRead.length > 0) this.options.onStockRead?.(nowRead);
    };
    const arrive = (id: string, snap: StockSnapshot) => {
      arrived.push({ id, snap });
      if (arrived.length >= WRITE_CHUNK) write();
      else if (!flushing) {
        flushing = true;
        setImmediate(write);
      }
    };
    const readOne = async (id: string) => {
      for (let attempt = 1; ;) {
        await this.waitThrottle(signal);
        const s = await readStock(this.r.client, id, () => this.r.clock.now(), signal);
        if ('locations' in s) {
          this.pace.read();
          progress?.add();
          arrive(id, s);
          return;
        }
        if (s.type !== 'retry') {
          progress?.add();
          return;
        }
        // The rate limit: every reader waits for the marketplace's word, and no attempt is spent.
        if (s.status === 429 && !signal?.aborted) {
          this.throttledUntil = Math.max(this.throttledUntil, this.r.clock.now() + (s.retryAfterMs ?? 1000));
          continue;
        }
        if (!s.offline && (await this.r.pause(attempt++, s.retryAfterMs, signal))) continue;
        throw new PullError(`GET stock of ${id}: ${s.error}`, s.offline, s.status);
      }
    };
    this.pace.start();
    const worker = async () => {
      for (let id = order.take(); id !== undefined && !failed; id = order.take()) await readOne(id);
    };
    try {
      await Promise.all(Array.from({ length: Math.max(1, Math.min(readers, order.size)) }, worker));
    } catch (e) {
      // Reads still on the wire when one failed for good write nothing more.
      write();
      failed = true;
      throw e;
    }
    write();
    return { read: order.size, changed, skipped };
  }

  /** The known products' window, in the person's order, within the pull. */
  private async readKnown(ids: string[], signal?: AbortSignal): Promise<StockReads> {
    const order = this.personsOrder(ids);
    // Planned behind but nothing is left unread (the reads ended meanwhile): read without a step.
    const step = this.r.plan.includes('stock') ? this.r.step('stock') : undefined;
    try {
      return await this.readInOrder(order, signal, step);
    } finally {
      this.order = null;
      step?.finish();
    }
  }

  private personsOrder(ids: string[]): StockOrder {
    const order = new StockOrder(ids);
    for (const id of [...this.touched].reverse()) order.touch(id);
    this.touched.length = 0;
    order.setVisible(this.visible);
    this.order = order;
    return order;
  }

  /**
   * Starts the first pull's stock reads behind the pull (issue 29), a reader per connection of
   * `concurrency`: the client's pool has one connection more (engine.ts), so a pull's other
   * requests and the pushes always find one free.
   */
  private readInBackground(ids: string[]): void {
    const abort = new AbortController();
    setMaxListeners(0, abort.signal);
    const order = this.personsOrder(ids);
    const done = this.readInOrder(order, abort.signal, undefined, this.r.options.concurrency);
    const reading = { done, abort, running: true };
    this.reading = reading;
    done.then(
      () => this.options.onStockReadEnd?.(null),
      (e: unknown) => this.options.onStockReadEnd?.(e),
    );
    void done
      .catch(() => undefined)
      .finally(() => {
        reading.running = false;
        if (this.order === order) this.order = null;
      });
  }

  /** Resolves when the first pull's background stock reads are done, rejects when they failed (at once when none runs). */
  stockReadDone(): Promise<StockReads | null> {
    return this.reading?.done ?? Promise.resolve(null);
  }

  /** Stops the background stock reads (what was read is kept; the next pull resumes the rest). */
  stopReading(): Promise<void> {
    this.reading?.abort.abort();
    return this.stockReadDone().then(
      () => undefined,
      () => undefined,
    );
  }

  /** Waits out a 429's Retry-After (shared by every reader). */
  private async waitThrottle(signal?: AbortSignal): Promise<void> {
    const wait = this.throttledUntil - this.r.clock.now();
    if (wait > 0) await sleep(wait, signal);
    if (signal?.aborted) throw new PullError('The pull was stopped', false, null);
  }

  /** The next `stockBatch` known products, round robin (the cursor is the last id read). */
  private stockWindow(known: string[]): string[] {
    const batch = this.options.stockBatch;
    if (known.length <= batch) return known;
    const cursor = this.r.outbox.repo.getState('stock_cursor') ?? '';
    let start = known.findIndex((id) => id > cursor);
    if (start < 0) start = 0;
    const window = known.slice(start, start + batch);
    if (window.length < batch) window.push(...known.slice(0, batch - window.length));
    this.r.outbox.repo.setState('stock_cursor', window.at(-1) ?? '');
    return window;
  }
}

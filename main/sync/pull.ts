// Over 400 lines on purpose: one pull reads every area of the remote it mirrors (stores, items,
// stock, brands, orders) in one ordered pass with shared progress phases, one answer schema per
// page and the same batched writes; splitting the phases would scatter that order.
import { z } from 'zod';
import { PULL_PHASES, type PullPhase, type PullProgressView, type PullReportView } from '../../common/views.js';
import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { type AttachmentRef, type DownloadLimits, downloadAttachment } from './attachment-download.js';
import { DEFAULT_LISTING_LIMITS, type ListingLimits, Pager, PullError, checkTotal } from './paging.js';
import type { Writes } from '../db/relaxed-writes.js';
import { brandsRepo } from '../db/repos/brands.js';
import { ordersRepo } from '../db/repos/orders.js';
import type { MirrorItem, RemoteLocation } from '../db/repos/mirror.js';
import type { BrandListEntry } from '../service/brands/brands.js';
import type { Clock } from '../service/clock.js';
import { ServiceError } from '../service/errors.js';
import type { MessageView } from '../service/messages/views.js';
import type { Store } from '../service/stock/stores.js';
import { type RemoteClient, RemoteError, type RemoteResponse, TOO_LARGE, classifyStatus, parseRetryAfter, serverMessage } from './client.js';
import type { FileStore } from '../service/messages/attachments/storage.js';
import type { Outbox } from './outbox.js';
import {
  BadAnswerError,
  brandDetail,
  brandsAnswer,
  itemAnswer,
  itemIdsPage,
  messageAnswer,
  messagesPage,
  type orderAnswer,
  ordersPage,
  parseAnswer,
  storesPage,
  userAnswer,
} from './remote-answers.js';
import { type RetryPolicy, backoffDelay } from './retry.js';
import { type StockSnapshot, applyStockSnapshot, writeMessage } from './mirror-writes.js';
import { readStock } from './stock-push.js';
import { ReadPace, StockOrder } from './stock-order.js';

/**
 * Pull: fetches the remote state and merges it into the MIRROR (the service tables of the
 * replica). It never touches the outbox, so pending edits survive any pull untouched; the grid
 * shows mirror + pending intents (read-model.ts).
 *
 * How the app learns what changed (the API has no change feed or events, SPEC 6): it polls.
 * - Stock: each user product's `x-version`. A snapshot is written only when its version is newer
 *   than the mirror's; an unchanged product costs one GET and no write. A product with a stock
 *   request on the wire (outcome unknown) is skipped: its own answer (or its 409 re-read) updates
 *   it. A pass reads at most `stockBatch` products (round robin over the catalogue, cursor kept in
 *   sync_state), so a 100,000-product catalogue is covered over several polls; new products are
 *   always read.
 * - Items: the seller's item ids (GET /users/{id}/items/search); only ids not yet in the mirror
 *   are read, 20 at a time (GET /items?ids=) where the remote offers it, else one by one
 *   (GET /items/{id}). Each page is written at once with its user product marked "stock not read"
 *   (migration 029), so the grid shows the rows before any stock is read (issue 29).
 * - First pull (issue 29): the products not read yet are read in the background, in the person's
 *   order (stock-order.ts: on screen, then scanned or edited, then the rest), while the pull goes
 *   on to brands, orders and messages and later polls pull those again; each answer is committed
 *   within the turn it arrives, so a restart or a SIGKILL reads none of them again. A 429 holds
 *   every reader until its Retry-After, and costs no attempt.
 * - Stores, user, brands (list + detail), orders (GET /orders/search?seller=): read whole, they are small.
 * - Messages: each conversation newest first (mark_as_read=false, so pulling never marks anything
 *   read on the remote); paging stops at the first page with nothing new or changed. A message
 *   from the buyer that was not in the mirror is reported as new.
 * - Attachment files: metadata only; bytes are fetched on demand (attachmentFile).
 */

/** What a pull's stock reads did: products read, changed, skipped (a request of theirs on the wire). */
export type StockReads = PullReportView['stock'];

/** What a pull did (the contract's shape) and the buyers' messages it brought (for notifications). */
export type PullReport = PullReportView & { incoming: MessageView[] };

/**
 * An item with the codes a barcode scan finds it by (issue 14 §2): its inventory id, its GTIN and
 * SELLER_SKU attributes and its seller_custom_field. Odd attributes never fail a pull: they are
 * then left out.
 */
const itemWithCodes = itemAnswer.extend({
  inventory_id: z.string().nullable().optional().catch(null),
  attributes: z
    .array(z.looseObject({ id: z.string(), value_name: z.string().nullable().optional() }))
    .optional()
    .catch(undefined),
  seller_custom_field: z.string().nullable().optional().catch(null),
  // What the order panel shows for the item (conversation-orders.ts reads the first https one).
  pictures: z
    .array(z.object({ url: z.string().nullable().optional().catch(null), secure_url: z.string().nullable().optional().catch(null) }))
    .max(50)
    .optional()
    .catch(undefined),
  // The facts behind the selling-address locks (SPEC 7.3), so the grid locks a cell before an edit.
  // Known: fulfillment, cross_docking, self_service; another one is kept as sent (no lock is derived from it).
  shipping: z
    .object({ logistic_type: z.string().min(1).max(100), local_delivery: z.boolean().optional() })
    .optional()
    .catch(undefined),
});

/** GET /items?ids= (the marketplace's multi-get): one entry per id asked, its status and its body. */
const itemsPage = z.array(z.object({ code: z.number().int(), body: z.unknown() })).max(20);

/** Ids per multi-get (the marketplace's largest). */
const MULTI_GET = 20;

/** An item as the remote answered it, as the mirror stores it. */
function mirrorItem(i: z.infer<typeof itemWithCodes>): MirrorItem {
  return {
    id: i.id,
    site_id: i.site_id,
    title: i.title,
    seller_id: i.seller_id,
    category_id: i.category_id,
    user_product_id: i.user_product_id,
    price: i.price,
    base_price: i.base_price,
    currency_id: i.currency_id,
    listing_type_id: i.listing_type_id,
    channels: JSON.stringify(i.channels),
    official_store_id: i.official_store_id ?? null,
    available_quantity: i.available_quantity ?? null,
    inventory_id: i.inventory_id ?? null,
    logistic_type: i.shipping?.logistic_type ?? 'unknown',
    local_delivery: i.shipping?.local_delivery ? 1 : 0,
    attributes: JSON.stringify({
      ...(i.attributes ? { attributes: i.attributes } : {}),
      ...(typeof i.seller_custom_field === 'string' ? { seller_custom_field: i.seller_custom_field } : {}),
      ...(i.pictures && i.pictures.length > 0 ? { pictures: i.pictures } : {}),
    }),
    date_created: i.date_created,
  };
}

/**
 * Set once every item of the mirror was read with its codes and shipping: a replica made before
 * they were mirrored reads each item again once (only new items are read otherwise). The key
 * changed when shipping joined the codes, so such a replica reads its items once more.
 */
const ITEM_CODES_READ = 'item_facts_read';

/** The item search's largest page (100). */
const ITEM_PAGE = 100;

export { PullError };

/**
 * Runs `fn` over `items` with at most `limit` at a time, in order of start. The first failure
 * rejects, and no item starts after it (a pull that failed does not go on reading the catalogue).
 */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length || failed) return;
      try {
        out[i] = await fn(items[i]!);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Mirror writes of a pull go in transactions of this many products (or items): a first pull of
 * 100,000 products never holds the event loop (the screens' calls) for the whole catalogue.
 */
const WRITE_CHUNK = 1000;

export interface PullerOptions {
  sellerId: number;
  concurrency: number;
  /** Most user products whose stock one pull reads (new products are always read). */
  stockBatch: number;
  files: FileStore;
  /** Backoff between the attempts of one GET (reads are safe to repeat). */
  retry: RetryPolicy;
  /** Attempts of one GET before the pull gives up (default 5). */
  getAttempts?: number;
  random?: () => number;
  /** How far a pull is: at each step's start and end, and about every 1% of a step in between. */
  onProgress?: (progress: PullProgressView) => void;
  /** The most entries a pull reads of each listing (paging.ts; defaults far above a real seller). */
  listingLimits?: Partial<ListingLimits>;
  /** Attachment downloads: the largest file and the deadline (defaults: 25 MB, the client's). */
  downloads?: DownloadLimits;
  /** Products' stock was read for the first time (the status's count moved; their rows changed). */
  onStockRead?: (ids: string[]) => void;
  /** The first pull's background stock reads ended: all read, or stopped by a failure (the next pull resumes them). */
  onStockReadEnd?: (error: unknown) => void;
  /** Stock requests a minute the request budget allows now (budget.ts; Infinity when unlimited). */
  stockPerMinute?: () => number;
}

/** Counts one step of a pull and tells its progress, at most once per percent (a 100,000-product catalogue is 100 events, not 100,000). */
class StepProgress {
  private done = 0;
  private total = 0;
  private told = -1;

  constructor(
    private readonly phase: PullPhase,
    private readonly plan: readonly PullPhase[],
    private readonly tell: ((p: PullProgressView) => void) | undefined,
  ) {
    this.emit(true);
  }

  setTotal(total: number): void {
    if (total === this.total) return;
    this.total = total;
    this.emit(true);
  }

  add(n = 1): void {
    this.done += n;
    this.emit(this.done >= this.total);
  }

  finish(): void {
    this.total = Math.max(this.total, this.done);
    this.done = this.total;
    this.emit(true);
  }

  private emit(always: boolean): void {
    if (!this.tell) return;
    const percent = this.total === 0 ? 0 : Math.floor((this.done * 100) / this.total);
    if (!always && percent === this.told) return;
    this.told = percent;
    this.tell({ phase: this.phase, step: this.plan.indexOf(this.phase) + 1, steps: this.plan.length, done: this.done, total: this.total });
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

export class Puller {
  /** The stock reads of the pull running now, in the person's order (null between pulls). */
  private order: StockOrder | null = null;
  private visible: readonly string[] = [];
  private readonly touched: string[] = [];
  private readonly pace: ReadPace;
  /** The steps the running pull tells (planSteps). */
  private plan: readonly PullPhase[] = PULL_PHASES;
  /** Products not read yet and all products of the seller: counted once, then kept as reads are written. */
  private counts: { unread: number; total: number } | null = null;
  /** Until when the remote asked the stock readers to wait (a 429's Retry-After, on the clock). */
  private throttledUntil = 0;
  /** Whether the remote answers GET /items?ids=; null until asked. */
  private multiGet: boolean | null = null;
  /**
   * The first pull's stock reads, running behind the pulls (null when none runs): at the
   * marketplace's rate they take hours, and brands, orders and messages must not wait for them.
   * Kept once ended until the next pull, so the pull that started them can report them.
   */
  private reading: { done: Promise<StockReads>; abort: AbortController; running: boolean } | null = null;

  constructor(
    private readonly outbox: Outbox,
    private readonly client: RemoteClient,
    private readonly writes: Writes,
    private readonly clock: Clock,
    private readonly options: PullerOptions,
  ) {
    this.pace = new ReadPace(() => this.clock.now());
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
    this.counts ??= { unread: this.outbox.mirror.unreadCount(this.options.sellerId), total: this.outbox.mirror.productIdsOf(this.options.sellerId).length };
    const { unread, total } = this.counts;
    if (unread === 0) return undefined;
    // At the budget's rate, or at the pace measured over the last minute when the pushes leave the reads less.
    const allowed = this.options.stockPerMinute?.() ?? Infinity;
    const measured = this.pace.perMinute();
    const perMinute = Number.isFinite(allowed) ? Math.min(allowed, measured ?? allowed) : measured;
    return { read: total - unread, total, perMinute, leftMs: perMinute ? Math.round((unread / perMinute) * 60_000) : null };
  }

  /** Counts again after the listings changed what is known. */
  private recount(): void {
    const me = this.options.sellerId;
    const unread = this.outbox.mirror.unreadCount(me);
    this.counts = { unread, total: unread + this.outbox.mirror.productIdsOf(me).length };
  }

  /** Waits before attempt `attempt + 1` of a read; false when the pull should give up. */
  private async pause(attempt: number, retryAfterMs: number | undefined, signal?: AbortSignal): Promise<boolean> {
    if (attempt >= (this.options.getAttempts ?? 5) || signal?.aborted) return false;
    await sleep(backoffDelay(attempt, this.options.retry, this.options.random, retryAfterMs), signal);
    return !signal?.aborted;
  }

  /** A GET, repeated on transient failures (reads are safe to repeat); offline ends the pull at once. */
  private async get(path: string, query: Record<string, string | number | undefined> = {}, signal?: AbortSignal): Promise<RemoteResponse> {
    for (let attempt = 1; ; attempt++) {
      let res: RemoteResponse;
      try {
        res = await this.client.request('GET', path, { query, ...(signal ? { signal } : {}) });
      } catch (e) {
        if (!(e instanceof RemoteError)) throw e;
        // An answer over the size cap will be as large again: not worth another attempt.
        if (e.kind === 'transient' && e.code !== TOO_LARGE && (await this.pause(attempt, undefined, signal))) continue;
        throw new PullError(`GET ${path}: ${e.message}`, e.kind === 'offline', null);
      }
      if (classifyStatus(res.status) === 'transient' && (await this.pause(attempt, parseRetryAfter(res.headers['retry-after'], this.clock.now()), signal)))
        continue;
      return res;
    }
  }

  /** A 200 answer parsed with `schema`; anything else ends the pull before it writes what it read. */
  private async getOk<S extends z.ZodType>(
    path: string,
    schema: S,
    query: Record<string, string | number | undefined> = {},
    signal?: AbortSignal,
  ): Promise<z.infer<S>> {
    const res = await this.get(path, query, signal);
    if (res.status === 200 && res.body === null) throw new PullError(`GET ${path}: the marketplace's answer is not JSON (empty, cut or malformed)`, false, 200);
    if (res.status !== 200) throw new PullError(`GET ${path}: ${serverMessage(res)}`, false, res.status);
    return this.parse(schema, res.body, path);
  }

  private parse<S extends z.ZodType>(schema: S, body: unknown, path: string): z.infer<S> {
    try {
      return parseAnswer(schema, body, `GET ${path}`);
    } catch (e) {
      if (e instanceof BadAnswerError) throw new PullError(e.message, false, 200);
      throw e;
    }
  }

  /** Makes sure users exist in the mirror (foreign keys of orders, messages, brand links). */
  private async ensureUsers(ids: number[], signal?: AbortSignal): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.outbox.mirror.userExists(id));
    const users = await mapLimit(missing, this.options.concurrency, (id) => this.getOk(`/users/${id}`, userAnswer, {}, signal));
    if (users.length > 0) await this.writes.run(() => users.forEach((u) => this.outbox.mirror.upsertUser(u)));
  }

  private step(phase: PullPhase): StepProgress {
    return new StepProgress(phase, this.plan, this.options.onProgress);
  }

  /**
   * The steps this pull tells, fixed at its start so the count never changes under the person:
   * while products are unread (a first pull, its resume) their stock is read behind the pull and
   * shown as the status's `stockRead` ("Stock read for n of m"), not as a step the pull waits for.
   */
  private planSteps(): readonly PullPhase[] {
    const behind =
      this.reading?.running === true || this.outbox.repo.getState('last_pull_at') === undefined || this.outbox.mirror.unreadCount(this.options.sellerId) > 0;
    return behind ? PULL_PHASES.filter((p) => p !== 'stock') : PULL_PHASES;
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
  private async readInOrder(order: StockOrder, signal?: AbortSignal, progress?: StepProgress, readers = this.options.concurrency): Promise<StockReads> {
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
      this.writes.runNow(() => {
        const wire = this.outbox.repo.productsOnTheWire();
        for (const { id, snap } of chunk) {
          const before = this.outbox.mirror.product(id);
          if (wire.has(id)) skipped++;
          else if (applyStockSnapshot(this.outbox, this.clock, id, snap)) {
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
        const s = await readStock(this.client, id, () => this.clock.now(), signal);
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
          this.throttledUntil = Math.max(this.throttledUntil, this.clock.now() + (s.retryAfterMs ?? 1000));
          continue;
        }
        if (!s.offline && (await this.pause(attempt++, s.retryAfterMs, signal))) continue;
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
    const step = this.plan.includes('stock') ? this.step('stock') : undefined;
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
   * Starts the first pull's stock reads behind the pull (issue 29). One reader fewer than the
   * connections, so a pull's other requests and the pushes always find one free.
   */
  private readInBackground(ids: string[]): void {
    const abort = new AbortController();
    setMaxListeners(0, abort.signal);
    const order = this.personsOrder(ids);
    const readers = Math.max(1, this.options.concurrency - 1);
    const done = this.readInOrder(order, abort.signal, undefined, readers);
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
    const wait = this.throttledUntil - this.clock.now();
    if (wait > 0) await sleep(wait, signal);
    if (signal?.aborted) throw new PullError('The pull was stopped', false, null);
  }

  async pull(signal?: AbortSignal): Promise<PullReport> {
    const started = this.clock.now();
    const me = this.options.sellerId;
    this.plan = this.planSteps();
    const account = this.step('account');
    account.setTotal(1);
    const user = await this.getOk(`/users/${me}`, userAnswer, {}, signal);
    await this.writes.run(() => this.outbox.mirror.upsertUser(user));
    account.finish();

    // Stores (paged by 50).
    const storesStep = this.step('stores');
    const stores: Store[] = [];
    const storePages = new Pager(`GET /users/${me}/stores/search`, this.limits.stores, 50);
    for (let offset: number | null = 0; offset !== null;) {
      const page = await this.getOk(`/users/${me}/stores/search`, storesPage, { limit: 50, offset }, signal);
      offset = storePages.next(page.paging.total, page.results.length);
      stores.push(...page.results);
      storesStep.setTotal(Math.max(page.paging.total, stores.length));
      storesStep.add(page.results.length);
    }
    storesStep.finish();
    await this.writes.run(() => {
      for (const s of stores) this.outbox.mirror.upsertStore(s);
      this.outbox.mirror.deleteStoresExcept(
        String(me),
        stores.map((s) => s.id),
      );
    });

    // Items: ids, then the unknown ones, each page written as it comes with its user product
    // listed as not read yet: the grid has rows before any stock is read (issue 29).
    // Each page of ids is read as it arrives, not after the whole listing (1,000 pages for 100,000
    // products): the grid's first rows are there in a second, not a minute.
    const itemsStep = this.step('items');
    const codesRead = this.outbox.repo.getState(ITEM_CODES_READ) !== undefined;
    let fetched = 0;
    const itemIds = await this.itemIds(signal, async (ids, total) => {
      itemsStep.setTotal(total);
      const unknown = codesRead ? ids.filter((id) => !this.outbox.mirror.itemExists(id)) : ids;
      itemsStep.add(ids.length - unknown.length);
      for (let from = 0; from < unknown.length; from += MULTI_GET) {
        const chunk = unknown.slice(from, from + MULTI_GET);
        const items = await this.readItems(chunk, signal);
        this.writes.runNow(() => this.writeItems(items));
        fetched += items.length;
        itemsStep.add(chunk.length);
      }
    });
    itemsStep.finish();
    await this.writes.run(() => this.outbox.repo.setState(ITEM_CODES_READ, '1'));
    this.recount();

    // Stock. Products not read yet (a first pull, or its resume): read in the background in the
    // person's order, while brands, orders and messages are pulled now and on every poll after.
    // While a first pull is unfinished, what it read is fresh: the known products' round-robin
    // window waits until none is unread (a resume reads only what is left).
    let stock: StockReads = { read: 0, changed: 0, skipped: 0 };
    if (this.reading && !this.reading.running) this.reading = null;
    if (!this.reading) {
      const unread = this.outbox.mirror.unreadProductIds(me, '', Number.MAX_SAFE_INTEGER);
      if (unread.length > 0) {
        this.readInBackground(unread);
        // New listings found by a pull planned with the stock step: the step has nothing of its own to wait for.
        if (this.plan.includes('stock')) this.step('stock').finish();
      } else stock = await this.readKnown(this.stockWindow(this.outbox.mirror.productIdsOf(me)), signal);
    }

    const brands = await this.pullBrands(signal);
    const orders = await this.pullOrders(signal);
    const messages = await this.pullMessages(signal);
    await this.writes.run(() => this.outbox.repo.setState('last_pull_at', String(this.clock.now())));
    return {
      stores: stores.length,
      items: { total: itemIds.length, fetched },
      stock,
      brands,
      orders,
      messages: { new: messages.new, updated: messages.updated },
      incoming: messages.incoming,
      durationMs: this.clock.now() - started,
    };
  }

  /**
   * The seller's item ids: a first page for the total and the page size, then the other pages
   * `concurrency` at a time (in their order), each handed to `onPage` as it arrives (the next
   * page of a reader waits for it).
   */
  private async itemIds(signal: AbortSignal | undefined, onPage: (ids: string[], total: number) => Promise<void>): Promise<string[]> {
    const path = `/users/${this.options.sellerId}/items/search`;
    const page = async (offset: number) => {
      const p = await this.getOk(path, itemIdsPage, { limit: ITEM_PAGE, offset }, signal);
      if (p.results.length > ITEM_PAGE) throw new PullError(`GET ${path}: a page of ${p.results.length} ids, more than the ${ITEM_PAGE} asked for`, false, 200);
      return p;
    };
    const first = await page(0);
    // The offsets are sized from the announced total: held to the ceiling before any is made.
    const total = checkTotal(`GET ${path}`, first.paging.total, this.limits.items);
    const size = first.results.length;
    const offsets: number[] = [];
    for (let offset = size; size > 0 && offset < total; offset += size) offsets.push(offset);
    const [, pages] = await Promise.all([
      onPage(first.results, total),
      mapLimit(offsets, this.options.concurrency, async (offset) => {
        const p = await page(offset);
        await onPage(p.results, total);
        return p;
      }),
    ]);
    return [first, ...pages].flatMap((p) => p.results);
  }

  private get limits(): ListingLimits {
    return { ...DEFAULT_LISTING_LIMITS, ...this.options.listingLimits };
  }

  /** Items, each with its user product (listed as not read yet when new; call inside a transaction). */
  private writeItems(items: MirrorItem[]): void {
    for (const i of items) {
      this.outbox.mirror.listProduct(i.user_product_id, this.options.sellerId);
      this.outbox.mirror.upsertItem(i);
    }
  }

  /**
   * Items by id: one GET /items?ids= for up to 20 where the remote offers it (a 400, 404 or 405
   * to the first one says it does not: then one GET /items/{id} each). An id the multi-get
   * answers with 404 is left out (the item went away between the search and the read).
   */
  private async readItems(ids: string[], signal?: AbortSignal): Promise<MirrorItem[]> {
    if (this.multiGet !== false) {
      const res = await this.get('/items', { ids: ids.join(',') }, signal);
      if (res.status === 200 && res.body !== null) {
        this.multiGet = true;
        const entries = this.parse(itemsPage, res.body, '/items?ids=');
        return entries.flatMap((e) => (e.code === 200 ? [mirrorItem(this.parse(itemWithCodes, e.body, '/items?ids='))] : []));
      }
      // Pages asked at the same time all learn it from their own answer.
      if (this.multiGet !== true && [400, 404, 405].includes(res.status)) this.multiGet = false;
      else throw new PullError(`GET /items?ids=: ${serverMessage(res)}`, false, res.status);
    }
    return mapLimit(ids, 1, async (id) => mirrorItem(await this.getOk(`/items/${encodeURIComponent(id)}`, itemWithCodes, {}, signal)));
  }

  /** The next `stockBatch` known products, round robin (the cursor is the last id read). */
  private stockWindow(known: string[]): string[] {
    const batch = this.options.stockBatch;
    if (known.length <= batch) return known;
    const cursor = this.outbox.repo.getState('stock_cursor') ?? '';
    let start = known.findIndex((id) => id > cursor);
    if (start < 0) start = 0;
    const window = known.slice(start, start + batch);
    if (window.length < batch) window.push(...known.slice(0, batch - window.length));
    this.outbox.repo.setState('stock_cursor', window.at(-1) ?? '');
    return window;
  }

  private async pullBrands(signal?: AbortSignal): Promise<number> {
    const me = this.options.sellerId;
    const progress = this.step('brands');
    const res = await this.get(`/users/${me}/brands`, {}, signal);
    let list: BrandListEntry[] = [];
    // 404 (B00001): the seller has no brands.
    if (res.status === 200) list = this.parse(brandsAnswer, res.body, `/users/${me}/brands`).brands;
    else if (res.status !== 404) throw new PullError(`GET /users/${me}/brands: ${serverMessage(res)}`, false, res.status);
    progress.setTotal(list.length);
    const details = await mapLimit(list, this.options.concurrency, async (b) => {
      const d = await this.getOk(`/users/${me}/brands/${b.official_store_id}`, brandDetail, {}, signal);
      progress.add();
      return d;
    });
    await this.ensureUsers(
      details.flatMap((d) => d.users.map((u) => u.cust_id)),
      signal,
    );
    const repo = brandsRepo(this.outbox.db);
    await this.writes.run(() => {
      this.outbox.mirror.deleteBrandsOf(me);
      list.forEach((b, i) => {
        const d = details[i]!;
        this.outbox.mirror.deleteBrand(b.official_store_id);
        repo.insert({ ...b, boost: d.boost.last_update === null ? null : { is_active: d.boost.is_active, last_update: d.boost.last_update }, users: d.users });
      });
    });
    progress.finish();
    return list.length;
  }

  private async pullOrders(signal?: AbortSignal): Promise<number> {
    const me = this.options.sellerId;
    const progress = this.step('orders');
    const orders: z.infer<typeof orderAnswer>[] = [];
    const pager = new Pager('GET /orders/search', this.limits.orders, 100);
    for (let offset: number | null = 0; offset !== null;) {
      const page = await this.getOk('/orders/search', ordersPage, { seller: me, limit: 100, offset }, signal);
      offset = pager.next(page.paging.total, page.results.length);
      orders.push(...page.results);
      progress.setTotal(Math.max(page.paging.total, orders.length));
      progress.add(page.results.length);
    }
    await this.ensureUsers(
      orders.map((o) => o.buyer.id),
      signal,
    );
    const details = ordersRepo(this.outbox.db);
    await this.writes.run(() => {
      for (const o of orders) {
        this.outbox.mirror.upsertOrder({
          id: o.id,
          pack_id: o.pack_id,
          seller_id: o.seller.id,
          buyer_id: o.buyer.id,
          site_id: o.site_id,
          status: o.status,
          logistic_type: o.logistic_type,
          delivered: o.delivered ? 1 : 0,
          mediation_in_process: o.mediation_in_process ? 1 : 0,
          status_date: o.status_date,
        });
        // What the order says (issue 15 §1): the inbox's order panel reads it from the mirror.
        details.writeDetails(
          { id: o.id, date_created: o.date_created, total_amount: o.total_amount, currency_id: o.currency_id, shipping_id: o.shipping.id },
          o.order_items.map((l) => ({ item_id: l.item.id, title: l.item.title, quantity: l.quantity, unit_price: l.unit_price, currency_id: l.currency_id })),
        );
      }
    });
    progress.finish();
    return orders.length;
  }

  private async pullMessages(signal?: AbortSignal): Promise<{ new: number; updated: number; incoming: MessageView[] }> {
    const me = this.options.sellerId;
    const packs = this.outbox.mirror.packKeysOf(me);
    const progress = this.step('messages');
    progress.setTotal(packs.length);
    const incoming: MessageView[] = [];
    let created = 0;
    let updated = 0;
    await mapLimit(packs, this.options.concurrency, async (pack) => {
      const path = `/messages/packs/${pack}/sellers/${me}`;
      const pager = new Pager(`GET ${path}`, this.limits.messages, 100);
      for (let offset = 0; ;) {
        const page = await this.getOk(path, messagesPage, { mark_as_read: 'false', limit: 100, offset }, signal);
        const next = pager.next(page.paging?.total ?? 0, page.messages.length);
        let changed = 0;
        await this.writes.run(() => {
          for (const m of page.messages) {
            const what = writeMessage(this.outbox, m, pack);
            if (what === 'new') {
              created++;
              changed++;
              // Told as a new message when it has the shape the screens know (an unknown status is stored, not announced).
              const known = m.from.user_id !== me ? messageAnswer.safeParse(m) : null;
              if (known?.success) incoming.push(known.data);
            } else if (what === 'updated') {
              updated++;
              changed++;
            }
          }
        });
        if (changed === 0 || next === null) break;
        offset = next;
      }
      progress.add();
    });
    progress.finish();
    return { new: created, updated, incoming };
  }

  /** The local path of an attachment's bytes, downloading them (4.13) the first time. */
  async attachmentFile(id: string): Promise<string> {
    const row = this.outbox.mirror.attachmentById(id);
    if (!row) throw new ServiceError(404, 'not_found', `The attachment with id: ${id} was not found`);
    if (row.sha256 !== null && existsSync(this.options.files.pathOf(row.sha256))) return this.options.files.pathOf(row.sha256);
    const ref: AttachmentRef = { id, site_id: row.site_id, size: row.size };
    const sha256 = await downloadAttachment(this.client, this.options.files, ref, this.options.downloads);
    this.outbox.mirror.setAttachmentSha(id, sha256);
    return this.options.files.pathOf(sha256);
  }
}

export type { StockSnapshot, RemoteLocation };

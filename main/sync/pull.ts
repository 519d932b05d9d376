import { existsSync } from 'node:fs';
import { PULL_PHASES, type PullPhase, type PullProgressView, type PullReportView } from '../../common/views.js';
import type { Writes } from '../db/relaxed-writes.js';
import type { RemoteLocation } from '../db/repos/mirror.js';
import type { Clock } from '../service/clock.js';
import { ServiceError } from '../service/errors.js';
import type { FileStore } from '../service/messages/attachments/storage.js';
import type { MessageView } from '../service/messages/views.js';
import type { Store } from '../service/stock/stores.js';
import { type AttachmentRef, type DownloadLimits, downloadAttachment } from './attachment-download.js';
import type { RemoteClient } from './client.js';
import type { StockSnapshot } from './mirror-writes.js';
import type { Outbox } from './outbox.js';
import { Pager, PullError } from './paging.js';
import { ItemReader } from './pull-items.js';
import { PullReads, type PullReadOptions } from './pull-reads.js';
import { pullBrands, pullMessages, pullOrders } from './pull-sales.js';
import { type StockReadOptions, StockReader, type StockReads } from './pull-stock.js';
import { storesPage, userAnswer } from './remote-answers.js';

/**
 * Pull: fetches the remote state and merges it into the MIRROR (the service tables of the
 * replica). It never touches the outbox, so pending edits survive any pull untouched; the grid
 * shows mirror + pending intents (read-model.ts).
 *
 * How the app learns what changed (the API has no change feed or events, SPEC 6): it polls.
 * One pass in a fixed order, each area in its own module over the same reads (pull-reads.ts: a GET
 * repeated on transient failures, answers parsed with their schema, shared progress phases):
 * - user and stores, here: read whole, they are small;
 * - items (pull-items.ts): ids listed, unknown items read 20 at a time, rows there before stock;
 * - stock (pull-stock.ts): each product's `x-version`, a round-robin window of known products per
 *   pull; a first pull's products read behind the pull in the person's order (issue 29);
 * - brands, orders, messages (pull-sales.ts);
 * - attachment files: metadata only; bytes are fetched on demand (attachmentFile).
 */

export type { StockReads };

/** What a pull did (the contract's shape) and the buyers' messages it brought (for notifications). */
export type PullReport = PullReportView & { incoming: MessageView[] };

export { PullError };
export { mapLimit } from './pull-reads.js';

export interface PullerOptions extends PullReadOptions, StockReadOptions {
  files: FileStore;
  /** Attachment downloads: the largest file and the deadline (defaults: 25 MB, the client's). */
  downloads?: DownloadLimits;
}

export class Puller {
  private readonly r: PullReads;
  private readonly items: ItemReader;
  private readonly stock: StockReader;

  constructor(
    private readonly outbox: Outbox,
    private readonly client: RemoteClient,
    writes: Writes,
    clock: Clock,
    private readonly options: PullerOptions,
  ) {
    this.r = new PullReads(outbox, client, writes, clock, options);
    this.items = new ItemReader(this.r);
    this.stock = new StockReader(this.r, options);
  }

  /** The products on screen: their stock is read first (issue 29). */
  setVisible(ids: readonly string[]): void {
    this.stock.setVisible(ids);
  }

  /** A product just scanned or edited: read after those on screen, before the rest. */
  touch(id: string): void {
    this.stock.touch(id);
  }

  /** How far the first pull's stock reads are (absent when every product is read). */
  stockReadStatus(): ReturnType<StockReader['stockReadStatus']> {
    return this.stock.stockReadStatus();
  }

  /** Reads and applies the stock of user products; returns how many changed. */
  refreshStock(ids: string[], signal?: AbortSignal): Promise<StockReads> {
    return this.stock.refreshStock(ids, signal);
  }

  /** Resolves when the first pull's background stock reads are done, rejects when they failed (at once when none runs). */
  stockReadDone(): Promise<StockReads | null> {
    return this.stock.stockReadDone();
  }

  /** Stops the background stock reads (what was read is kept; the next pull resumes the rest). */
  stopReading(): Promise<void> {
    return this.stock.stopReading();
  }

  /**
   * The steps this pull tells, fixed at its start so the count never changes under the person:
   * while products are unread (a first pull, its resume) their stock is read behind the pull and
   * shown as the status's `stockRead` ("Stock read for n of m"), not as a step the pull waits for.
   */
  private planSteps(): readonly PullPhase[] {
    const behind = this.stock.running || this.outbox.repo.getState('last_pull_at') === undefined || this.outbox.mirror.unreadCount(this.options.sellerId) > 0;
    return behind ? PULL_PHASES.filter((p) => p !== 'stock') : PULL_PHASES;
  }

  async pull(signal?: AbortSignal): Promise<PullReport> {
    const { r } = this;
    const started = r.clock.now();
    const me = this.options.sellerId;
    r.plan = this.planSteps();
    const account = r.step('account');
    account.setTotal(1);
    const user = await r.getOk(`/users/${me}`, userAnswer, {}, signal);
    await r.writes.run(() => this.outbox.mirror.upsertUser(user));
    account.finish();

    // Stores (paged by 50).
    const storesStep = r.step('stores');
    const stores: Store[] = [];
    const storePages = new Pager(`GET /users/${me}/stores/search`, r.limits.stores, 50);
    for (let offset: number | null = 0; offset !== null;) {
      const page = await r.getOk(`/users/${me}/stores/search`, storesPage, { limit: 50, offset }, signal);
      offset = storePages.next(page.paging.total, page.results.length);
      stores.push(...page.results);
      storesStep.setTotal(Math.max(page.paging.total, stores.length));
      storesStep.add(page.results.length);
    }
    storesStep.finish();
    await r.writes.run(() => {
      for (const s of stores) this.outbox.mirror.upsertStore(s);
      this.outbox.mirror.deleteStoresExcept(
        String(me),
        stores.map((s) => s.id),
      );
    });

    const items = await this.items.pull(signal);
    this.stock.recount();
    const stock = await this.stock.pull(signal);
    const brands = await pullBrands(r, signal);
    const orders = await pullOrders(r, signal);
    const messages = await pullMessages(r, signal);
    await r.writes.run(() => this.outbox.repo.setState('last_pull_at', String(r.clock.now())));
    return {
      stores: stores.length,
      items,
      stock,
      brands,
      orders,
      messages: { new: messages.new, updated: messages.updated },
      incoming: messages.incoming,
      durationMs: r.clock.now() - started,
    };
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
export type { PullProgressView };

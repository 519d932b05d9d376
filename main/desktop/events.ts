import { userProductOfCell } from '../../common/cells.js';
import type { EventEmitter } from 'node:events';
import type { StockroomEvent } from '../../common/contract/contract.js';
import { cellKey } from '../service/stock/cells.js';
import { invalidateGrid } from './grid.js';
import type { Profile } from './profile.js';

/** What the core's `events` emitter carries: every event for the renderer (main/ipc, main/web forward them). */
export interface CoreEvents {
  event: [StockroomEvent];
}

const STATUS_THROTTLE_MS = 150;
const MESSAGES_BATCH_MS = 200;

export interface EventFeedOptions {
  emitter: EventEmitter<CoreEvents>;
  /** The open profile (null while a switch replaces it, or once the core is closed). */
  profile(): Profile | null;
  /** The core is closing: nothing new is scheduled. */
  closed(): boolean;
  log(e: unknown): void;
}

/**
 * The events the core sends, coalesced so that a burst of engine activity is a few events: the
 * sync status at most every 150 ms, the changed products of 150 ms in one `stock.changed`, the
 * messages of 200 ms in one `messages.new`; conflicts kept from before are announced once a profile
 * is attached.
 */
export class EventFeed {
  private statusTimer: NodeJS.Timeout | undefined;
  private lastStatusAt = 0;
  private stockTimer: NodeJS.Timeout | undefined;
  private changedProducts: Set<string> | null = new Set();
  private messageTimer: NodeJS.Timeout | undefined;
  private incoming: StockroomEvent & { type: 'messages.new' } = { type: 'messages.new', messages: [] };
  private unreadTimer: NodeJS.Timeout | undefined;
  /** The count last told (null: none yet for this profile), so a pull that changes nothing says nothing. */
  private lastUnread: number | null = null;

  constructor(private readonly o: EventFeedOptions) {}

  emit(event: StockroomEvent): void {
    this.o.emitter.emit('event', event);
  }

  /** Sync status, at most every 150 ms (the engine reports every lane change). */
  scheduleStatus(): void {
    if (this.statusTimer || this.o.closed()) return;
    const wait = Math.max(0, this.lastStatusAt + STATUS_THROTTLE_MS - Date.now());
    this.statusTimer = setTimeout(() => {
      this.statusTimer = undefined;
      this.lastStatusAt = Date.now();
      const p = this.o.profile();
      if (p) this.emit({ type: 'sync.status', status: p.engine.status() });
    }, wait);
  }

  /** These user products changed (null: any may have), told within 150 ms with the others of that time. */
  stockChanged(ids: string[] | null): void {
    if (ids === null) this.changedProducts = null;
    else if (this.changedProducts) for (const id of ids) this.changedProducts.add(id);
    if (this.stockTimer || this.o.closed()) return;
    this.stockTimer = setTimeout(() => {
      this.stockTimer = undefined;
      const changed = this.changedProducts;
      this.changedProducts = new Set();
      this.emit({ type: 'stock.changed', userProductIds: changed ? [...changed] : null });
    }, STATUS_THROTTLE_MS);
  }

  /**
   * The number of conversations with unread messages may have changed (a pull, new messages, a
   * read): counted once for the changes of 200 ms, told only when it differs.
   */
  unreadMayHaveChanged(): void {
    if (this.unreadTimer || this.o.closed()) return;
    this.unreadTimer = setTimeout(() => {
      this.unreadTimer = undefined;
      const p = this.o.profile();
      if (!p || this.o.closed()) return;
      try {
        const conversations = p.inbox.unreadCount(p.sellerId);
        if (conversations === this.lastUnread) return;
        this.lastUnread = conversations;
        this.emit({ type: 'inbox.unread', conversations });
      } catch (e) {
        this.o.log(e);
      }
    }, MESSAGES_BATCH_MS);
  }

  /** Listens to a newly opened profile's engine. */
  attach(p: Profile): void {
    this.lastUnread = null;
    this.unreadMayHaveChanged();
    const e = p.engine;
    e.on('pulled', () => this.unreadMayHaveChanged());
    for (const name of ['progress', 'online', 'offline', 'synced', 'failed', 'retry', 'pulled'] as const) e.on(name, () => this.scheduleStatus());
    e.on('synced', () => this.stockChanged(null));
    // A first pull reads stock behind the pull (issue 29): the rows fill in as it goes.
    e.on('stock-read', (ids) => this.stockChanged(ids));
    e.on('pulled', () => {
      // A pull can bring stores and location types the grid's column set did not have.
      invalidateGrid(p.db);
      this.stockChanged(null);
    });
    e.on('conflict', ({ entryId, cell }) => {
      this.emit({ type: 'sync.conflict', entryId, cell });
      this.stockChanged([userProductOfCell(cell)]);
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
        this.unreadMayHaveChanged();
      }, MESSAGES_BATCH_MS);
    });
    e.on('sync-error', (err) => this.o.log(err));
    // Conflicts kept from before this start (or from before a switch to this profile) are
    // announced like new ones, once whoever opened the core has attached its listeners.
    setImmediate(() => {
      if (this.o.profile() !== p || this.o.closed()) return;
      for (const entry of p.outbox.list({ kind: 'stock', state: 'conflict', limit: 1000, offset: 0 }).entries) {
        const s = entry.stock!;
        this.emit({ type: 'sync.conflict', entryId: entry.id, cell: cellKey(s.userProductId, s.type, s.storeId ?? '') });
      }
    });
  }

  /** The core is closing: the pending timers are dropped. */
  stop(): void {
    for (const t of [this.statusTimer, this.stockTimer, this.messageTimer, this.unreadTimer]) if (t) clearTimeout(t);
  }
}

import type { Db } from '../db/open.js';
import { type LastMessageRow, type PackRow, inboxRepo } from '../db/repos/inbox.js';
import { inboxSearchRepo } from '../db/repos/inbox-search.js';
import { conversationOrders } from './conversation-orders.js';
import { repoOf } from './grid.js';
import type { MessagesRepo } from '../db/repos/messages.js';
import { resolvePack, sendBlock } from '../service/messages/orders.js';
import type { ConversationView, ConversationsView } from '../../common/contract/contract.js';

/** The inbox's filters (issue 15 §2). */
export type InboxFilter = 'all' | 'unread' | 'to_reply' | 'blocked' | 'with_attachments' | 'failed';

/**
 * The inbox: one row per conversation (pack) of the seller, newest activity first, with unread
 * counts, "to reply" (the last visible message is the buyer's), why sending is blocked, and how
 * many outgoing messages still wait in the outbox. Reads the service tables (the demo database, or
 * the replica's mirror, main/db/repos/inbox.ts) and the outbox.
 */
export function inboxReader(db: Db, mediationSite: string, repo: MessagesRepo) {
  const reads = inboxRepo(db);
  const finds = inboxSearchRepo(db);
  const orderContext = conversationOrders(db);
  /** Changes whenever anything was written to the database (the grid's stamp): cached reads compare it. */
  const stamp = () => repoOf(db).writeStamp();

  /**
   * The seller's conversations with their last visible message, newest activity first (those
   * without messages last, by pack): one read of every conversation and a read of each last
   * message, a few tens of milliseconds at 2,000 conversations, kept until something is written.
   * A search, a filter or the next page then only narrows this list.
   */
  let packs: { seller: number; stamp: string; all: { p: PackRow; last: LastMessageRow | undefined }[] } | null = null;
  const packsOf = (seller: number, now: string) => {
    if (packs?.seller === seller && packs.stamp === now) return packs.all;
    const all = reads.packsOf(seller).map((p) => ({ p, last: p.last_id === null ? undefined : reads.message(p.last_id) }));
    all.sort((a, b) => (b.last?.date_created ?? '').localeCompare(a.last?.date_created ?? '') || b.p.pack_key - a.p.pack_key);
    packs = { seller, stamp: now, all };
    return all;
  };
  /** The last search's conversations, kept the same way (the next page and a re-read after opening one ask again). */
  let found: { seller: number; search: string; stamp: string; packs: Set<number> } | null = null;
  const matching = (seller: number, search: string, now: string) => {
    if (found?.seller === seller && found.search === search && found.stamp === now) return found.packs;
    found = { seller, search, stamp: now, packs: finds.matching(seller, search) };
    return found.packs;
  };

  return {
    /** Conversations with unread buyer messages: what the dock or taskbar badge shows. */
    unreadCount: (seller: number): number => reads.unreadConversations(seller),

    conversations(seller: number, opts: { filter: InboxFilter; limit: number; offset: number; packId?: number; search?: string }): ConversationsView {
      return db.transaction(() => {
        const now = stamp();
        const waiting = new Map(reads.queuedByLane().map((r) => [r.lane, r]));
        // The search and the attachment filter are index reads (FTS5, attachments_by_message): sets of packs.
        const searched = opts.search !== undefined && opts.search.trim() !== '' ? matching(seller, opts.search, now) : null;
        const withFiles = opts.filter === 'with_attachments' ? finds.withAttachments(seller) : null;
        // In order already: newest activity first.
        const kept = packsOf(seller, now).filter(({ p, last }) => {
          if (opts.packId !== undefined && p.pack_key !== opts.packId) return false;
          if (searched !== null && !searched.has(p.pack_key)) return false;
          if (opts.filter === 'unread') return p.unread > 0;
          if (opts.filter === 'to_reply') return last !== undefined && last.from_user_id !== seller;
          if (opts.filter === 'with_attachments') return withFiles?.has(p.pack_key) ?? false;
          if (opts.filter === 'failed') return (waiting.get(`pack:${p.pack_key}`)?.failed ?? 0) > 0;
          if (opts.filter === 'blocked') {
            const pack = resolvePack(repo, p.pack_key);
            return pack !== undefined && sendBlock(pack, 'seller', mediationSite) !== null;
          }
          return true;
        });
        const conversations = kept.slice(opts.offset, opts.offset + opts.limit).map(({ p, last }): ConversationView => {
          const pack = resolvePack(repo, p.pack_key);
          const order = orderContext(p.pack_key);
          return {
            packId: p.pack_key,
            siteId: p.site_id,
            buyer: { id: p.buyer_id, nickname: p.nickname, firstName: order.firstName, lastName: order.lastName },
            product: order.product,
            orders: order.orders,
            orderIds: p.order_ids
              .split(',')
              .map(Number)
              .sort((a, b) => a - b),
            blocked: pack ? sendBlock(pack, 'seller', mediationSite) : null,
            lastMessage: last
              ? { id: last.id, text: last.text, date: last.date_created, fromSeller: last.from_user_id === seller, moderation: last.moderation_status }
              : null,
            unread: p.unread,
            needsReply: last !== undefined && last.from_user_id !== seller,
            queued: waiting.get(`pack:${p.pack_key}`)?.queued ?? 0,
            failed: waiting.get(`pack:${p.pack_key}`)?.failed ?? 0,
          };
        });
        return { total: kept.length, conversations };
      })();
    },
  };
}

import type { Db } from '../db/open.js';
import { inboxRepo } from '../db/repos/inbox.js';
import { inboxSearchRepo } from '../db/repos/inbox-search.js';
import { conversationOrders } from './conversation-orders.js';
import type { MessagesRepo } from '../db/repos/messages.js';
import { resolvePack, sendBlock } from '../service/messages/orders.js';
import type { ConversationView, ConversationsView } from '../../preload/contract.js';

/** The inbox's filters (issue 15 §2). */
export type InboxFilter = 'all' | 'unread' | 'to_reply' | 'blocked' | 'with_attachments';

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

  return {
    /** Conversations with unread buyer messages: what the dock or taskbar badge shows. */
    unreadCount: (seller: number): number => reads.unreadConversations(seller),

    conversations(seller: number, opts: { filter: InboxFilter; limit: number; offset: number; packId?: number; search?: string }): ConversationsView {
      return db.transaction(() => {
        const waiting = new Map(reads.queuedByLane().map((r) => [r.lane, r.n]));
        // The search and the attachment filter are index reads (FTS5, attachments_by_message): sets of packs.
        const searched = opts.search !== undefined && opts.search.trim() !== '' ? finds.matching(seller, opts.search) : null;
        const withFiles = opts.filter === 'with_attachments' ? finds.withAttachments(seller) : null;
        const all = reads.packsOf(seller).map((p) => {
          const last = p.last_id === null ? undefined : reads.message(p.last_id);
          return { p, last };
        });
        const matching = all.filter(({ p, last }) => {
          if (opts.packId !== undefined && p.pack_key !== opts.packId) return false;
          if (searched !== null && !searched.has(p.pack_key)) return false;
          if (opts.filter === 'unread') return p.unread > 0;
          if (opts.filter === 'to_reply') return last !== undefined && last.from_user_id !== seller;
          if (opts.filter === 'with_attachments') return withFiles?.has(p.pack_key) ?? false;
          if (opts.filter === 'blocked') {
            const pack = resolvePack(repo, p.pack_key);
            return pack !== undefined && sendBlock(pack, 'seller', mediationSite) !== null;
          }
          return true;
        });
        // Newest activity first; conversations without messages last, by pack.
        matching.sort((a, b) => (b.last?.date_created ?? '').localeCompare(a.last?.date_created ?? '') || b.p.pack_key - a.p.pack_key);
        const conversations = matching.slice(opts.offset, opts.offset + opts.limit).map(({ p, last }): ConversationView => {
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
            queued: waiting.get(`pack:${p.pack_key}`) ?? 0,
          };
        });
        return { total: matching.length, conversations };
      })();
    },
  };
}

import type { Db } from '../db/open.js';
import { messagesRepo } from '../db/repos/messages.js';
import { resolvePack, sendBlock } from '../service/messages/orders.js';
import type { ConversationView, ConversationsView } from '../../preload/contract.js';

interface PackRow {
  pack_key: number;
  order_ids: string;
  buyer_id: number;
  site_id: string;
  nickname: string | null;
  unread: number;
  last_id: string | null;
}

interface LastRow {
  id: string;
  text: string;
  date_created: string;
  from_user_id: number;
  moderation_status: string;
}

/** What a seller can see in a pack: its own messages in any moderation status, the buyer's once clean. */
const VISIBLE = `(m.from_user_id = @seller OR (m.to_user_id = @seller AND m.moderation_status IN ('clean', 'non_moderated')))`;

/**
 * The inbox: one row per conversation (pack) of the seller, newest activity first, with unread
 * counts, "to reply" (the last visible message is the buyer's), why sending is blocked, and how
 * many outgoing messages still wait in the outbox. Reads the service tables (the demo database, or
 * the replica's mirror) and the outbox.
 */
export function inboxReader(db: Db, mediationSite: string) {
  const packs = db.prepare<[{ seller: number }], PackRow>(
    `WITH p AS (
       SELECT coalesce(pack_id, id) AS pack_key, group_concat(id) AS order_ids, min(buyer_id) AS buyer_id, min(site_id) AS site_id
         FROM orders WHERE seller_id = @seller GROUP BY coalesce(pack_id, id)
     )
     SELECT p.pack_key, p.order_ids, p.buyer_id, p.site_id, u.nickname,
       (SELECT count(*) FROM messages m WHERE m.pack_key = p.pack_key AND m.to_user_id = @seller AND m.date_read IS NULL
          AND m.moderation_status IN ('clean', 'non_moderated')) AS unread,
       (SELECT m.id FROM messages m WHERE m.pack_key = p.pack_key AND ${VISIBLE} ORDER BY m.date_created DESC, m.seq DESC LIMIT 1) AS last_id
     FROM p LEFT JOIN users u ON u.id = p.buyer_id`,
  );
  const message = db.prepare<[string], LastRow>('SELECT id, text, date_created, from_user_id, moderation_status FROM messages WHERE id = ?');
  const queued = db.prepare<[], { lane: string; n: number }>(
    "SELECT lane, count(*) AS n FROM sync_outbox WHERE kind = 'message' AND state <> 'done' GROUP BY lane",
  );
  const repo = messagesRepo(db);

  return {
    conversations(seller: number, opts: { filter: 'all' | 'unread' | 'to_reply'; limit: number; offset: number }): ConversationsView {
      return db.transaction(() => {
        const waiting = new Map(queued.all().map((r) => [r.lane, r.n]));
        const all = packs.all({ seller }).map((p) => {
          const last = p.last_id === null ? undefined : message.get(p.last_id);
          return { p, last };
        });
        const matching = all.filter(({ p, last }) => {
          if (opts.filter === 'unread') return p.unread > 0;
          if (opts.filter === 'to_reply') return last !== undefined && last.from_user_id !== seller;
          return true;
        });
        // Newest activity first; conversations without messages last, by pack.
        matching.sort((a, b) => (b.last?.date_created ?? '').localeCompare(a.last?.date_created ?? '') || b.p.pack_key - a.p.pack_key);
        const conversations = matching.slice(opts.offset, opts.offset + opts.limit).map(({ p, last }): ConversationView => {
          const pack = resolvePack(repo, p.pack_key);
          return {
            packId: p.pack_key,
            siteId: p.site_id,
            buyer: { id: p.buyer_id, nickname: p.nickname },
            orderIds: p.order_ids.split(',').map(Number).sort((a, b) => a - b),
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

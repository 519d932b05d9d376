import type { Db } from '../open.js';

/** A conversation (pack) of the seller: its orders, buyer, unread count and last visible message. */
export interface PackRow {
  pack_key: number;
  order_ids: string;
  buyer_id: number;
  site_id: string;
  nickname: string | null;
  unread: number;
  last_id: string | null;
}

/** The last visible message of a conversation, as the inbox shows it. */
export interface LastMessageRow {
  id: string;
  text: string;
  date_created: string;
  from_user_id: number;
  moderation_status: string;
}

/** What a seller can see in a pack: its own messages in any moderation status, the buyer's once clean. */
const VISIBLE = `(m.from_user_id = @seller OR (m.to_user_id = @seller AND m.moderation_status IN ('clean', 'non_moderated')))`;

/**
 * The inbox's reads (main/desktop/inbox.ts): the seller's conversations over the service tables
 * (the demo database, or the replica's mirror) and the outgoing messages still in the outbox.
 */
export function inboxRepo(db: Db) {
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
  // Reads the partial index messages_unread (migration 009), which holds only unread, visible messages.
  const unreadPacks = db.prepare<[{ seller: number }], { n: number }>(
    `SELECT count(DISTINCT m.pack_key) AS n FROM messages m
      WHERE m.to_user_id = @seller AND m.date_read IS NULL AND m.moderation_status IN ('clean', 'non_moderated')
        AND m.pack_key IN (SELECT coalesce(pack_id, id) FROM orders WHERE seller_id = @seller)`,
  );
  const message = db.prepare<[string], LastMessageRow>('SELECT id, text, date_created, from_user_id, moderation_status FROM messages WHERE id = ?');
  // A failed message waits for the person: counted apart, so the list never calls it queued (issue 27).
  const queued = db.prepare<[], { lane: string; queued: number; failed: number }>(
    `SELECT lane, sum(state <> 'failed') AS queued, sum(state = 'failed') AS failed
       FROM sync_outbox WHERE kind = 'message' AND state <> 'done' GROUP BY lane`,
  );

  return {
    /** Every conversation of the seller (one per pack, or per order without a pack). */
    packsOf: (seller: number) => packs.all({ seller }),
    message: (id: string) => message.get(id),
    /** How many of the seller's conversations have unread buyer messages (the badge; the same rule as `unread` above). */
    unreadConversations: (seller: number) => unreadPacks.get({ seller })?.n ?? 0,
    /** Outgoing messages not yet done in the outbox by lane (`pack:<id>`): those still to send, and the failed ones. */
    queuedByLane: () => queued.all(),
  };
}
export type InboxRepo = ReturnType<typeof inboxRepo>;

import type { ModerationStatus } from '../../../common/views.js';
import type { Db } from '../open.js';

export type { ModerationStatus };
export type OrderStatus = 'paid' | 'cancelled';
export type LogisticType = 'fulfillment' | 'cross_docking' | 'self_service';

export interface OrderRow {
  id: number;
  pack_id: number | null;
  seller_id: number;
  buyer_id: number;
  site_id: string;
  status: OrderStatus;
  logistic_type: LogisticType;
  delivered: number;
  mediation_in_process: number;
  status_date: string;
}

export interface NewOrder {
  id: number;
  pack_id: number | null;
  seller_id: number;
  buyer_id: number;
  site_id: string;
  status: OrderStatus;
  logistic_type: LogisticType;
  delivered: boolean;
  mediation_in_process: boolean;
  status_date: string;
}

export interface MessageRow {
  id: string;
  order_id: number;
  from_user_id: number;
  to_user_id: number;
  pack_key: number;
  site_id: string;
  client_id: number | null;
  subject: string | null;
  text: string;
  status: 'available';
  date_created: string;
  date_received: string;
  date_available: string | null;
  date_notified: string | null;
  date_read: string | null;
  moderation_status: ModerationStatus;
  moderation_reason: string | null;
  moderation_source: string | null;
  moderation_date: string | null;
  conversation_first_message: number;
  text_hash: string | null;
  seq: number;
}

export type NewMessage = Omit<MessageRow, 'seq' | 'conversation_first_message' | 'status'>;

/** The moderation outcome written when a pending message is decided. */
export interface ModerationDecision {
  status: 'clean' | 'rejected';
  reason: string | null;
  date: string;
}

/** Statuses the recipient may see (SPEC 2.8: moderated messages are not visible to the counterparty). */
const VISIBLE_TO_RECIPIENT = `('clean', 'non_moderated')`;

/** Orders, packs and post-sale messages (migration 004). */
export function messagesRepo(db: Db) {
  const orderById = db.prepare<[number], OrderRow>('SELECT * FROM orders WHERE id = ?');
  const ordersOfPack = db.prepare<[number], OrderRow>('SELECT * FROM orders WHERE pack_id = ? ORDER BY id');
  const loneOrder = db.prepare<[number], OrderRow>('SELECT * FROM orders WHERE id = ? AND pack_id IS NULL');
  const insertOrder = db.prepare(
    `INSERT INTO orders (id, pack_id, seller_id, buyer_id, site_id, status, logistic_type, delivered, mediation_in_process, status_date)
     VALUES (@id, @pack_id, @seller_id, @buyer_id, @site_id, @status, @logistic_type, @delivered, @mediation_in_process, @status_date)`,
  );

  const messageById = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE id = ?');
  // conversation_first_message and seq are computed in the statement, so they are right even
  // when two processes write (the caller holds an IMMEDIATE transaction).
  const insertMessage = db.prepare(
    `INSERT INTO messages (id, order_id, from_user_id, to_user_id, pack_key, site_id, client_id, subject, text,
       date_created, date_received, date_available, date_notified, date_read,
       moderation_status, moderation_reason, moderation_source, moderation_date,
       conversation_first_message, text_hash, seq)
     VALUES (@id, @order_id, @from_user_id, @to_user_id, @pack_key, @site_id, @client_id, @subject, @text,
       @date_created, @date_received, @date_available, @date_notified, @date_read,
       @moderation_status, @moderation_reason, @moderation_source, @moderation_date,
       NOT EXISTS (SELECT 1 FROM messages WHERE pack_key = @pack_key), @text_hash,
       (SELECT coalesce(max(seq), 0) + 1 FROM messages))`,
  );

  const visible = `pack_key = @pack AND (from_user_id = @reader OR (to_user_id = @reader AND moderation_status IN ${VISIBLE_TO_RECIPIENT}))`;
  const listVisible = db.prepare<[{ pack: number; reader: number; limit: number; offset: number }], MessageRow>(
    `SELECT * FROM messages WHERE ${visible} ORDER BY date_created DESC, seq DESC LIMIT @limit OFFSET @offset`,
  );
  const countVisible = db.prepare<[{ pack: number; reader: number }], { n: number }>(`SELECT count(*) AS n FROM messages WHERE ${visible}`);
  const markRead = db.prepare<[{ pack: number; reader: number; now: string }]>(
    `UPDATE messages SET date_read = @now, date_notified = coalesce(date_notified, @now)
      WHERE pack_key = @pack AND to_user_id = @reader AND date_read IS NULL
        AND moderation_status IN ${VISIBLE_TO_RECIPIENT}`,
  );
  const unreadCount = db.prepare<[{ pack: number; reader: number }], { n: number }>(
    `SELECT count(*) AS n FROM messages
      WHERE pack_key = @pack AND to_user_id = @reader AND date_read IS NULL
        AND moderation_status IN ${VISIBLE_TO_RECIPIENT}`,
  );
  const identicalInOtherPacks = db.prepare<[{ from: number; hash: string; pack: number; since: string; until: string; except: string }], { n: number }>(
    `SELECT count(*) AS n FROM messages
      WHERE from_user_id = @from AND text_hash = @hash AND date_created >= @since AND date_created <= @until
        AND pack_key <> @pack AND id <> @except`,
  );
  const decide = db.prepare<[{ id: string; status: string; reason: string | null; date: string }]>(
    `UPDATE messages SET moderation_status = @status, moderation_reason = @reason, moderation_source = 'online',
       moderation_date = @date,
       date_available = CASE WHEN @status = 'clean' THEN @date ELSE NULL END,
       date_notified  = CASE WHEN @status = 'clean' THEN coalesce(date_notified, @date) ELSE date_notified END
     WHERE id = @id AND moderation_status = 'pending'`,
  );

  return {
    orderById: (id: number) => orderById.get(id),
    /** The orders of a conversation: those with this pack_id, else the lone order with this id (SPEC 4.9). */
    ordersOfPackKey: (key: number): OrderRow[] => {
      const inPack = ordersOfPack.all(key);
      if (inPack.length > 0) return inPack;
      const lone = loneOrder.get(key);
      return lone ? [lone] : [];
    },
    insertOrder: (o: NewOrder) => insertOrder.run({ ...o, delivered: o.delivered ? 1 : 0, mediation_in_process: o.mediation_in_process ? 1 : 0 }),

    messageById: (id: string) => messageById.get(id),
    insertMessage: (m: NewMessage) => insertMessage.run(m),
    /** Newest first; `reader` sees its own messages in any moderation status and the other's once clean. */
    listVisible: (pack: number, reader: number, limit: number, offset: number) => listVisible.all({ pack, reader, limit, offset }),
    countVisible: (pack: number, reader: number) => countVisible.get({ pack, reader })!.n,
    /** Marks what `reader` received in the pack and can see as read; returns how many changed. */
    markRead: (pack: number, reader: number, now: string) => markRead.run({ pack, reader, now }).changes,
    /** Messages the reader received in the pack, can see, and has not read. */
    unreadCount: (pack: number, reader: number) => unreadCount.get({ pack, reader })!.n,
    /** Messages `from` sent with this text hash to other packs in [since, until] (`except`: the message itself). */
    identicalInOtherPacks: (from: number, hash: string, pack: number, since: string, until: string, except: string) =>
      identicalInOtherPacks.get({ from, hash, pack, since, until, except })!.n,
    /** Decides a pending message; false when it was no longer pending (a re-run of the job). */
    decide: (id: string, d: ModerationDecision) => decide.run({ id, ...d }).changes === 1,
  };
}
export type MessagesRepo = ReturnType<typeof messagesRepo>;

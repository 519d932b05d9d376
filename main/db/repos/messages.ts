import type { ModerationStatus } from '../../../common/views.js';
import { numberListColumn, parseColumn } from '../json-columns.js';
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

/**
 * A message `m` as the JSON of SPEC 2.8 (common/views.ts MessageView, in its key order), built by
 * SQLite in the statement that reads the page: reading fifty rows into JavaScript objects and
 * serializing them costs twice as much. json_quote escapes exactly as JSON.stringify does
 * (test/db/repos/messages-page.test.ts). `message_attachments` is null: a page that has any is
 * built by the caller from rows instead. @seller is the pack's seller id as a JSON string.
 */
const MESSAGE_JSON = `concat('{"id":', json_quote(m.id), ',"site_id":', json_quote(m.site_id), ',"client_id":', json_quote(m.client_id),
    ',"from":{"user_id":', json_quote(m.from_user_id), '},"to":{"user_id":', json_quote(m.to_user_id),
    '},"status":', json_quote(m.status), ',"subject":', json_quote(m.subject), ',"text":', json_quote(m.text),
    ',"message_date":{"received":', json_quote(m.date_received), ',"available":', json_quote(m.date_available),
    ',"notified":', json_quote(m.date_notified), ',"created":', json_quote(m.date_created), ',"read":', json_quote(m.date_read),
    '},"message_moderation":{"status":', json_quote(m.moderation_status), ',"reason":', json_quote(m.moderation_reason),
    ',"source":', json_quote(m.moderation_source), ',"moderation_date":', json_quote(m.moderation_date),
    '},"message_attachments":null,"message_resources":[{"id":', json_quote(CAST(m.pack_key AS TEXT)), ',"name":"packs"},{"id":', @seller,
    ',"name":"sellers"}],"conversation_first_message":', CASE m.conversation_first_message WHEN 1 THEN 'true' ELSE 'false' END, '}')`;

/** Bytes a repo keeps in memory at most of the packs it read (message JSON and readers' orders). */
const MAX_KEPT_BYTES = 16 * 1024 * 1024;

/** What a repo keeps of one pack, valid while the pack's version (migration 018) is `version`. */
interface KeptPack {
  version: bigint;
  /** The pack's orders (ordersOfPackKey), once read. */
  orders?: OrderRow[];
  /** Each reader's order: the seq of every message they see, newest first (null: a message has no seq). */
  seqs: Map<number, number[] | null>;
  /** The seller the JSON below names in message_resources. */
  sellerId: number;
  /** The JSON of each message by seq, UTF-8 encoded once; null for a message with attachments (built from rows instead). */
  messages: Map<number, Buffer | null>;
  /** What the readers' orders and the JSON take (about). */
  seqBytes: number;
  messageBytes: number;
}

/** One page of a pack as a reader sees it, newest first, and the exact total of what the reader sees. */
export interface PackPage<T> {
  total: number;
  messages: T[];
}

/** Orders, packs and post-sale messages (migration 004). */
export function messagesRepo(db: Db) {
  const orderById = db.prepare<[number], OrderRow>('SELECT * FROM orders WHERE id = ?');
  // The orders with this pack_id, else the lone order with this id: one statement, read on every
  // pack read and send.
  const ordersOfPackKey = db.prepare<[{ key: number }], OrderRow>(
    `SELECT * FROM orders WHERE pack_id = @key
     UNION ALL
     SELECT * FROM orders WHERE id = @key AND pack_id IS NULL AND NOT EXISTS (SELECT 1 FROM orders WHERE pack_id = @key)
     ORDER BY id`,
  );
  const insertOrder = db.prepare(
    `INSERT INTO orders (id, pack_id, seller_id, buyer_id, site_id, status, logistic_type, delivered, mediation_in_process, status_date)
     VALUES (@id, @pack_id, @seller_id, @buyer_id, @site_id, @status, @logistic_type, @delivered, @mediation_in_process, @status_date)`,
  );

  const messageById = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE id = ?');
  // conversation_first_message and seq are computed in the statement, so they are right even
  // when two processes write (the caller holds an IMMEDIATE transaction). It returns those two
  // alone: RETURNING * cost about 6 µs more a send, and the rest is what the caller gave.
  const insertMessage = db.prepare<[NewMessage], [number, number]>(
    `INSERT INTO messages (id, order_id, from_user_id, to_user_id, pack_key, site_id, client_id, subject, text,
       date_created, date_received, date_available, date_notified, date_read,
       moderation_status, moderation_reason, moderation_source, moderation_date,
       conversation_first_message, text_hash, seq)
     VALUES (@id, @order_id, @from_user_id, @to_user_id, @pack_key, @site_id, @client_id, @subject, @text,
       @date_created, @date_received, @date_available, @date_notified, @date_read,
       @moderation_status, @moderation_reason, @moderation_source, @moderation_date,
       NOT EXISTS (SELECT 1 FROM messages WHERE pack_key = @pack_key), @text_hash,
       (SELECT coalesce(max(seq), 0) + 1 FROM messages))
     RETURNING conversation_first_message, seq`,
  );
  insertMessage.raw(true);

  const visible = `pack_key = @pack AND (from_user_id = @reader OR (to_user_id = @reader AND moderation_status IN ${VISIBLE_TO_RECIPIENT}))`;
  const packVersion = db.prepare<[number], bigint>('SELECT version FROM message_pack_versions WHERE pack_key = ?').pluck(true).safeIntegers(true);
  // The reader's order of the pack in one value (a row per message costs more than the sort). The
  // aggregate's ORDER BY is what makes the order certain; count(*) - count(seq) finds a row without seq.
  const packOrder = db
    .prepare<[{ pack: number; reader: number }], [string, number]>(
      `SELECT json_group_array(seq ORDER BY date_created DESC, seq DESC), count(*) - count(seq) FROM messages WHERE ${visible}`,
    )
    .raw(true);
  const rowsBySeq = db.prepare<[string], MessageRow>('SELECT m.* FROM json_each(?) j JOIN messages m ON m.seq = j.value ORDER BY j.key');
  const messagesJson = db
    .prepare<[{ seqs: string; seller: string }], [number, string, number]>(
      `SELECT m.seq, ${MESSAGE_JSON}, EXISTS (SELECT 1 FROM attachments a WHERE a.message_id = m.id)
         FROM json_each(@seqs) j JOIN messages m ON m.seq = j.value`,
    )
    .raw(true);

  /**
   * The packs read lately, least recently read first. A page was a walk of the index up to its
   * offset, a count of the whole pack and fifty messages' JSON; with the pack's order and its
   * messages' JSON kept, it is a slice and a join. What is kept is used only while the pack's
   * version, read in the same snapshot, is the one it was kept at.
   */
  const kept = new Map<number, KeptPack>();
  let keptBytes = 0;
  /** Runs reads in one read transaction (one snapshot); made once, not per call. */
  const snapshot = db.transaction((read: () => unknown) => read()) as <T>(read: () => T) => T;
  const versionOf = (pack: number) => packVersion.get(pack) ?? 0n;
  function keep(pack: number, version: bigint): KeptPack {
    let k = kept.get(pack);
    kept.delete(pack);
    if (k && k.version !== version) {
      keptBytes -= k.seqBytes + k.messageBytes;
      k = undefined;
    }
    k ??= { version, seqs: new Map(), sellerId: 0, messages: new Map(), seqBytes: 0, messageBytes: 0 };
    kept.set(pack, k);
    return k;
  }
  /** The reader's order of the pack as kept at `version`, read when not kept yet (null: not pageable by seq). */
  function orderAt(pack: number, reader: number, version: bigint): { k: KeptPack; order: number[] | null } {
    const k = keep(pack, version);
    let order = k.seqs.get(reader);
    if (order === undefined) {
      const [json, unnumbered] = packOrder.get({ pack, reader })!;
      // A message without seq cannot be found by it: such a pack is read with OFFSET instead.
      order = unnumbered > 0 ? null : parseColumn(numberListColumn, json, "messages.seq (a reader's order of a pack)");
      k.seqs.set(reader, order);
      remember(k, 8 * (order?.length ?? 0), 0);
    }
    return { k, order };
  }
  /** The page from what is kept alone, or undefined when something must be read. */
  function keptPage(k: KeptPack, reader: number, sellerId: number, limit: number, offset: number): PackPage<Buffer> | undefined {
    const order = k.seqs.get(reader);
    if (!order || k.sellerId !== sellerId) return undefined;
    const messages: Buffer[] = [];
    for (const seq of order.slice(offset, offset + limit)) {
      const json = k.messages.get(seq);
      if (!json) return undefined;
      messages.push(json);
    }
    return { total: order.length, messages };
  }
  /** Counts what was added to `k`, and forgets the packs read longest ago while over the budget (never `k`, read last). */
  function remember(k: KeptPack, seqBytes: number, messageBytes: number): void {
    k.seqBytes += seqBytes;
    k.messageBytes += messageBytes;
    keptBytes += seqBytes + messageBytes;
    for (const [pack, old] of kept) {
      if (keptBytes <= MAX_KEPT_BYTES || old === k) break;
      kept.delete(pack);
      keptBytes -= old.seqBytes + old.messageBytes;
    }
  }

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
  const identicalInOtherPacks = db
    .prepare<[{ from: number; hash: string; pack: number; since: string; until: string; except: string }], number>(
      `SELECT count(*) FROM messages
        WHERE from_user_id = @from AND text_hash = @hash AND date_created >= @since AND date_created <= @until
          AND pack_key <> @pack AND id <> @except`,
    )
    .pluck(true);
  const decide = db.prepare<[{ id: string; status: string; reason: string | null; date: string }]>(
    `UPDATE messages SET moderation_status = @status, moderation_reason = @reason, moderation_source = 'online',
       moderation_date = @date,
       date_available = CASE WHEN @status = 'clean' THEN @date ELSE NULL END,
       date_notified  = CASE WHEN @status = 'clean' THEN coalesce(date_notified, @date) ELSE date_notified END
     WHERE id = @id AND moderation_status = 'pending'`,
  );

  return {
    orderById: (id: number) => orderById.get(id),
    /** The pack's version (migration 018), for `ordersOfPackKey` and `pageJson` to check what they keep against. */
    packVersion: versionOf,
    /**
     * The orders of a conversation: those with this pack_id, else the lone order with this id
     * (SPEC 4.9). With `version` (packVersion, read just before), kept ones answer while it holds;
     * what is read is kept only when the version did not move meanwhile.
     */
    ordersOfPackKey: (key: number, version?: bigint): OrderRow[] => {
      const known = version === undefined ? undefined : kept.get(key);
      if (known?.orders && known.version === version) return keep(key, version).orders!;
      const orders = ordersOfPackKey.all({ key });
      if (version !== undefined && versionOf(key) === version) keep(key, version).orders = orders;
      return orders;
    },
    insertOrder: (o: NewOrder) => insertOrder.run({ ...o, delivered: o.delivered ? 1 : 0, mediation_in_process: o.mediation_in_process ? 1 : 0 }),

    messageById: (id: string) => messageById.get(id),
    /**
     * Stores a message and answers the row as this statement stored it (conversation_first_message
     * and seq computed): the stored row, unless pack_key, site_id or seq was null (then the fill-in
     * trigger of migration 004 sets them afterwards).
     */
    insertMessage: (m: NewMessage): MessageRow => {
      const [first, seq] = insertMessage.get(m)!;
      return { ...m, status: 'available', conversation_first_message: first, seq };
    },
    /**
     * A page of the pack as `reader` sees it, newest first: its own messages in any moderation
     * status and the other's once clean (SPEC 2.8), and the total; read in one snapshot.
     */
    pageRows: (pack: number, reader: number, limit: number, offset: number): PackPage<MessageRow> =>
      snapshot(() => {
        const { order } = orderAt(pack, reader, versionOf(pack));
        if (order === null) return { total: countVisible.get({ pack, reader })!.n, messages: listVisible.all({ pack, reader, limit, offset }) };
        const seqs = order.slice(offset, offset + limit);
        return { total: order.length, messages: seqs.length === 0 ? [] : rowsBySeq.all(JSON.stringify(seqs)) };
      }),
    /**
     * `pageRows` as the UTF-8 JSON of each message's MessageView (`sellerId`: the pack's seller,
     * named in message_resources), or undefined when one of them has attachments (then
     * `pageRows`). A page read before is answered from memory: the pack's version is its snapshot.
     */
    pageJson: (pack: number, reader: number, sellerId: number, limit: number, offset: number, version = versionOf(pack)): PackPage<Buffer> | undefined => {
      const known = kept.get(pack);
      if (known && known.version === version) {
        const hit = keptPage(known, reader, sellerId, limit, offset);
        if (hit) {
          keep(pack, known.version);
          return hit;
        }
      }
      return snapshot(() => {
        const { k, order } = orderAt(pack, reader, versionOf(pack));
        if (order === null) return undefined;
        if (k.sellerId !== sellerId) {
          remember(k, 0, -k.messageBytes);
          k.messages.clear();
          k.sellerId = sellerId;
        }
        const seqs = order.slice(offset, offset + limit);
        const missing = seqs.filter((seq) => !k.messages.has(seq));
        if (missing.length > 0) {
          let bytes = 0;
          for (const [seq, json, withFiles] of messagesJson.all({ seqs: JSON.stringify(missing), seller: JSON.stringify(String(sellerId)) })) {
            const utf8 = withFiles ? null : Buffer.from(json);
            k.messages.set(seq, utf8);
            bytes += utf8?.length ?? 0;
          }
          remember(k, 0, bytes);
        }
        const messages: Buffer[] = [];
        for (const seq of seqs) {
          const json = k.messages.get(seq);
          if (!json) return undefined;
          messages.push(json);
        }
        return { total: order.length, messages };
      });
    },
    /** Newest first, by OFFSET (what pageRows answers, and its fallback). */
    listVisible: (pack: number, reader: number, limit: number, offset: number) => listVisible.all({ pack, reader, limit, offset }),
    countVisible: (pack: number, reader: number) => countVisible.get({ pack, reader })!.n,
    /** Marks what `reader` received in the pack and can see as read; returns how many changed. */
    markRead: (pack: number, reader: number, now: string) => markRead.run({ pack, reader, now }).changes,
    /** Messages the reader received in the pack, can see, and has not read. */
    unreadCount: (pack: number, reader: number) => unreadCount.get({ pack, reader })!.n,
    /** Messages `from` sent with this text hash to other packs in [since, until] (`except`: the message itself). */
    identicalInOtherPacks: (from: number, hash: string, pack: number, since: string, until: string, except: string) =>
      identicalInOtherPacks.get({ from, hash, pack, since, until, except })!,
    /** Decides a pending message; false when it was no longer pending (a re-run of the job). */
    decide: (id: string, d: ModerationDecision) => decide.run({ id, ...d }).changes === 1,
  };
}
export type MessagesRepo = ReturnType<typeof messagesRepo>;

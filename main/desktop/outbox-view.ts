import type { Db } from '../db/open.js';
import type { OutboxEntryView, QueuedMessageView } from '../../preload/contract.js';

interface Row {
  id: number;
  kind: 'stock' | 'message';
  lane: string;
  state: OutboxEntryView['state'];
  attempts: number;
  next_attempt_at: number;
  created_at: number;
  updated_at: number;
  user_product_id: string | null;
  cell_type: 'seller_warehouse' | 'selling_address' | null;
  store_key: string | null;
  op: 'adjust' | 'count' | null;
  delta: number | null;
  quantity: number | null;
  payload: string | null;
  last_status: number | null;
  last_error: string | null;
}

const COLUMNS = `id, kind, lane, state, attempts, next_attempt_at, created_at, updated_at, user_product_id, cell_type, store_key,
  op, delta, quantity, payload, last_status, last_error`;

/** The parts of a queued message's payload (main/sync/message-push.ts MessagePayload) the screens show. */
function messageOf(payload: string | null): { packId: number; text: string; files: string[] } | null {
  if (!payload) return null;
  try {
    const m = JSON.parse(payload) as { packId?: unknown; text?: unknown; attachments?: { name?: unknown }[] };
    return {
      packId: typeof m.packId === 'number' ? m.packId : 0,
      text: typeof m.text === 'string' ? m.text : '',
      files: Array.isArray(m.attachments) ? m.attachments.map((a) => (typeof a.name === 'string' ? a.name : '')) : [],
    };
  } catch {
    return null;
  }
}

/**
 * Read-only views of the outbox (table sync_outbox of migration 007) for the screens: the outbox
 * list, the messages still queued in a conversation, the product of an entry. Writes go through
 * the sync engine only.
 */
export function outboxReader(db: Db) {
  const list = db.prepare<[{ kind: string | null; state: string | null; limit: number; offset: number }], Row>(
    `SELECT ${COLUMNS} FROM sync_outbox WHERE state <> 'done' AND (@kind IS NULL OR kind = @kind) AND (@state IS NULL OR state = @state)
     ORDER BY id LIMIT @limit OFFSET @offset`,
  );
  const count = db.prepare<[{ kind: string | null; state: string | null }], { n: number }>(
    `SELECT count(*) AS n FROM sync_outbox WHERE state <> 'done' AND (@kind IS NULL OR kind = @kind) AND (@state IS NULL OR state = @state)`,
  );
  const ofLane = db.prepare<[string], Row>(`SELECT ${COLUMNS} FROM sync_outbox WHERE lane = ? AND state <> 'done' ORDER BY id`);
  const productOf = db.prepare<[number], { user_product_id: string | null }>('SELECT user_product_id FROM sync_outbox WHERE id = ?');

  const view = (r: Row): OutboxEntryView => ({
    id: r.id,
    kind: r.kind,
    state: r.state,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastStatus: r.last_status,
    lastError: r.last_error,
    stock:
      r.kind === 'stock' && r.user_product_id && r.cell_type && r.op
        ? { userProductId: r.user_product_id, type: r.cell_type, storeId: r.cell_type === 'seller_warehouse' ? r.store_key : null, op: r.op, delta: r.delta, quantity: r.quantity }
        : null,
    message: r.kind === 'message' ? messageOf(r.payload) : null,
  });

  return {
    list(q: { kind?: string | undefined; state?: string | undefined; limit: number; offset: number }): { total: number; entries: OutboxEntryView[] } {
      const filter = { kind: q.kind ?? null, state: q.state ?? null };
      return db.transaction(() => ({ total: count.get(filter)!.n, entries: list.all({ ...filter, limit: q.limit, offset: q.offset }).map(view) }))();
    },
    queuedMessages(packId: number): QueuedMessageView[] {
      return ofLane.all(`pack:${packId}`).map((r) => {
        const m = messageOf(r.payload);
        return { entryId: r.id, state: r.state, text: m?.text ?? '', files: m?.files ?? [], createdAt: r.created_at, lastError: r.last_error };
      });
    },
    productOf: (entryId: number) => productOf.get(entryId)?.user_product_id ?? null,
  };
}

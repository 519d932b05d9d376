import type { EditableType } from '../../../common/stock-vocabulary.js';
import type { EntryState, OutboxKind } from '../../../common/outbox.js';
import type { Db } from '../open.js';

/** An outbox entry (table sync_outbox of migration 007) with the columns the screens show. */
export interface OutboxViewRow {
  id: number;
  kind: OutboxKind;
  lane: string;
  state: Exclude<EntryState, 'done'>;
  attempts: number;
  next_attempt_at: number;
  created_at: number;
  updated_at: number;
  user_product_id: string | null;
  cell_type: EditableType | null;
  store_key: string | null;
  op: 'adjust' | 'count' | null;
  delta: number | null;
  quantity: number | null;
  payload: string | null;
  last_status: number | null;
  last_error: string | null;
  reason: string | null;
  /** A transfer's destination store (migration 013). */
  store_key2: string | null;
  /** What phaseOf (main/sync/model.ts) reads: the request on the wire, and a withdrawal being checked (migration 022). */
  sent_version: string | null;
  sent_at: number | null;
  withdraw: number;
}

/** Entries of one kind and/or state (null: any). */
export interface OutboxFilter {
  kind: string | null;
  state: string | null;
}

const COLUMNS = `id, kind, lane, state, attempts, next_attempt_at, created_at, updated_at, user_product_id, cell_type, store_key,
  op, delta, quantity, payload, last_status, last_error, reason, store_key2, CAST(sent_version AS TEXT) AS sent_version, sent_at, withdraw`;

/**
 * Read-only queries of the outbox for the screens (main/desktop/outbox-view.ts): the active
 * entries, those of one lane, the product of an entry. Writes go through the sync engine only.
 */
export function outboxViewRepo(db: Db) {
  const list = db.prepare<[OutboxFilter & { limit: number; offset: number }], OutboxViewRow>(
    `SELECT ${COLUMNS} FROM sync_outbox WHERE state <> 'done' AND (@kind IS NULL OR kind = @kind) AND (@state IS NULL OR state = @state)
     ORDER BY id LIMIT @limit OFFSET @offset`,
  );
  const count = db.prepare<[OutboxFilter], { n: number }>(
    `SELECT count(*) AS n FROM sync_outbox WHERE state <> 'done' AND (@kind IS NULL OR kind = @kind) AND (@state IS NULL OR state = @state)`,
  );
  const ofLane = db.prepare<[string], OutboxViewRow>(`SELECT ${COLUMNS} FROM sync_outbox WHERE lane = ? AND state <> 'done' ORDER BY id`);
  const productOf = db.prepare<[number], { user_product_id: string | null }>('SELECT user_product_id FROM sync_outbox WHERE id = ?');

  return {
    /** Active entries (not done) matching the filter, oldest first. */
    list: (filter: OutboxFilter, limit: number, offset: number) => list.all({ ...filter, limit, offset }),
    count: (filter: OutboxFilter) => count.get(filter)!.n,
    /** The active entries of one lane (`pack:<id>`, `up:<user product>`), oldest first. */
    ofLane: (lane: string) => ofLane.all(lane),
    /** The user product of an entry; null for a message or an unknown entry. */
    productOf: (entryId: number) => productOf.get(entryId)?.user_product_id ?? null,
  };
}
export type OutboxViewRepo = ReturnType<typeof outboxViewRepo>;

// Over 400 lines on purpose: every statement of the outbox in one place, with the row shapes they
// read (the claim, the request on the wire and the settling writes share columns and one partial
// index; split apart, their rules would drift).
import { userProductOfCell } from '../../../common/cells.js';
import type { EntryState, OutboxKind } from '../../../common/outbox.js';
import type { StockReason } from '../../../common/stock-reasons.js';
import type { Db } from '../open.js';
import { type HistoryKind, type HistoryRow, type NewHistory, historyRepo } from './history.js';
import type { EditableType } from '../../../common/stock-vocabulary.js';

export type { HistoryKind, HistoryRow, NewHistory };

export type { EntryState };
export type EntryKind = OutboxKind;
export type StockOp = 'adjust' | 'count';
export type { EditableType } from '../../../common/stock-vocabulary.js';

/**
 * One outbox row (migration 007). Versions are 64-bit: they are read as decimal text and handled
 * as bigint by the sync layer.
 */
export interface OutboxRow {
  id: number;
  kind: EntryKind;
  lane: string;
  state: EntryState;
  idempotency_key: string;
  attempts: number;
  next_attempt_at: number;
  created_at: number;
  updated_at: number;
  user_product_id: string | null;
  cell_type: EditableType | null;
  store_key: string | null;
  cell: string | null;
  op: StockOp | null;
  delta: number | null;
  quantity: number | null;
  base_version: string | null;
  base_quantity: number | null;
  sent_version: string | null;
  sent_quantity: number | null;
  sent_at: number | null;
  remote_version: string | null;
  remote_quantity: number | null;
  result_version: string | null;
  payload: string | null;
  result: string | null;
  last_status: number | null;
  last_error: string | null;
  /** 1 once a request under the current key may have reached the remote (migration 010). */
  key_used: number;
  /** 1 when the remote refused the last request (409) and the next attempt must read the stock first. */
  needs_read: number;
  /** Why (migration 013); null on rows queued before it. */
  reason: StockReason | null;
  /** A transfer: the destination cell and store (the entry adds -delta there); null otherwise. */
  cell2: string | null;
  store_key2: string | null;
  /** A transfer's request on the wire: the destination's quantity. */
  sent_quantity2: number | null;
  /** An undo's inverse: the entry it takes back (it follows that entry's fate; migration 022). */
  undoes_entry: number | null;
  /** 1: never coalesces with later edits (a count session's count, an inverse). */
  sealed: number;
  /** 1: the person asked to take it back while its outcome was unknown; the engine learns the outcome first. */
  withdraw: number;
}

export interface NewEntry {
  kind: EntryKind;
  lane: string;
  idempotency_key: string;
  now: number;
  user_product_id?: string | null;
  cell_type?: EditableType | null;
  store_key?: string | null;
  cell?: string | null;
  op?: StockOp | null;
  delta?: number | null;
  quantity?: number | null;
  base_version?: bigint | null;
  base_quantity?: number | null;
  payload?: string | null;
  reason?: StockReason | null;
  cell2?: string | null;
  store_key2?: string | null;
  undoes_entry?: number | null;
  sealed?: boolean;
}

/** What the scheduler keeps in memory per active entry. */
export interface LaneEntry {
  id: number;
  kind: EntryKind;
  state: EntryState;
  cell: string | null;
  /** A transfer's second cell (it holds and is held by both). */
  cell2?: string | null;
  next_attempt_at: number;
  /** 1 when a request of the entry may have reached the remote and its outcome is not known (sent_at kept). */
  on_wire: number;
}

/**
 * What pushing a stock entry reads of it: the intent, the request on the wire, and what settling
 * needs. A claim reads these 21 columns, not the row's 37 (a claim runs for every request sent).
 */
export type StockClaim = Pick<
  OutboxRow,
  | 'id'
  | 'kind'
  | 'idempotency_key'
  | 'attempts'
  | 'user_product_id'
  | 'cell_type'
  | 'store_key'
  | 'cell'
  | 'op'
  | 'delta'
  | 'quantity'
  | 'base_quantity'
  | 'sent_version'
  | 'sent_quantity'
  | 'sent_at'
  | 'key_used'
  | 'needs_read'
  | 'cell2'
  | 'store_key2'
  | 'sent_quantity2'
  | 'withdraw'
>;

/** What claiming an entry may change besides its state (restored by `unclaim`). */
export type ClaimedFields = Pick<OutboxRow, 'sent_version' | 'sent_quantity' | 'sent_quantity2' | 'sent_at' | 'idempotency_key' | 'key_used' | 'needs_read'>;

/** The fields a claim may change besides the state, as they are now (what `unclaim` restores). */
export const claimedFields = (r: ClaimedFields): ClaimedFields => ({
  sent_version: r.sent_version,
  sent_quantity: r.sent_quantity,
  sent_quantity2: r.sent_quantity2,
  sent_at: r.sent_at,
  idempotency_key: r.idempotency_key,
  key_used: r.key_used,
  needs_read: r.needs_read,
});

/** The 21 columns a claim reads of its entry (`o`), in StockClaimTuple's order. */
const STOCK_CLAIM_COLUMNS = `o.id, o.kind, o.idempotency_key, o.attempts, o.user_product_id, o.cell_type, o.store_key, o.cell, o.op, o.delta,
  o.quantity, o.base_quantity, CAST(o.sent_version AS TEXT), o.sent_quantity, o.sent_at, o.key_used, o.needs_read, o.cell2, o.store_key2, o.sent_quantity2,
  o.withdraw`;

const COLUMNS = `id, kind, lane, state, idempotency_key, attempts, next_attempt_at, created_at, updated_at,
  user_product_id, cell_type, store_key, cell, op, delta, quantity,
  CAST(base_version AS TEXT) AS base_version, base_quantity,
  CAST(sent_version AS TEXT) AS sent_version, sent_quantity, sent_at,
  CAST(remote_version AS TEXT) AS remote_version, remote_quantity,
  CAST(result_version AS TEXT) AS result_version, payload, result, last_status, last_error, key_used, needs_read,
  reason, cell2, store_key2, sent_quantity2, undoes_entry, sealed, withdraw`;

/**
 * What a claim plans from: the mirror's version of the entry's user product (null when the mirror
 * does not have it) and its quantities at the entry's cell and, for a transfer, its second store
 * (undefined when the mirror has no such location).
 */
export interface ClaimMirror {
  version: bigint | null;
  quantity: number | undefined;
  quantity2: number | undefined;
}

/** A row of STOCK_CLAIM_COLUMNS read as an array (raw), in its order; each value typed as OutboxRow types its column. */
type StockClaimTuple = [
  id: OutboxRow['id'],
  kind: OutboxRow['kind'],
  idempotency_key: OutboxRow['idempotency_key'],
  attempts: OutboxRow['attempts'],
  user_product_id: OutboxRow['user_product_id'],
  cell_type: OutboxRow['cell_type'],
  store_key: OutboxRow['store_key'],
  cell: OutboxRow['cell'],
  op: OutboxRow['op'],
  delta: OutboxRow['delta'],
  quantity: OutboxRow['quantity'],
  base_quantity: OutboxRow['base_quantity'],
  sent_version: OutboxRow['sent_version'],
  sent_quantity: OutboxRow['sent_quantity'],
  sent_at: OutboxRow['sent_at'],
  key_used: OutboxRow['key_used'],
  needs_read: OutboxRow['needs_read'],
  cell2: OutboxRow['cell2'],
  store_key2: OutboxRow['store_key2'],
  sent_quantity2: OutboxRow['sent_quantity2'],
  withdraw: OutboxRow['withdraw'],
];

/** A row of pendingStock read as an array: the claim's 21 columns, then the mirror's version (decimal text) and quantities. */
type PendingStockTuple = [...StockClaimTuple, version: string | null, quantity: number | null, quantity2: number | null];

/** A row of the lane queries read as an array (raw), in their SELECT's order. */
type LaneTuple = [
  id: LaneEntry['id'],
  kind: LaneEntry['kind'],
  state: LaneEntry['state'],
  cell: LaneEntry['cell'],
  cell2: OutboxRow['cell2'],
  next_attempt_at: LaneEntry['next_attempt_at'],
  on_wire: LaneEntry['on_wire'],
  lane: OutboxRow['lane'],
];

/** A row of stockOfLane read as an array: the claim's 21 columns, the state, when due, and the mirror's quantity at its cell. */
type LaneStockTuple = [...StockClaimTuple, state: EntryState, next_attempt_at: number, quantity: number | null];

/** A stock entry of a lane as a batch claim reads it (stock-batch.ts). */
export interface LaneStock {
  row: StockClaim;
  state: EntryState;
  next_attempt_at: number;
  /** The mirror's quantity at the entry's cell (undefined: no such location). */
  quantity: number | undefined;
}

/** The claim of a row of pendingStock or stockOfLane (its first 21 values). */
function stockClaimOf(r: [...StockClaimTuple, ...unknown[]]): StockClaim {
  return {
    id: r[0],
    kind: r[1],
    idempotency_key: r[2],
    attempts: r[3],
    user_product_id: r[4],
    cell_type: r[5],
    store_key: r[6],
    cell: r[7],
    op: r[8],
    delta: r[9],
    quantity: r[10],
    base_quantity: r[11],
    sent_version: r[12],
    sent_quantity: r[13],
    sent_at: r[14],
    key_used: r[15],
    needs_read: r[16],
    cell2: r[17],
    store_key2: r[18],
    sent_quantity2: r[19],
    withdraw: r[20],
  };
}

/** A row of the lane queries as the scheduler keeps it. */
const laneEntryOf = (r: LaneTuple): LaneEntry & { lane: string } => ({
  id: r[0],
  kind: r[1],
  state: r[2],
  cell: r[3],
  cell2: r[4],
  next_attempt_at: r[5],
  on_wire: r[6],
  lane: r[7],
});

/** The outbox, the cell history and the small sync state (migration 007). */
export function syncRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO sync_outbox (kind, lane, state, idempotency_key, attempts, next_attempt_at, created_at, updated_at,
       user_product_id, cell_type, store_key, cell, op, delta, quantity, base_version, base_quantity, payload, reason, cell2, store_key2,
       undoes_entry, sealed)
     VALUES (@kind, @lane, 'pending', @idempotency_key, 0, @now, @now, @now,
       @user_product_id, @cell_type, @store_key, @cell, @op, @delta, @quantity, @base_version, @base_quantity, @payload, @reason, @cell2, @store_key2,
       @undoes_entry, @sealed)`,
  );
  const byId = db.prepare<[number], OutboxRow>(`SELECT ${COLUMNS} FROM sync_outbox WHERE id = ?`);
  // A transfer is an entry of both its cells.
  const activeOfCell = db.prepare<[string, string, string, string], OutboxRow>(
    `SELECT ${COLUMNS} FROM sync_outbox WHERE lane = ? AND cell = ? AND state <> 'done'
     UNION ALL SELECT ${COLUMNS} FROM sync_outbox WHERE lane = ? AND cell2 = ? AND state <> 'done' AND cell2 IS NOT NULL ORDER BY id`,
  );
  const activeAll = db.prepare<[], OutboxRow>(`SELECT ${COLUMNS} FROM sync_outbox WHERE state <> 'done' ORDER BY id`);
  // Raw rows (laneEntryOf builds the objects): a start reads every active entry.
  const activeOfLane = db
    .prepare<[string], LaneTuple>(
      `SELECT id, kind, state, cell, cell2, next_attempt_at, sent_at IS NOT NULL AS on_wire, lane FROM sync_outbox WHERE lane = ? AND state <> 'done' ORDER BY id`,
    )
    .raw(true);
  const activeLanes = db
    .prepare<[], LaneTuple>(
      `SELECT id, kind, state, cell, cell2, next_attempt_at, sent_at IS NOT NULL AS on_wire, lane FROM sync_outbox WHERE state <> 'done' ORDER BY id`,
    )
    .raw(true);
  const activeOfProducts = db.prepare<[string], OutboxRow>(
    `SELECT ${COLUMNS} FROM sync_outbox WHERE state <> 'done' AND user_product_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
  );
  const updateIntent = db.prepare<
    [{ id: number; op: StockOp; delta: number | null; quantity: number | null; base_version: bigint | null; base_quantity: number | null; now: number }]
  >(
    `UPDATE sync_outbox SET op = @op, delta = @delta, quantity = @quantity, base_version = @base_version,
       base_quantity = @base_quantity, updated_at = @now WHERE id = @id`,
  );
  const remove = db.prepare<[number]>('DELETE FROM sync_outbox WHERE id = ?');
  // Claiming is not an attempt: attempts are charged when an outcome is recorded, so a crash or a
  // restart between the claim and the answer costs the entry nothing.
  const claim = db.prepare<[number, number], OutboxRow>(
    `UPDATE sync_outbox SET state = 'in_flight', updated_at = ?
      WHERE id = ? AND state = 'pending' RETURNING ${COLUMNS}`,
  );
  // A pending stock entry with what its claim plans from in the mirror, in one statement (it runs
  // for every request sent): the product's version and the quantities of the entry's cell(s), as
  // mirrorRepo's product() and cellQuantity() read them. Read as an array (raw): better-sqlite3
  // builds a row object property by property, which costs more than the read itself for 23
  // columns; the object literal of stockClaimOf is built by V8 at once.
  const pendingStock = db
    .prepare<[number], PendingStockTuple>(
      `SELECT ${STOCK_CLAIM_COLUMNS},
         CAST(p.version AS TEXT), l.quantity, l2.quantity
       FROM sync_outbox o
       LEFT JOIN user_products p ON p.id = o.user_product_id
       LEFT JOIN stock_locations l ON l.user_product_id = o.user_product_id AND l.type = o.cell_type AND l.store_key = coalesce(o.store_key, '')
       LEFT JOIN stock_locations l2 ON o.cell2 IS NOT NULL AND l2.user_product_id = o.user_product_id AND l2.type = o.cell_type
         AND l2.store_key = coalesce(o.store_key2, '')
       WHERE o.id = ? AND o.state = 'pending' AND o.kind = 'stock'`,
    )
    .raw(true);
  // A user product's active stock entries with the mirror's quantity at each one's cell: what a
  // batch claim (stock-batch.ts) gathers from; raw for the reason pendingStock is.
  const stockOfLane = db
    .prepare<[string], LaneStockTuple>(
      `SELECT ${STOCK_CLAIM_COLUMNS}, o.state, o.next_attempt_at, l.quantity
       FROM sync_outbox o
       LEFT JOIN stock_locations l ON l.user_product_id = o.user_product_id AND l.type = o.cell_type AND l.store_key = coalesce(o.store_key, '')
       WHERE o.lane = ? AND o.state <> 'done' AND o.kind = 'stock' ORDER BY o.id`,
    )
    .raw(true);
  // A member's share of a batch request (one key for the whole request); `claim` 1 also claims it.
  const setBatchSent = db.prepare<[{ id: number; version: bigint; quantity: number; now: number; key: string; claim: number }]>(
    `UPDATE sync_outbox SET state = CASE WHEN @claim = 1 THEN 'in_flight' ELSE state END, sent_version = @version, sent_quantity = @quantity,
       sent_quantity2 = NULL, sent_at = @now, updated_at = @now, idempotency_key = @key, key_used = 1, needs_read = 0
     WHERE id = @id AND state = CASE WHEN @claim = 1 THEN 'pending' ELSE 'in_flight' END`,
  );
  const claimQuiet = db.prepare<[number, number]>(`UPDATE sync_outbox SET state = 'in_flight', updated_at = ? WHERE id = ? AND state = 'pending'`);
  // The claim and its new request in one write (setSent's rules for the key). Positional, and the
  // key not read back (the caller has the row): it runs for every request sent.
  const claimSending = db.prepare<[bigint, number, number | null, number, number, string | null, number]>(
    `UPDATE sync_outbox SET state = 'in_flight', sent_version = ?, sent_quantity = ?, sent_quantity2 = ?, sent_at = ?,
       updated_at = ?, idempotency_key = CASE WHEN key_used = 1 THEN ? ELSE idempotency_key END, key_used = 1, needs_read = 0
     WHERE id = ? AND state = 'pending'`,
  );
  // Undoes a claim whose request never went out: the entry is as it was before it.
  const unclaim = db.prepare<[{ id: number; now: number; sent_version: bigint | null } & Omit<ClaimedFields, 'sent_version'>]>(
    `UPDATE sync_outbox SET state = 'pending', sent_version = @sent_version, sent_quantity = @sent_quantity, sent_quantity2 = @sent_quantity2,
       sent_at = @sent_at, idempotency_key = @idempotency_key, key_used = @key_used, needs_read = @needs_read, updated_at = @now
     WHERE id = @id AND state = 'in_flight'`,
  );
  // A new request: once a key may have reached the remote, new content never goes out under it
  // (`fresh` null there: idempotency_key is NOT NULL, so the write fails rather than reuse the key).
  const setSent = db.prepare<
    [{ id: number; version: bigint; quantity: number; quantity2: number | null; now: number; fresh: string | null }],
    { idempotency_key: string }
  >(
    `UPDATE sync_outbox SET sent_version = @version, sent_quantity = @quantity, sent_quantity2 = @quantity2, sent_at = @now, updated_at = @now,
       idempotency_key = CASE WHEN key_used = 1 THEN @fresh ELSE idempotency_key END, key_used = 1, needs_read = 0
     WHERE id = @id RETURNING idempotency_key`,
  );
  const clearSent = db.prepare<[number]>(
    'UPDATE sync_outbox SET sent_version = NULL, sent_quantity = NULL, sent_quantity2 = NULL, sent_at = NULL WHERE id = ?',
  );
  const markRefused = db.prepare<[number, number]>(
    'UPDATE sync_outbox SET sent_version = NULL, sent_quantity = NULL, sent_quantity2 = NULL, sent_at = NULL, needs_read = 1, updated_at = ? WHERE id = ?',
  );
  const setNextAttempt = db.prepare<[number, number]>('UPDATE sync_outbox SET next_attempt_at = ? WHERE id = ?');
  // Positional: it runs for every answer recorded.
  const markDone = db.prepare<[bigint | null, string | null, number, number, number]>(
    `UPDATE sync_outbox SET state = 'done', attempts = attempts + 1, result_version = ?, result = ?, last_status = ?,
       last_error = NULL, sent_version = NULL, sent_quantity = NULL, sent_quantity2 = NULL, sent_at = NULL, withdraw = 0, updated_at = ? WHERE id = ?`,
  );
  const reschedule = db.prepare<[{ id: number; next: number; status: number | null; error: string; charge: number; now: number }]>(
    `UPDATE sync_outbox SET state = 'pending', next_attempt_at = @next, last_status = @status, last_error = @error,
       attempts = attempts + @charge, updated_at = @now WHERE id = @id`,
  );
  const setConflictRemote = db.prepare<[{ id: number; remote_version: bigint | null; remote_quantity: number; now: number }]>(
    `UPDATE sync_outbox SET remote_version = @remote_version, remote_quantity = @remote_quantity, updated_at = @now WHERE id = @id AND state = 'conflict'`,
  );
  const markConflict = db.prepare<[{ id: number; remote_version: bigint; remote_quantity: number; now: number; error: string }]>(
    `UPDATE sync_outbox SET state = 'conflict', attempts = attempts + 1, remote_version = @remote_version, remote_quantity = @remote_quantity,
       sent_version = NULL, sent_quantity = NULL, sent_quantity2 = NULL, sent_at = NULL, last_status = 409,
       last_error = @error, needs_read = 0, withdraw = 0, updated_at = @now WHERE id = @id`,
  );
  // Unknown (attempts spent after lost answers): the request on the wire is kept, since it may
  // have been applied; a retry resends exactly it under the same key (the remote replays its
  // answer if it had). Refused: nothing of it was applied, the request is dropped (a retry plans
  // anew). `withdraw` ends either way: a refusal answers the check, and an unknown waits for the person.
  const markFailed = db.prepare<[{ id: number; status: number | null; error: string; charge: number; now: number; refused: number }]>(
    `UPDATE sync_outbox SET state = 'failed', last_status = @status, last_error = @error, attempts = attempts + @charge,
       sent_version = CASE WHEN @refused = 1 THEN NULL ELSE sent_version END,
       sent_quantity = CASE WHEN @refused = 1 THEN NULL ELSE sent_quantity END,
       sent_quantity2 = CASE WHEN @refused = 1 THEN NULL ELSE sent_quantity2 END,
       sent_at = CASE WHEN @refused = 1 THEN NULL ELSE sent_at END,
       withdraw = 0, updated_at = @now WHERE id = @id`,
  );
  // Undo or discard of an entry whose outcome is unknown: back to pending to learn it first.
  const setWithdraw = db.prepare<[{ id: number; now: number }]>(
    `UPDATE sync_outbox SET state = 'pending', withdraw = 1, attempts = 0, next_attempt_at = @now, last_error = NULL, updated_at = @now
      WHERE id = @id AND state = 'failed'`,
  );
  // A message's request is about to go out: from now on its outcome may be unknown.
  const setMessageSent = db.prepare<[{ id: number; now: number }]>('UPDATE sync_outbox SET sent_at = @now, key_used = 1, updated_at = @now WHERE id = @id');
  // Whether a marketplace message is already the outcome of a message entry (a sent one, or one found after its answer was lost).
  const messageSettled = db.prepare<[string], number>(`SELECT 1 FROM sync_outbox WHERE kind = 'message' AND state = 'done' AND result = ?`).pluck(true);
  // Message entries whose request may have reached the marketplace (waiting to be resent, or of
  // unknown outcome), each with the mirrored messages that could be it: the seller's, in its
  // conversation, with its text, dated after it was queued (less 15 minutes of clock skew), not
  // already another entry's.
  const sentCandidates = db.prepare<[], { entry_id: number; message_id: string; files: number; wanted: number }>(
    `SELECT o.id AS entry_id, m.id AS message_id,
            (SELECT count(*) FROM attachments a WHERE a.message_id = m.id) AS files,
            json_array_length(o.payload, '$.attachments') AS wanted
       FROM sync_outbox o
       JOIN messages m ON m.pack_key = json_extract(o.payload, '$.packId') AND m.from_user_id = json_extract(o.payload, '$.sellerId')
        AND m.text = json_extract(o.payload, '$.text')
        AND julianday(m.date_created) >= julianday(o.created_at / 1000.0, 'unixepoch') - 15.0 / 1440
      WHERE o.kind = 'message' AND o.state IN ('pending', 'failed') AND o.sent_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM sync_outbox d WHERE d.kind = 'message' AND d.state = 'done' AND d.result = m.id)
      ORDER BY o.id, m.seq`,
  );
  const inversesOf = db.prepare<[number], OutboxRow>(`SELECT ${COLUMNS} FROM sync_outbox WHERE undoes_entry = ? AND state <> 'done' ORDER BY id`);
  const reopen = db.prepare<[{ id: number; now: number }]>(
    `UPDATE sync_outbox SET state = 'pending', attempts = 0, next_attempt_at = @now, last_error = NULL, last_status = NULL,
       remote_version = NULL, remote_quantity = NULL, withdraw = 0, updated_at = @now WHERE id = @id`,
  );
  const recoverInFlight = db.prepare<[number]>(`UPDATE sync_outbox SET state = 'pending', updated_at = ? WHERE state = 'in_flight'`);
  const setPayload = db.prepare<[string, number, number]>('UPDATE sync_outbox SET payload = ?, updated_at = ? WHERE id = ?');
  const pruneDone = db.prepare<[number]>(`DELETE FROM sync_outbox WHERE state = 'done' AND updated_at < ?`);
  // A pull must not write their stock into the mirror: a request of theirs may have been applied,
  // outcome unknown (on the wire, or failed after lost answers), and the grid would count it twice.
  const productsOnTheWire = db.prepare<[], { user_product_id: string }>(
    `SELECT DISTINCT user_product_id FROM sync_outbox
      WHERE kind = 'stock' AND ((state IN ('pending', 'in_flight') AND sent_version IS NOT NULL) OR (state = 'failed' AND sent_at IS NOT NULL))`,
  );
  const counts = db.prepare<[], { state: EntryState; n: number }>(`SELECT state, count(*) AS n FROM sync_outbox GROUP BY state`);

  const history = historyRepo(db);

  const getState = db.prepare<[string], { value: string }>('SELECT value FROM sync_state WHERE key = ?');
  const setState = db.prepare<[string, string]>('INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');

  return {
    insert: (e: NewEntry): number =>
      Number(
        insert.run({
          user_product_id: null,
          cell_type: null,
          store_key: null,
          cell: null,
          op: null,
          delta: null,
          quantity: null,
          base_version: null,
          base_quantity: null,
          payload: null,
          reason: null,
          cell2: null,
          store_key2: null,
          undoes_entry: null,
          ...e,
          sealed: e.sealed === true ? 1 : 0,
        }).lastInsertRowid,
      ),
    byId: (id: number) => byId.get(id),
    /** Active entries of a stock cell (`<user product>|<type>|<store>`), oldest first; a transfer is in both of its cells. */
    activeOfCell: (cell: string) => {
      const lane = `up:${userProductOfCell(cell)}`;
      return activeOfCell.all(lane, cell, lane, cell);
    },
    activeAll: () => activeAll.all(),
    /** The scheduler's view of a lane: its active entries, oldest first. */
    activeOfLane: (lane: string): LaneEntry[] => activeOfLane.all(lane).map(laneEntryOf),
    activeLanes: (): (LaneEntry & { lane: string })[] => activeLanes.all().map(laneEntryOf),
    activeOfProducts: (ids: string[]) => activeOfProducts.all(JSON.stringify(ids)),
    updateIntent: (
      id: number,
      i: { op: StockOp; delta: number | null; quantity: number | null; base_version: bigint | null; base_quantity: number | null },
      now: number,
    ) => updateIntent.run({ id, ...i, now }),
    remove: (id: number) => remove.run(id).changes === 1,
    claim: (id: number, now: number) => claim.get(now, id),
    /**
     * A pending stock entry as a claim reads it, and the mirror its claim plans from (nothing
     * written); undefined when it is not pending.
     */
    pendingStock: (id: number): { row: StockClaim; mirror: ClaimMirror } | undefined => {
      const r = pendingStock.get(id);
      if (r === undefined) return undefined;
      const version = r[21];
      return {
        row: stockClaimOf(r),
        mirror: {
          version: version === null ? null : BigInt(version),
          quantity: r[22] ?? undefined,
          quantity2: r[23] ?? undefined,
        },
      };
    },
    /** The active stock entries of a lane (`up:<id>`), oldest first, each with the mirror's quantity at its cell. */
    stockOfLane: (lane: string): LaneStock[] =>
      stockOfLane.all(lane).map((r) => ({ row: stockClaimOf(r), state: r[21], next_attempt_at: r[22], quantity: r[23] ?? undefined })),
    /**
     * Persists a member's share of a batch request under the batch's key (`claim`: and claims the
     * pending entry; else it is in flight already); false when the entry is not in that state.
     */
    setBatchSent: (id: number, version: bigint, quantity: number, key: string, now: number, claim: boolean) =>
      setBatchSent.run({ id, version, quantity, key, now, claim: claim ? 1 : 0 }).changes === 1,
    /** Claims a pending entry without reading it back; false when it is not pending. */
    claimQuiet: (id: number, now: number) => claimQuiet.run(now, id).changes === 1,
    /**
     * Claims a pending entry and persists its new request in one write; returns the key it goes out
     * under (`fresh` when the old one may have reached the remote), undefined when it is not pending.
     * `row`: the entry as read in this transaction (its key and key_used are what the write sees).
     */
    claimSending: (
      row: Pick<StockClaim, 'id' | 'idempotency_key' | 'key_used'>,
      version: bigint,
      quantity: number,
      now: number,
      fresh: string | null,
      quantity2: number | null = null,
    ): string | undefined => {
      // A used key with no fresh one fails the write (idempotency_key is NOT NULL): never reused.
      if (claimSending.run(version, quantity, quantity2, now, now, fresh, row.id).changes !== 1) return undefined;
      return row.key_used === 1 ? (fresh ?? undefined) : row.idempotency_key;
    },
    /**
     * Puts a claimed entry whose request never went out back to pending, its request fields as
     * they were before the claim (`before`); false when it is not in flight.
     */
    unclaim: (id: number, before: ClaimedFields, now: number) =>
      unclaim.run({
        id,
        now,
        sent_version: before.sent_version === null ? null : BigInt(before.sent_version),
        sent_quantity: before.sent_quantity,
        sent_quantity2: before.sent_quantity2,
        sent_at: before.sent_at,
        idempotency_key: before.idempotency_key,
        key_used: before.key_used,
        needs_read: before.needs_read,
      }).changes === 1,
    /** Persists a new request; returns the key it goes out under (fresh when the old one may have reached the remote). */
    setSent: (id: number, version: bigint, quantity: number, now: number, fresh: string | null, quantity2: number | null = null): string =>
      setSent.get({ id, version, quantity, quantity2, now, fresh })!.idempotency_key,
    clearSent: (id: number) => clearSent.run(id),
    /** The remote refused the request on the wire (409): drop it, and read the stock before the next one. */
    markRefused: (id: number, now: number) => markRefused.run(now, id),
    setNextAttempt: (id: number, at: number) => setNextAttempt.run(at, id),
    markDone: (id: number, d: { result_version: bigint | null; result: string | null; status: number }, now: number) =>
      markDone.run(d.result_version, d.result, d.status, now, id),
    /** Back to pending at `next`; `charge`: count it as an attempt (not when offline: nothing was really tried). */
    reschedule: (id: number, next: number, status: number | null, error: string, charge: boolean, now: number) =>
      reschedule.run({ id, next, status, error, charge: charge ? 1 : 0, now }),
    markConflict: (id: number, remoteVersion: bigint, remoteQuantity: number, now: number, error = 'The marketplace quantity changed since the count') =>
      markConflict.run({ id, remote_version: remoteVersion, remote_quantity: remoteQuantity, now, error }),
    /** A conflict's remote figure moved (an earlier entry of its cell was dropped); false when it is no longer a conflict. */
    setConflictRemote: (id: number, remoteVersion: bigint | null, remoteQuantity: number, now: number) =>
      setConflictRemote.run({ id, remote_version: remoteVersion, remote_quantity: remoteQuantity, now }).changes === 1,
    /**
     * `refused`: the remote said no for good (nothing applied; the request is dropped), else the
     * outcome is unknown when a request was out (it is kept). `charge`: it was an attempt.
     */
    markFailed: (id: number, status: number | null, error: string, now: number, refused: boolean, charge = true) =>
      markFailed.run({ id, status, error, charge: charge ? 1 : 0, now, refused: refused ? 1 : 0 }),
    /** The person takes back a failed entry of unknown outcome: pending again, to learn it first; false when not failed. */
    setWithdraw: (id: number, now: number) => setWithdraw.run({ id, now }).changes === 1,
    setMessageSent: (id: number, now: number) => setMessageSent.run({ id, now }),
    messageSettled: (messageId: string) => messageSettled.get(messageId) === 1,
    /** Mirrored messages that may be what a message entry sent (sentCandidates above), in entry order. */
    sentCandidates: () => sentCandidates.all(),
    /** The active inverses that take back `id` (an undo while its fate was open). */
    inversesOf: (id: number) => inversesOf.all(id),
    reopen: (id: number, now: number) => reopen.run({ id, now }),
    recoverInFlight: (now: number) => recoverInFlight.run(now).changes,
    setPayload: (id: number, payload: string, now: number) => setPayload.run(payload, now, id),
    pruneDone: (before: number) => pruneDone.run(before).changes,
    /** User products with a stock request whose outcome is not known yet. */
    productsOnTheWire: () => new Set(productsOnTheWire.all().map((r) => r.user_product_id)),
    counts: (): Record<EntryState, number> => {
      const out: Record<EntryState, number> = { pending: 0, in_flight: 0, done: 0, conflict: 0, failed: 0 };
      for (const r of counts.all()) out[r.state] = r.n;
      return out;
    },

    insertHistory: history.insert,
    historyOf: history.of,
    historyById: history.byId,
    historyLinkedTo: history.linkedTo,
    lastEditOf: history.lastEditOf,
    entryHasEarlierEdit: history.entryHasEarlierEdit,

    getState: (key: string) => getState.get(key)?.value,
    setState: (key: string, value: string) => setState.run(key, value),
  };
}
export type SyncRepo = ReturnType<typeof syncRepo>;

import type { Db } from '../open.js';

export type CountSessionState = 'open' | 'applied' | 'cancelled';
export type CountOutcome = 'queued' | 'merged' | 'resolved' | 'applied' | 'unchanged' | 'skipped';

export interface CountSessionRow {
  id: number;
  seller_id: number;
  store_id: string;
  filter: string | null;
  blind: 0 | 1;
  state: CountSessionState;
  author: string;
  /** The workstation's operator who started it (migration 025), as named then. */
  operator_name: string | null;
  created_at: number;
  updated_at: number;
  applied_at: number | null;
  lines: number;
  counted: number;
}

export interface CountLineRow {
  session_id: number;
  user_product_id: string;
  position: number;
  title: string | null;
  start_quantity: number;
  counted: number | null;
  counted_at: number | null;
  /** The operator who counted it last (migration 025); null: the account alone. */
  counted_by: string | null;
  base_version: string | null;
  base_quantity: number | null;
  entry_id: number | null;
  history_id: number | null;
  outcome: CountOutcome | null;
}

export type NewCountLine = Pick<CountLineRow, 'user_product_id' | 'title' | 'start_quantity'>;

interface NewSession {
  seller_id: number;
  store_id: string;
  filter: string | null;
  blind: number;
  author: string;
  operator_id: number | null;
  operator_name: string | null;
  now: number;
}

const SESSION_COLUMNS = `s.id, s.seller_id, s.store_id, s.filter, s.blind, s.state, s.author, s.operator_name, s.created_at, s.updated_at, s.applied_at,
  (SELECT count(*) FROM count_lines l WHERE l.session_id = s.id) AS lines,
  (SELECT count(*) FROM count_lines l WHERE l.session_id = s.id AND l.counted IS NOT NULL) AS counted`;

/** Count sessions and their lines (migration 014); the only SQL of the counts. */
export function countSessionsRepo(db: Db) {
  const insertSession = db.prepare<[NewSession & { blind: number }]>(
    `INSERT INTO count_sessions (seller_id, store_id, filter, blind, state, author, operator_id, operator_name, created_at, updated_at)
     VALUES (@seller_id, @store_id, @filter, @blind, 'open', @author, @operator_id, @operator_name, @now, @now)`,
  );
  const insertLine = db.prepare<[{ session_id: number; user_product_id: string; position: number; title: string | null; start_quantity: number }]>(
    `INSERT INTO count_lines (session_id, user_product_id, position, title, start_quantity)
     VALUES (@session_id, @user_product_id, @position, @title, @start_quantity)`,
  );
  const session = db.prepare<[number, number], CountSessionRow>(`SELECT ${SESSION_COLUMNS} FROM count_sessions s WHERE s.id = ? AND s.seller_id = ?`);
  const recent = db.prepare<[number, number], CountSessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM count_sessions s WHERE s.seller_id = ? ORDER BY s.state <> 'open', s.id DESC LIMIT ?`,
  );
  const lines = db.prepare<[number, number, number], CountLineRow>('SELECT * FROM count_lines WHERE session_id = ? ORDER BY position LIMIT ? OFFSET ?');
  const countedLines = db.prepare<[number], CountLineRow>('SELECT * FROM count_lines WHERE session_id = ? AND counted IS NOT NULL ORDER BY position');
  const line = db.prepare<[number, string], CountLineRow>('SELECT * FROM count_lines WHERE session_id = ? AND user_product_id = ?');
  const lastPosition = db.prepare<[number], { p: number | null }>('SELECT max(position) AS p FROM count_lines WHERE session_id = ?');
  const setCounted = db.prepare<
    [
      {
        session_id: number;
        user_product_id: string;
        counted: number | null;
        at: number | null;
        by: string | null;
        version: string | null;
        quantity: number | null;
      },
    ]
  >(
    `UPDATE count_lines SET counted = @counted, counted_at = @at, counted_by = @by, base_version = @version, base_quantity = @quantity
     WHERE session_id = @session_id AND user_product_id = @user_product_id`,
  );
  const setOutcome = db.prepare<[{ session_id: number; user_product_id: string; entry_id: number | null; history_id: number | null; outcome: CountOutcome }]>(
    `UPDATE count_lines SET entry_id = @entry_id, history_id = @history_id, outcome = @outcome
     WHERE session_id = @session_id AND user_product_id = @user_product_id`,
  );
  const storeLabel = db.prepare<[string], { description: string }>('SELECT description FROM stores WHERE id = ?');
  const titleOf = db.prepare<[string], { title: string }>('SELECT title FROM items WHERE user_product_id = ? ORDER BY id LIMIT 1');
  const skipUncounted = db.prepare<[number]>("UPDATE count_lines SET outcome = 'skipped' WHERE session_id = ? AND counted IS NULL");
  // An applied line's entry that is gone because the person dropped it (not pruned after it was sent).
  const entryDropped = db
    .prepare<[number], number>(
      "SELECT 1 FROM sync_cell_history WHERE entry_id = ? AND (kind = 'discarded' OR (kind = 'conflict_resolution' AND note = 'take theirs')) LIMIT 1",
    )
    .pluck(true);
  const touch = db.prepare<[number, number]>('UPDATE count_sessions SET updated_at = ? WHERE id = ?');
  // Only an open session changes state: a second apply (a double click, a retried call) finds none.
  const close = db.prepare<[CountSessionState, number, number | null, number]>(
    "UPDATE count_sessions SET state = ?, updated_at = ?, applied_at = ? WHERE id = ? AND state = 'open'",
  );

  return {
    /** A new open session with its lines, in one transaction. */
    create(
      s: Omit<NewSession, 'blind' | 'operator_id' | 'operator_name'> & Partial<Pick<NewSession, 'operator_id' | 'operator_name'>> & { blind: boolean },
      rows: NewCountLine[],
    ): number {
      return db.transaction(() => {
        const id = Number(insertSession.run({ operator_id: null, operator_name: null, ...s, blind: s.blind ? 1 : 0 }).lastInsertRowid);
        rows.forEach((r, position) => insertLine.run({ session_id: id, position, ...r }));
        return id;
      })();
    },
    session: (id: number, sellerId: number) => session.get(id, sellerId),
    /** The seller's sessions, open ones first, newest first. */
    recent: (sellerId: number, limit: number) => recent.all(sellerId, limit),
    lines: (sessionId: number, limit: number, offset: number) => lines.all(sessionId, limit, offset),
    countedLines: (sessionId: number) => countedLines.all(sessionId),
    line: (sessionId: number, userProductId: string) => line.get(sessionId, userProductId),
    /** A product found by a scan that the session did not list: a new line at the end. */
    addLine(sessionId: number, r: NewCountLine): void {
      const p = lastPosition.get(sessionId)?.p ?? -1;
      insertLine.run({ session_id: sessionId, position: p + 1, ...r });
    },
    setCounted(
      sessionId: number,
      userProductId: string,
      c: { counted: number | null; at: number | null; by: string | null; version: string | null; quantity: number | null },
    ): void {
      setCounted.run({ session_id: sessionId, user_product_id: userProductId, ...c });
    },
    setOutcome(sessionId: number, userProductId: string, o: { entry_id: number | null; history_id: number | null; outcome: CountOutcome }): void {
      setOutcome.run({ session_id: sessionId, user_product_id: userProductId, ...o });
    },
    touch: (id: number, now: number) => touch.run(now, id),
    /** Whether the person discarded outbox entry `entryId`, or took the marketplace's value over it. */
    entryDropped: (entryId: number) => entryDropped.get(entryId) === 1,
    /** Marks the lines left uncounted at the apply. */
    skipUncounted: (sessionId: number) => skipUncounted.run(sessionId),
    storeLabel: (storeId: string) => storeLabel.get(storeId)?.description ?? null,
    /** The title of a user product's first item (a scanned product new to the session). */
    titleOf: (userProductId: string) => titleOf.get(userProductId)?.title ?? null,
    /** Applied or cancelled; false when the session was not open any more. */
    close: (id: number, state: Exclude<CountSessionState, 'open'>, now: number): boolean =>
      close.run(state, now, state === 'applied' ? now : null, id).changes === 1,
  };
}
export type CountSessionsRepo = ReturnType<typeof countSessionsRepo>;

import type { HistoryEntryView } from '../../../common/views.js';
import type { Db } from '../open.js';

/** A cell's history row; the screens receive it as it is (the shape is the preload contract's). */
export type HistoryRow = HistoryEntryView;
export type HistoryKind = HistoryRow['kind'];
export type NewHistory = Omit<HistoryRow, 'id'>;

/**
 * Who changed which stock cell, when, how, from what to what (migration 007's
 * `sync_cell_history`). Written in the same transaction as the change it describes: by the outbox
 * for queued edits, by the stock service for edits applied where it is the marketplace, by the
 * sync for what the marketplace changed.
 */
export function historyRepo(db: Db) {
  const insert = db.prepare<[NewHistory]>(
    `INSERT INTO sync_cell_history (cell, user_product_id, cell_type, store_key, kind, author, at, from_quantity, to_quantity, delta, entry_id, ref, note)
     VALUES (@cell, @user_product_id, @cell_type, @store_key, @kind, @author, @at, @from_quantity, @to_quantity, @delta, @entry_id, @ref, @note)`,
  );
  // Newest first, paged by id (a keyset: page 40 costs what page 1 does).
  const page = db.prepare<[string, number, number], HistoryRow>('SELECT * FROM sync_cell_history WHERE cell = ? AND id < ? ORDER BY id DESC LIMIT ?');
  return {
    insert: (h: NewHistory) => Number(insert.run(h).lastInsertRowid),
    /** `limit` rows of the cell, newest first, older than the row `before` when given. */
    of: (cell: string, limit: number, before?: number) => page.all(cell, before ?? Number.MAX_SAFE_INTEGER, limit),
  };
}
export type HistoryRepo = ReturnType<typeof historyRepo>;

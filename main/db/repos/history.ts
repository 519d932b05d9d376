import type { HistoryEntryView } from '../../../common/views.js';
import type { Db } from '../open.js';

/** A cell's history row; the screens receive it as it is (its shape is in common/views.ts). */
export type HistoryRow = HistoryEntryView;
export type HistoryKind = HistoryRow['kind'];
export type NewHistory = Omit<HistoryRow, 'id'>;

/**
 * Who changed which stock cell, when, how, why, from what to what (migration 007's
 * `sync_cell_history`, with 013's reason, undo and transfer link, 025's operator). Written in the same transaction
 * as the change it describes: by the outbox for queued edits, by the stock service for edits
 * applied where it is the marketplace, by the sync for what the marketplace changed.
 */
export function historyRepo(db: Db) {
  const insert = db.prepare<[Required<NewHistory>]>(
    `INSERT INTO sync_cell_history (cell, user_product_id, cell_type, store_key, kind, author, at, from_quantity, to_quantity, delta, entry_id, ref, note, reason, undoes, link,
       operator_id, operator_name)
     VALUES (@cell, @user_product_id, @cell_type, @store_key, @kind, @author, @at, @from_quantity, @to_quantity, @delta, @entry_id, @ref, @note, @reason, @undoes, @link,
       @operator_id, @operator_name)`,
  );
  // Newest first, paged by id (a keyset: page 40 costs what page 1 does).
  const page = db.prepare<[string, number, number], HistoryRow>('SELECT * FROM sync_cell_history WHERE cell = ? AND id < ? ORDER BY id DESC LIMIT ?');
  const byId = db.prepare<[number], HistoryRow>('SELECT * FROM sync_cell_history WHERE id = ?');
  const linked = db.prepare<[number], HistoryRow>('SELECT * FROM sync_cell_history WHERE link = ? ORDER BY id LIMIT 1');
  // An author's newest edit not undone yet: an undo itself, and a transfer's second row, are not
  // edits of their own; nor is an edit the person already dropped (its entry discarded, or its
  // count resolved "take theirs"): undoing it again would send the inverse of nothing.
  const lastEdit = db.prepare<[string], HistoryRow>(
    `SELECT h.* FROM sync_cell_history h
      WHERE h.author = ? AND h.kind IN ('adjustment', 'count') AND h.undoes IS NULL AND h.link IS NULL
        AND NOT EXISTS (SELECT 1 FROM sync_cell_history u WHERE u.undoes = h.id)
        AND (h.entry_id IS NULL OR NOT EXISTS (SELECT 1 FROM sync_cell_history d WHERE d.entry_id = h.entry_id
          AND (d.kind = 'discarded' OR (d.kind = 'conflict_resolution' AND d.note = 'take theirs'))))
      ORDER BY h.id DESC LIMIT 1`,
  );
  // Each cell's newest person's edit (the exports' `Last change` note): one index seek per cell.
  const lastOfCell = db.prepare<[string], HistoryRow>(
    "SELECT * FROM sync_cell_history WHERE cell = ? AND kind IN ('adjustment', 'count') ORDER BY id DESC LIMIT 1",
  );
  // Whether an outbox entry carries an edit older than a given row of its cell (edits merged into it): the cell's index, not a scan.
  const earlierOfEntry = db
    .prepare<[string, number, number], number>('SELECT 1 FROM sync_cell_history WHERE cell = ? AND id < ? AND entry_id = ? LIMIT 1')
    .pluck(true);
  return {
    /** Whether entry `entryId` of `cell` holds an edit older than history row `before` (an earlier edit merged into it). */
    entryHasEarlierEdit: (cell: string, entryId: number, before: number) => earlierOfEntry.get(cell, before, entryId) === 1,
    insert: (h: NewHistory) => Number(insert.run({ reason: null, undoes: null, link: null, operator_id: null, operator_name: null, ...h }).lastInsertRowid),
    /** `limit` rows of the cell, newest first, older than the row `before` when given. */
    of: (cell: string, limit: number, before?: number) => page.all(cell, before ?? Number.MAX_SAFE_INTEGER, limit),
    byId: (id: number) => byId.get(id),
    /** A transfer's second row (the destination cell), from its first. */
    linkedTo: (id: number) => linked.get(id),
    /** The author's newest edit (an adjustment, a count, a transfer's first row) that no undo took back yet. */
    lastEditOf: (author: string) => lastEdit.get(author),
    /** The newest adjustment or count of each cell that has one (cell key → row). */
    lastEditsOf: (cells: string[]) => {
      const out = new Map<string, HistoryRow>();
      for (const cell of cells) {
        const row = lastOfCell.get(cell);
        if (row !== undefined) out.set(cell, row);
      }
      return out;
    },
  };
}
export type HistoryRepo = ReturnType<typeof historyRepo>;

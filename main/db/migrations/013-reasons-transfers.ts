import type { Migration } from './index.js';

/**
 * Reasons, transfers and undo (issue 14 §5, §6).
 *
 * - `reason`: why stock changed (received, damaged, returned, sold_elsewhere, correction,
 *   transfer, count), kept with the outbox entry and with each history row.
 * - A transfer between two of the seller's stores is one outbox entry: an adjustment of `delta`
 *   (negative: units leave) on its `cell`, and the opposite on `cell2` (`store_key2`), sent as one
 *   seller_warehouse PUT carrying both locations under one x-version. `sent_quantity2` is the
 *   second location's quantity of the request on the wire (resent byte for byte, like `sent_quantity`).
 * - History: `undoes` names the row an undo took back; `link` ties a transfer's second row (the
 *   destination cell) to its first, so the transfer is undone as one edit.
 * The op column keeps its CHECK ('adjust', 'count'): a transfer is an adjustment with a second cell.
 */
export const reasonsTransfersMigration: Migration = {
  version: 13,
  name: 'reasons-transfers',
  sql: `
ALTER TABLE sync_outbox ADD COLUMN reason TEXT;
ALTER TABLE sync_outbox ADD COLUMN cell2 TEXT;
ALTER TABLE sync_outbox ADD COLUMN store_key2 TEXT;
ALTER TABLE sync_outbox ADD COLUMN sent_quantity2 INTEGER;
ALTER TABLE sync_cell_history ADD COLUMN reason TEXT;
ALTER TABLE sync_cell_history ADD COLUMN undoes INTEGER;
ALTER TABLE sync_cell_history ADD COLUMN link INTEGER;
-- The cell lookups of a transfer's destination (the main index serves the first cell).
CREATE INDEX sync_outbox_active_cell2 ON sync_outbox(lane, cell2, id) WHERE state <> 'done' AND cell2 IS NOT NULL;
-- Undo: a person's newest edits, and whether one was undone already.
CREATE INDEX sync_cell_history_by_author ON sync_cell_history(author, id);
CREATE INDEX sync_cell_history_undoes ON sync_cell_history(undoes) WHERE undoes IS NOT NULL;
`,
};

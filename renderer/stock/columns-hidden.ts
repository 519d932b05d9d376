/**
 * Hiding location columns of the grid (issue 27): the set hidden is the person's, kept by the
 * workstation (stock.setHiddenColumns, restored at load) and with each saved view; a column with
 * nothing editable on any row is offered for hiding ("Nothing to edit here").
 */
import type { GridColumnView } from '../../common/contract/contract.js';
import { columnEditable } from './columns.js';
import { PAGE_SIZE, type StockKit, type StockState } from './state.js';
import { lockOf, visibleColumns } from './selectors.js';

export function hiddenActions({ set, get, api }: StockKit): Pick<StockState, 'setHidden'> {
  return {
    setHidden(keys) {
      const s = get();
      const hidden = [...new Set(keys)];
      // The focused column stays focused when it is still shown; else the nearest one is.
      const was = visibleColumns(s)[s.active.col]?.key;
      const cols = visibleColumns({ ...s, hidden });
      const at = cols.findIndex((c) => c.key === was);
      const col = at >= 0 ? at : Math.min(s.active.col, Math.max(0, cols.length - 1));
      set({ hidden, active: col === s.active.col ? s.active : { row: s.active.row, col } });
      void api.stock.setHiddenColumns({ hidden }).then((r) => {
        if (!r.ok) get().sayError('columns.notKept', r.error);
      });
    },
  };
}

/** The hidden set as this workstation kept it, read beside the first page (query.ts). */
export async function restoreHidden({ set, api }: StockKit): Promise<void> {
  const r = await api.stock.hiddenColumns();
  if (r.ok) set({ hidden: r.value.hidden });
}

/**
 * The location columns with nothing editable on any row of the grid as filtered: a kind never
 * editable (the platform's), or every row's cell locked. Rows are read in pages: until every page
 * is in, only a kind that is never editable can be said so (a later row may be editable).
 */
export function idleColumns(s: Pick<StockState, 'allColumns' | 'pages' | 'total'>): GridColumnView[] {
  let loaded = 0;
  for (const rows of Object.values(s.pages)) loaded += rows.length;
  const everyRow = s.total > 0 && loaded >= s.total && Object.keys(s.pages).length >= Math.ceil(s.total / PAGE_SIZE);
  return s.allColumns.filter((c) => {
    if (!columnEditable(c)) return true;
    if (!everyRow) return false;
    return Object.values(s.pages).every((rows) => rows.every((row) => lockOf(c, row.cells[c.key], row) !== null));
  });
}

/**
 * The active cell of the stock grid: moving it (clamped to the grid, asking the grid to focus it),
 * and the store a scan lands in (the last store column visited).
 */
import { clamp, visibleColumns } from './selectors.js';
import type { StockKit, StockState } from './state.js';

export function cursorActions({ set, get }: StockKit): Pick<StockState, 'moveTo' | 'focusStoreCell'> {
  return {
    focusStoreCell(row) {
      const t = get();
      const cols = visibleColumns(t);
      const storeCol = cols.findIndex((c) => c.key === t.currentStore);
      const col =
        storeCol >= 0
          ? storeCol
          : Math.max(
              0,
              cols.findIndex((c) => c.type === 'seller_warehouse'),
            );
      t.moveTo(row, col);
      t.ensureRows(row, row);
    },

    moveTo(row, col, focus = true) {
      const s = get();
      const cols = visibleColumns(s);
      const next = { row: clamp(row, 0, Math.max(0, s.total - 1)), col: clamp(col, 0, Math.max(0, cols.length - 1)) };
      const column = cols[next.col];
      set({
        active: next,
        ...(focus ? { focusSeq: s.focusSeq + 1 } : {}),
        ...(column?.type === 'seller_warehouse' ? { currentStore: column.key } : {}),
      });
    },
  };
}

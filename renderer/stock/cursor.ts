/**
 * The active cell of the stock grid: moving it (clamped to the grid, asking the grid to focus it),
 * and the store a scan lands in. That store is chosen on purpose (the "Scans go to" selector, the
 * store filter): moving through the grid never changes it, so a scan after a look at another
 * column still counts where the person said. The choice is kept per workstation (stock.setScanStore)
 * and restored when the grid loads (query.ts).
 */
import { clamp, visibleColumns } from './selectors.js';
import type { StockKit, StockState } from './state.js';

export function cursorActions({ set, get, api }: StockKit): Pick<StockState, 'moveTo' | 'focusStoreCell' | 'setCurrentStore'> {
  return {
    focusStoreCell(row, focus = true) {
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
      t.moveTo(row, col, focus);
      t.ensureRows(row, row);
    },

    setCurrentStore(key) {
      if (!get().allColumns.some((c) => c.key === key && c.type === 'seller_warehouse')) return;
      set({ currentStore: key });
      // Kept by the workstation (the profile's database): a reload or a restart scans into it again.
      void api.stock.setScanStore({ store: key }).then((r) => {
        if (!r.ok) get().sayError('scanner.storeNotKept', r.error);
      });
    },

    moveTo(row, col, focus = true) {
      const s = get();
      const cols = visibleColumns(s);
      const next = { row: clamp(row, 0, Math.max(0, s.total - 1)), col: clamp(col, 0, Math.max(0, cols.length - 1)) };
      set({ active: next, ...(focus ? { focusSeq: s.focusSeq + 1 } : {}) });
    },
  };
}

/**
 * What is open over the stock grid: the conflict dialog of a cell (and resolving it), the import
 * and listing dialogs, and the history panel.
 */
import { cellAt, findRow } from './selectors.js';
import type { StockKit, StockState } from './state.js';

export function dialogActions({
  set,
  get,
  api,
}: StockKit): Pick<StockState, 'openConflict' | 'closeConflict' | 'resolveConflict' | 'toggleHistory' | 'setDialog'> {
  return {
    openConflict(addr) {
      const s = get();
      if (addr) return set({ conflict: addr });
      const at = cellAt(s, s.active.row, s.active.col);
      if (at) set({ conflict: { userProductId: at.row.userProductId, column: at.column.key } });
    },

    closeConflict() {
      set((s) => ({ conflict: null, focusSeq: s.focusSeq + 1 }));
    },

    async resolveConflict(entryId, resolution) {
      const r = await api.stock.resolveConflict({ entryId, resolution });
      if (!r.ok) return r.error;
      const c = get().conflict;
      const located = c ? findRow(get(), c.userProductId) : null;
      const column = c ? get().allColumns.find((x) => x.key === c.column) : undefined;
      if (located && column) {
        const fresh = await api.stock.cell({
          userProductId: located.row.userProductId,
          type: column.type,
          ...(column.storeId ? { storeId: column.storeId } : {}),
        });
        if (fresh.ok) get().putCell(fresh.value);
      }
      get().say('conflict.resolved');
      get().closeConflict();
      return null;
    },

    toggleHistory(open) {
      set((s) => ({ historyOpen: open ?? !s.historyOpen }));
    },

    setDialog(d) {
      set({ dialog: d });
    },
  };
}

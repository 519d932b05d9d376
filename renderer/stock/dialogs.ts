/**
 * What is open over the stock grid: the conflict dialog of a cell (and resolving it), the import
 * and listing dialogs, the history panel; a transfer between stores, a failed edit (Retry,
 * Discard, Edit), and undo of the person's last edit.
 */
import type { GridColumnView, GridRowView } from '../../common/contract/contract.js';
import { columnEditable } from './columns.js';
import { cellAt, columnLabel, findRow, visibleColumns } from './selectors.js';
import type { CellAddress, StockKit, StockState } from './state.js';

type Actions =
  | 'openConflict'
  | 'closeConflict'
  | 'resolveConflict'
  | 'toggleHistory'
  | 'setDialog'
  | 'openTransfer'
  | 'closeTransfer'
  | 'transfer'
  | 'openFailed'
  | 'closeFailed'
  | 'retryFailed'
  | 'discardFailed'
  | 'editFailed'
  | 'showFailed'
  | 'setReason'
  | 'undo';

/** The row and column of a cell address among the loaded rows. */
function located(s: StockState, a: CellAddress): { index: number; row: GridRowView; column: GridColumnView; col: number } | null {
  const found = findRow(s, a.userProductId);
  const columns = visibleColumns(s);
  const col = columns.findIndex((c) => c.key === a.column);
  if (!found || col < 0) return null;
  return { ...found, column: columns[col]!, col };
}

/** What undo did, in words: `checking` when the edit's outcome is unknown and is learnt first (issue 24). */
const UNDO_WORDS = { withdrawn: 'undo.withdrawn', inverse: 'undo.inverse', reversed: 'undo.reversed', checking: 'undo.checking' } as const;

export function dialogActions({ set, get, api }: StockKit): Pick<StockState, Actions> {
  /** Re-reads cells of a user product after a change made here (the core's stock.changed follows too). */
  const refreshCells = async (userProductId: string, columns: GridColumnView[]) => {
    for (const column of columns) {
      const fresh = await api.stock.cell({ userProductId, type: column.type, ...(column.storeId ? { storeId: column.storeId } : {}) });
      if (fresh.ok) get().putCell(fresh.value);
    }
  };
  const activeAddress = (): CellAddress | null => {
    const s = get();
    const at = cellAt(s, s.active.row, s.active.col);
    return at ? { userProductId: at.row.userProductId, column: at.column.key } : null;
  };
  const closeAnd = (patch: Partial<StockState>) => set((s) => ({ ...patch, focusSeq: s.focusSeq + 1 }));

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

    openTransfer(addr) {
      const a = addr ?? activeAddress();
      if (!a) return;
      const at = located(get(), a);
      if (!at || at.column.type !== 'seller_warehouse') return get().say('transfer.onlyStores', undefined, 'error');
      if (!get().allColumns.some((c) => c.type === 'seller_warehouse' && c.key !== a.column)) return get().say('transfer.noOther', undefined, 'error');
      set({ transferFrom: a });
    },

    closeTransfer() {
      closeAnd({ transferFrom: null });
    },

    async transfer(toStoreId, units) {
      const from = get().transferFrom;
      const at = from ? located(get(), from) : null;
      if (!from || !at?.column.storeId) return null;
      const r = await api.stock.transfer({ userProductId: from.userProductId, fromStoreId: at.column.storeId, toStoreId, units });
      if (!r.ok) return r.error;
      const to = get().allColumns.find((c) => c.type === 'seller_warehouse' && c.storeId === toStoreId);
      await refreshCells(from.userProductId, to ? [at.column, to] : [at.column]);
      get().say('transfer.done', { units, from: columnLabel(at.column), to: to ? columnLabel(to) : toStoreId });
      get().closeTransfer();
      return null;
    },

    openFailed(addr) {
      const a = addr ?? activeAddress();
      const at = a ? located(get(), a) : null;
      if (!a || at?.row.cells[at.column.key]?.state !== 'failed') return false;
      set({ failedAt: a });
      return true;
    },

    closeFailed() {
      closeAnd({ failedAt: null });
    },

    async retryFailed(entryId) {
      const r = await api.outbox.retry({ entryId });
      if (!r.ok) return r.error;
      const a = get().failedAt;
      const at = a ? located(get(), a) : null;
      if (a && at) await refreshCells(a.userProductId, [at.column]);
      get().say('failed.retried');
      get().closeFailed();
      return null;
    },

    async discardFailed(entryId) {
      const r = await api.outbox.discard({ entryId });
      if (!r.ok) return r.error;
      const a = get().failedAt;
      const at = a ? located(get(), a) : null;
      if (a && at) await refreshCells(a.userProductId, [at.column]);
      // An edit of unknown outcome is checked with the marketplace first: dropped only if it never arrived.
      get().say(r.value.how === 'checking' ? 'failed.checking' : 'failed.discarded');
      get().closeFailed();
      return null;
    },

    editFailed() {
      const a = get().failedAt;
      const at = a ? located(get(), a) : null;
      set({ failedAt: null });
      if (!at) return;
      get().moveTo(at.index, at.col);
      // With its text given, the editor opens even on a failed cell (a count typed there supersedes the failed edit).
      get().startEdit(String(at.row.cells[at.column.key]?.shown ?? ''));
    },

    async showFailed() {
      await get().setQuery({ filter: 'failed' });
      const s = get();
      const columns = visibleColumns(s);
      for (const rows of Object.values(s.pages)) {
        for (const row of rows) {
          const col = columns.findIndex((c) => row.cells[c.key]?.state === 'failed');
          if (col < 0) continue;
          const found = findRow(s, row.userProductId);
          if (found) s.moveTo(found.index, col);
          s.openFailed({ userProductId: row.userProductId, column: columns[col]!.key });
          return;
        }
      }
    },

    setReason(reason) {
      set({ reason });
    },

    async undo() {
      const r = await api.stock.undo();
      if (!r.ok) return get().sayError('undo.failed', r.error);
      if (r.value.how === 'nothing') return get().say('undo.nothing');
      if (r.value.userProductId) {
        const found = findRow(get(), r.value.userProductId);
        if (found)
          await refreshCells(
            r.value.userProductId,
            get().allColumns.filter((c) => columnEditable(c) && found.row.cells[c.key]),
          );
      }
      get().say(UNDO_WORDS[r.value.how]);
    },
  };
}

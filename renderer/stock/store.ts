/**
 * The stock screens' state (zustand): the grid's query and filters, the pages of rows fetched from
 * the core as the viewport moves (never all at once), the focused cell, the cell being edited, the
 * conflict dialog, the history panel, the import/export activity shown in the status bar, and the
 * notices read out by the live region. One store per app window, created with the API it talks to
 * (the real `window.stockroom`, or a test double in component tests).
 *
 * The state's shape is in state.ts; each part of it in its own slice: page-cache.ts (the pages kept
 * and read), query.ts (search, filters, locating a scan), cursor.ts (the active cell), editing.ts
 * (edits and saves), dialogs.ts (conflict, import, listing, history), notices.ts (the status bar);
 * reading it in selectors.ts. Everything is exported from here too, for the screens and the tests.
 */
import { createContext, useContext } from 'react';
import { createStore, useStore } from 'zustand';
import type { StockroomApi } from '../../common/contract/api.js';
import { cursorActions } from './cursor.js';
import { dialogActions } from './dialogs.js';
import { editingActions } from './editing.js';
import { hiddenActions } from './columns-hidden.js';
import { noticeActions, watchNoticeCell } from './notices.js';
import { pageCache } from './page-cache.js';
import { queryActions } from './query.js';
import { DEFAULT_LOW_STOCK, type StockKit, type StockState } from './state.js';

export { CHANGE_SETTLE_MS, MAX_PAGES, MAX_STRAYS } from './page-cache.js';
export { atSellingAddress, cellKeyOf, columnLabel, findRow, lockOf, lockOfCell, lockText, rowAt, rowTotal, visibleColumns } from './selectors.js';
export { DEFAULT_LOW_STOCK, PAGE_SIZE } from './state.js';
export type { Activity, CellAddress, Editing, Notice, StateFilter, StockQuery, StockState } from './state.js';

export type StockStore = ReturnType<typeof createStockStore>;

export function createStockStore(api: StockroomApi) {
  const store = createStore<StockState>()((set, get) => {
    const kit: StockKit = { set, get, api };
    const pages = pageCache(kit);
    return {
      api,
      query: { search: '', filter: 'all', store: null, lowStock: null },
      lowStockThreshold: DEFAULT_LOW_STOCK,
      generation: 0,
      status: 'loading',
      error: null,
      total: 0,
      allColumns: [],
      pages: {},
      strays: {},
      loadingPages: {},
      active: { row: 0, col: 0 },
      focusSeq: 0,
      editing: null,
      saving: {},
      currentStore: null,
      conflict: null,
      historyOpen: false,
      stockSeq: 0,
      notice: null,
      activity: null,
      dialog: null,
      transferFrom: null,
      failedAt: null,
      reason: 'correction',
      unreachable: false,
      hidden: [],

      ...queryActions(kit, pages.requery),
      ...pages.actions,
      ...cursorActions(kit),
      ...editingActions(kit),
      ...dialogActions(kit),
      ...noticeActions(kit),
      ...hiddenActions(kit),
    };
  });
  watchNoticeCell(store);
  return store;
}

export const StockStoreContext = createContext<StockStore | null>(null);

export function useStockStore(): StockStore {
  const s = useContext(StockStoreContext);
  if (!s) throw new Error('useStock: no StockStoreContext provider');
  return s;
}

export function useStock<T>(selector: (s: StockState) => T): T {
  return useStore(useStockStore(), selector);
}

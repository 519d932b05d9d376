/**
 * The stock screens' state (zustand): the grid's query and filters, the pages of rows fetched from
 * the core as the viewport moves (never all at once), the focused cell, the cell being edited, the
 * conflict dialog, the history panel, the import/export activity shown in the status bar, and the
 * notices read out by the live region. One store per app window, created with the API it talks to
 * (the real `window.stockroom`, or a test double in component tests).
 */
import { createContext, useContext } from 'react';
import { createStore, useStore } from 'zustand';
import type { StockroomApi } from '../../preload/api.js';
import type { ApiError, CellView, GridColumnView, GridRowView, QueueResultView } from '../../preload/contract.js';
import { type Edit, afterEdit, parseEdit } from './parse.js';
import { useI18nStore } from '../i18n/index.js';
import { type StockKey, stockText } from './words.js';

/** Words in the current language, outside React. */
const tr = (key: StockKey, vars?: Record<string, string | number>) => stockText(useI18nStore.getState().language, key, vars);

/** A column's name in the current language (a store keeps its own name). */
export function columnLabel(c: Pick<GridColumnView, 'type' | 'label'>, t: (key: StockKey) => string = tr): string {
  return c.type === 'seller_warehouse' ? c.label : c.type === 'selling_address' ? t('col.sellingAddress') : t('col.platform');
}

/** The words of a lock reason (`lockOf`). */
export function lockText(reason: string, column: GridColumnView, t: (key: StockKey, vars?: Record<string, string | number>) => string = tr): string {
  if (reason === 'no_location') return t('lock.noLocation', { column: columnLabel(column, t) });
  return t(`lock.${reason}` as StockKey);
}

export type StateFilter = 'all' | 'pending' | 'conflict' | 'failed';

export interface StockQuery {
  /** Title words, an item id, a user product id (narrows the rows). */
  search: string;
  filter: StateFilter;
  /** One store: its rows and its column only. */
  store: string | null;
  /** Low stock at or under this quantity, or null. */
  lowStock: number | null;
}

export const PAGE_SIZE = 50;
/** Pages kept in memory (the farthest from the viewport go first). */
export const MAX_PAGES = 80;
/** Recent ensureRows ranges whose pages are kept first (the viewport's, the focused row's, one spare). */
const WANTED_RANGES = 3;
export const DEFAULT_LOW_STOCK = 5;
const MAX_PAGES_PER_CALL = 6;

export interface Notice {
  text: string;
  tone: 'info' | 'error';
  /** A button offered with the notice. */
  action?: 'showAll';
  seq: number;
}

export interface Editing {
  row: number;
  col: number;
  text: string;
  /** Why the text cannot be saved, in words, shown beside the cell. */
  error: string | null;
}

export interface Activity {
  kind: 'import' | 'export';
  done: number;
  total: number;
}

export interface CellAddress {
  userProductId: string;
  column: string;
}

export interface StockState {
  api: StockroomApi;
  query: StockQuery;
  lowStockThreshold: number;
  /** Bumped by every change of query: answers of an older generation are dropped. */
  generation: number;
  status: 'loading' | 'ready' | 'error';
  error: ApiError | null;
  total: number;
  /** The grid's columns as the core answers them (stock-location stores, selling address, platform). */
  allColumns: GridColumnView[];
  pages: Record<number, GridRowView[]>;
  loadingPages: Record<number, true>;
  active: { row: number; col: number };
  /** Bumped to ask the grid to scroll the active cell into view and focus it. */
  focusSeq: number;
  editing: Editing | null;
  /** Cells waiting for the core's answer to an edit (cell key → true). */
  saving: Record<string, true>;
  /** The store a scan lands in (the store filter, else the last store column visited). */
  currentStore: string | null;
  conflict: CellAddress | null;
  historyOpen: boolean;
  /** Bumped when the stock changed (history panels re-read). */
  stockSeq: number;
  notice: Notice | null;
  activity: Activity | null;
  dialog: 'import' | 'listing' | null;

  // actions
  load(): Promise<void>;
  setQuery(patch: Partial<StockQuery>): Promise<void>;
  /** Focuses the current store's cell of a row (a scan's landing place). */
  focusStoreCell(row: number): void;
  setLowStockThreshold(n: number): void;
  clearFilters(): void;
  showConflicts(): void;
  ensureRows(first: number, last: number): void;
  stockChanged(ids: string[] | null): void;
  moveTo(row: number, col: number, focus?: boolean): void;
  startEdit(text?: string): void;
  setEditText(text: string): void;
  cancelEdit(): void;
  commitEdit(move?: 'down' | 'right' | 'left' | 'none'): Promise<boolean>;
  locate(text: string): Promise<boolean>;
  openConflict(address?: CellAddress): void;
  closeConflict(): void;
  resolveConflict(entryId: number, resolution: { action: 'keep_mine' } | { action: 'take_theirs' } | { action: 'new_count'; quantity: number }): Promise<ApiError | null>;
  toggleHistory(open?: boolean): void;
  say(key: StockKey, vars?: Record<string, string | number>, tone?: Notice['tone'], action?: Notice['action']): void;
  setActivity(a: Activity | null): void;
  setDialog(d: StockState['dialog']): void;
  /** Replaces one cell in the loaded pages (after an edit or a resolution). */
  putCell(cell: CellView): void;
}

export const cellKeyOf = (userProductId: string, column: string) => `${userProductId}|${column}`;
const columnKeyOf = (c: Pick<CellView, 'type' | 'storeId'>) => (c.type === 'seller_warehouse' ? (c.storeId ?? '') : c.type);

/** The columns on screen: one store's when the store filter is on, else all. */
export function visibleColumns(s: Pick<StockState, 'allColumns' | 'query'>): GridColumnView[] {
  if (s.query.store === null) return s.allColumns;
  return s.allColumns.filter((c) => c.key === s.query.store);
}

export function rowAt(s: Pick<StockState, 'pages'>, index: number): GridRowView | undefined {
  return s.pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE];
}

export function findRow(s: Pick<StockState, 'pages'>, userProductId: string): { index: number; row: GridRowView } | null {
  for (const [p, rows] of Object.entries(s.pages)) {
    const i = rows.findIndex((r) => r.userProductId === userProductId);
    if (i >= 0) return { index: Number(p) * PAGE_SIZE + i, row: rows[i]! };
  }
  return null;
}

/** Sum of what every location of the row shows. */
export function rowTotal(row: GridRowView): number {
  let total = 0;
  for (const c of Object.values(row.cells)) total += c.shown;
  return total;
}

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

function queryPayload(q: StockQuery) {
  return {
    ...(q.search.trim() !== '' ? { search: q.search.trim() } : {}),
    ...(q.filter !== 'all' ? { filter: q.filter } : {}),
    ...(q.store !== null ? { store: q.store } : {}),
    ...(q.lowStock !== null ? { lowStock: q.lowStock } : {}),
  };
}

export type StockStore = ReturnType<typeof createStockStore>;

/** Wait after a stock.changed event before reading the changed pages again (the core already throttles to 150 ms). */
export const CHANGE_SETTLE_MS = 100;

export function createStockStore(api: StockroomApi) {
  let noticeSeq = 0;
  let changed: Set<string> | null = new Set();
  let changeTimer: ReturnType<typeof setTimeout> | undefined;
  /** The page ranges of the latest ensureRows calls (the viewport's and the focused row's), newest first. */
  let wanted: { from: number; to: number }[] = [];
  return createStore<StockState>()((set, get) => {
    /** Fetches one page of the current generation; drops the answer if the query changed meanwhile. */
    async function fetchPage(page: number, generation: number): Promise<void> {
      set((s) => ({ loadingPages: { ...s.loadingPages, [page]: true } }));
      const r = await api.stock.grid({ ...queryPayload(get().query), limit: PAGE_SIZE, offset: page * PAGE_SIZE });
      if (get().generation !== generation) return;
      set((s) => {
        const loadingPages = { ...s.loadingPages };
        delete loadingPages[page];
        if (!r.ok) return { loadingPages, ...(s.status === 'loading' ? { status: 'error' as const, error: r.error } : {}) };
        const pages = { ...s.pages, [page]: r.value.rows };
        // Keep the pages nearest the places recently asked for (the viewport and the focused row):
        // keeping only those nearest the page just read would drop the focused row's page when the
        // viewport is far from it, read it again, drop the viewport's pages for it, and so on.
        const keys = Object.keys(pages).map(Number);
        if (keys.length > MAX_PAGES) {
          const distance = (k: number) => Math.min(Math.abs(k - page), ...wanted.map((w) => (k < w.from ? w.from - k : k > w.to ? k - w.to : 0)));
          keys.sort((a, b) => distance(b) - distance(a));
          for (const k of keys.slice(0, keys.length - MAX_PAGES)) delete pages[k];
        }
        const total = r.value.total;
        const cols = visibleColumns({ allColumns: r.value.columns, query: s.query });
        const active = { row: clamp(s.active.row, 0, Math.max(0, total - 1)), col: clamp(s.active.col, 0, Math.max(0, cols.length - 1)) };
        const currentStore = s.currentStore ?? r.value.columns.find((c) => c.type === 'seller_warehouse')?.key ?? null;
        return { loadingPages, pages, total, allColumns: r.value.columns, status: 'ready' as const, error: null, active, currentStore };
      });
    }

    /** A new query: forget the pages, read the first one again. */
    function requery(patch: Partial<StockState> = {}): Promise<void> {
      const generation = get().generation + 1;
      set({ ...patch, generation, pages: {}, loadingPages: {}, status: 'loading', editing: null, active: { row: 0, col: get().active.col } });
      return fetchPage(0, generation);
    }

    const address = (row: number, col: number): { row: GridRowView; column: GridColumnView } | null => {
      const s = get();
      const r = rowAt(s, row);
      const column = visibleColumns(s)[col];
      return r && column ? { row: r, column } : null;
    };

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

      load: () => requery(),

      setQuery(patch) {
        const query = { ...get().query, ...patch };
        const currentStore = patch.store !== undefined && patch.store !== null ? patch.store : get().currentStore;
        return requery({ query, currentStore });
      },

      focusStoreCell(row) {
        const t = get();
        const cols = visibleColumns(t);
        const storeCol = cols.findIndex((c) => c.key === t.currentStore);
        const col = storeCol >= 0 ? storeCol : Math.max(0, cols.findIndex((c) => c.type === 'seller_warehouse'));
        t.moveTo(row, col);
        t.ensureRows(row, row);
      },

      setLowStockThreshold(n) {
        const s = get();
        set({ lowStockThreshold: n });
        if (s.query.lowStock !== null) void s.setQuery({ lowStock: n });
      },

      clearFilters() {
        void requery({ query: { search: '', filter: 'all', store: null, lowStock: null } });
      },

      showConflicts() {
        void get().setQuery({ filter: 'conflict' });
      },

      ensureRows(first, last) {
        const s = get();
        if (s.status === 'error') return;
        const from = Math.max(0, Math.floor(first / PAGE_SIZE));
        // Never more than a screenful of pages at once, whatever the caller asks.
        const to = Math.min(from + MAX_PAGES_PER_CALL - 1, Math.max(from, Math.floor(Math.max(first, last) / PAGE_SIZE)));
        wanted = [{ from, to }, ...wanted.filter((w) => w.from !== from || w.to !== to)].slice(0, WANTED_RANGES);
        for (let p = from; p <= to; p++) {
          if (s.pages[p] || s.loadingPages[p]) continue;
          if (p > 0 && p * PAGE_SIZE >= s.total) continue;
          void fetchPage(p, s.generation);
        }
      },

      stockChanged(ids) {
        // A burst of changes (a scanner, an import, a sync) is read once, a moment after the last.
        if (ids === null) changed = null;
        else if (changed !== null) for (const id of ids) changed.add(id);
        clearTimeout(changeTimer);
        changeTimer = setTimeout(() => {
          const s = get();
          const wanted = changed;
          changed = new Set();
          set({ stockSeq: s.stockSeq + 1 });
          const pages = Object.keys(s.pages).map(Number);
          const narrowed = s.query.filter !== 'all' || s.query.lowStock !== null || s.query.store !== null || s.query.search !== '';
          // Filtered views can gain or lose rows anywhere: read their loaded pages again.
          const stale = wanted === null || narrowed ? pages : pages.filter((p) => s.pages[p]!.some((r) => wanted.has(r.userProductId)));
          for (const p of stale) void fetchPage(p, s.generation);
        }, CHANGE_SETTLE_MS);
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

      startEdit(text) {
        const s = get();
        const at = address(s.active.row, s.active.col);
        if (!at) return;
        const cell = at.row.cells[at.column.key];
        if (cell?.state === 'conflict') {
          s.openConflict({ userProductId: at.row.userProductId, column: at.column.key });
          return;
        }
        const lock = lockOf(at.column, cell, at.row);
        if (lock) {
          s.say('lock.why', { reason: lockText(lock, at.column) }, 'error');
          return;
        }
        set({ editing: { row: s.active.row, col: s.active.col, text: text ?? String(cell?.shown ?? ''), error: null } });
      },

      setEditText(text) {
        const e = get().editing;
        if (e) set({ editing: { ...e, text, error: null } });
      },

      cancelEdit() {
        if (get().editing) set((s) => ({ editing: null, focusSeq: s.focusSeq + 1 }));
      },

      async commitEdit(move = 'none') {
        const s = get();
        const e = s.editing;
        if (!e) return false;
        const at = address(e.row, e.col);
        if (!at) {
          set({ editing: null });
          return false;
        }
        const cell = at.row.cells[at.column.key];
        const edit: Edit = parseEdit(e.text);
        if (edit.kind === 'error') {
          if (edit.reason === 'empty') {
            s.cancelEdit();
            return false;
          }
          set({ editing: { ...e, error: tr(edit.reason === 'zero' ? 'edit.zero' : edit.reason === 'range' ? 'edit.range' : 'edit.bad') } });
          return false;
        }
        const shown = cell?.shown ?? 0;
        const moveAfter = () => {
          const t = get();
          if (move === 'down') t.moveTo(e.row + 1, e.col);
          else if (move === 'right') t.moveTo(e.row, e.col + 1);
          else if (move === 'left') t.moveTo(e.row, e.col - 1);
          else set({ focusSeq: t.focusSeq + 1 });
        };
        // Enter on an unchanged value is not an edit.
        if (edit.kind === 'count' && cell && edit.quantity === shown && e.text.trim() === String(shown)) {
          set({ editing: null });
          moveAfter();
          return true;
        }
        if (afterEdit(shown, edit) < 0) {
          set({ editing: { ...e, error: tr(edit.kind === 'count' ? 'edit.range' : 'csv.err.negative', { result: afterEdit(shown, edit) }) } });
          return false;
        }
        const key = cellKeyOf(at.row.userProductId, at.column.key);
        const ref = { userProductId: at.row.userProductId, type: at.column.type as 'seller_warehouse' | 'selling_address', ...(at.column.storeId ? { storeId: at.column.storeId } : {}) };
        set((t) => ({ editing: null, saving: { ...t.saving, [key]: true } }));
        moveAfter();
        const r: { ok: true; value: QueueResultView } | { ok: false; error: ApiError } =
          edit.kind === 'count' ? await api.stock.count({ ...ref, quantity: edit.quantity }) : await api.stock.adjust({ ...ref, delta: edit.delta });
        set((t) => {
          const saving = { ...t.saving };
          delete saving[key];
          return { saving };
        });
        if (!r.ok) {
          // Back into the cell, with the core's reason beside it.
          get().moveTo(e.row, e.col);
          set({ editing: { ...e, error: tr('edit.failed', { message: r.error.message }) } });
          return false;
        }
        const base: CellView = cell ?? {
          userProductId: at.row.userProductId,
          type: at.column.type,
          storeId: at.column.storeId,
          cell: `${at.row.userProductId}|${at.column.type}|${at.column.storeId ?? ''}`,
          remote: { quantity: null, version: null },
          shown: 0,
          state: 'synced',
          editable: true,
          entries: [],
          conflict: null,
          error: null,
        };
        get().putCell({ ...base, shown: r.value.shown, state: r.value.entryId === null ? (base.state === 'synced' ? 'synced' : base.state) : base.state === 'conflict' ? 'conflict' : 'pending' });
        get().say(
          edit.kind === 'count' ? 'edit.savedCount' : 'edit.savedAdjust',
          { quantity: edit.kind === 'count' ? edit.quantity : 0, delta: edit.kind === 'adjust' ? (edit.delta > 0 ? `+${edit.delta}` : String(edit.delta)) : '', column: columnLabel(at.column), product: at.row.title ?? at.row.userProductId },
        );
        // The exact state (merged entries, a cancelled edit) comes with the core's stock.changed event.
        return true;
      },

      async locate(text) {
        const s = get();
        const q = s.query;
        const r = await api.stock.locate({ search: text, ...(q.filter !== 'all' ? { filter: q.filter } : {}), ...(q.store !== null ? { store: q.store } : {}), ...(q.lowStock !== null ? { lowStock: q.lowStock } : {}) });
        if (!r.ok) {
          s.say('error', { message: r.error.message }, 'error');
          return false;
        }
        const { userProductId, index } = r.value;
        if (userProductId === null) {
          s.say('search.notFound', { text }, 'error');
          return false;
        }
        if (index === null) {
          s.say('search.hidden', { id: userProductId }, 'error', 'showAll');
          return false;
        }
        if (q.search.trim() !== '') {
          // The scan is located in the grid without the typed words: drop them first.
          await requery({ query: { ...q, search: '' } });
        }
        get().focusStoreCell(index);
        const row = rowAt(get(), index);
        if (row) get().say('search.jumped', { id: userProductId, title: row.title ?? '' });
        return true;
      },

      openConflict(addr) {
        const s = get();
        if (addr) return set({ conflict: addr });
        const at = address(s.active.row, s.active.col);
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
          const fresh = await api.stock.cell({ userProductId: located.row.userProductId, type: column.type, ...(column.storeId ? { storeId: column.storeId } : {}) });
          if (fresh.ok) get().putCell(fresh.value);
        }
        get().say('conflict.resolved');
        get().closeConflict();
        return null;
      },

      toggleHistory(open) {
        set((s) => ({ historyOpen: open ?? !s.historyOpen }));
      },

      say(key, vars, tone = 'info', action) {
        set({ notice: { text: tr(key, vars), tone, ...(action ? { action } : {}), seq: ++noticeSeq } });
      },

      setActivity(a) {
        set({ activity: a });
      },

      setDialog(d) {
        set({ dialog: d });
      },

      putCell(cell) {
        set((s) => {
          const key = columnKeyOf(cell);
          const pages = { ...s.pages };
          for (const [p, rows] of Object.entries(pages)) {
            const i = rows.findIndex((r) => r.userProductId === cell.userProductId);
            if (i < 0) continue;
            const copy = rows.slice();
            const old = copy[i]!;
            copy[i] = { ...old, cells: { ...old.cells, [key]: { ...cell, lock: cell.lock ?? old.cells[key]?.lock ?? null } } };
            pages[Number(p)] = copy;
          }
          return { pages };
        });
      },
    };
  });
}

/** Why a cell cannot be edited: the lock's reason key's short form, or null when it can. */
export function lockOf(column: GridColumnView, cell: CellView | undefined, row?: GridRowView): string | null {
  if (cell?.lock) return cell.lock.reason;
  if (column.type === 'platform_facility') return 'platform_managed';
  if (!cell && column.type !== 'seller_warehouse') return 'no_location';
  // A product keeps seller stock in stores or at its selling address, never both (SPEC 2.5, section 8).
  if (!cell && row && Object.values(row.cells).some((c) => c.type === 'selling_address')) return 'pairing';
  if (cell && !cell.editable) return 'platform_managed';
  return null;
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

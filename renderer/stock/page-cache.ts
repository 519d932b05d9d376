/**
 * The rows the stock store keeps: pages of PAGE_SIZE rows read from the core as the viewport
 * moves (never all at once), which pages stay in memory (those nearest the places recently asked
 * for), which are read again after a stock.changed event, and a fresh start when the query changes;
 * and the rows a scan's answer brings before their page is read (strays).
 */
import type { CellView, GridColumnView, GridRowView, GridView, Result } from '../../common/contract/contract.js';
import { clamp, visibleColumns } from './selectors.js';
import { PAGE_SIZE, type Requery, type StockKit, type StockQuery, type StockState } from './state.js';

/** Pages kept in memory (the farthest from the viewport go first). */
export const MAX_PAGES = 80;
/** Rows kept outside whole pages (scans' rows whose pages are not read yet; the farthest from the newest go first). */
export const MAX_STRAYS = 20;
/** Recent ensureRows ranges whose pages are kept first (the viewport's, the focused row's, one spare). */
const WANTED_RANGES = 3;
const MAX_PAGES_PER_CALL = 6;

/** Wait after a stock.changed event before reading the changed pages again (the core already throttles to 150 ms). */
export const CHANGE_SETTLE_MS = 100;

const sameColumns = (a: GridColumnView[], b: GridColumnView[]) =>
  a.length === b.length && a.every((c, i) => c.key === b[i]!.key && c.type === b[i]!.type && c.storeId === b[i]!.storeId && c.label === b[i]!.label);

const columnKeyOf = (c: Pick<CellView, 'type' | 'storeId'>) => (c.type === 'seller_warehouse' ? (c.storeId ?? '') : c.type);

/** A row with one cell's new view (its lock kept when the view has none: a cell's own answer does not carry it). */
const withCell = (row: GridRowView, key: string, cell: CellView): GridRowView => ({
  ...row,
  cells: { ...row.cells, [key]: { ...cell, lock: cell.lock ?? row.cells[key]?.lock ?? null } },
});

/** The grid call's filters and order for a query (the export and locate send the same). */
export function queryPayload(q: StockQuery) {
  return {
    ...(q.search.trim() !== '' ? { search: q.search.trim() } : {}),
    ...(q.filter !== 'all' ? { filter: q.filter } : {}),
    ...(q.store !== null ? { store: q.store } : {}),
    ...(q.lowStock !== null ? { lowStock: q.lowStock } : {}),
    ...(q.belowReorder ? { belowReorder: true } : {}),
    ...(q.sort ? { sort: q.sort } : {}),
  };
}

/** The page cache of one store: `requery` for the other slices, and its actions. */
export function pageCache({ set, get, api }: StockKit): {
  requery: Requery;
  actions: Pick<StockState, 'ensureRows' | 'loadRow' | 'putPage' | 'stockChanged' | 'putCell'>;
} {
  let changed: Set<string> | null = new Set();
  /** The reads on the way, by page (of the current generation: a new query forgets them). */
  const reading = new Map<number, Promise<void>>();
  let changeTimer: ReturnType<typeof setTimeout> | undefined;
  /** The page ranges of the latest ensureRows calls (the viewport's and the focused row's), newest first. */
  let wanted: { from: number; to: number }[] = [];

  /** Fetches one page of the current generation; drops the answer if the query changed meanwhile. */
  function fetchPage(page: number, generation: number): Promise<void> {
    const read = readPage(page, generation).finally(() => {
      if (reading.get(page) === read) reading.delete(page);
    });
    reading.set(page, read);
    return read;
  }

  async function readPage(page: number, generation: number): Promise<void> {
    set((s) => ({ loadingPages: { ...s.loadingPages, [page]: true } }));
    const q = get().query;
    // Days of cover only for the grid's pages (locate and the exports do not show them).
    const r = await api.stock.grid({ ...queryPayload(q), ...(q.cover ? { cover: true } : {}), limit: PAGE_SIZE, offset: page * PAGE_SIZE });
    if (get().generation !== generation) return;
    applyPage(page, r);
  }

  /**
   * The grid's frame as an answer gives it: its row count and columns, the active cell kept inside
   * them, the store scans go to. The same columns and the same active cell as before keep their
   * objects: every row and cell on screen takes them as props, and new ones re-rendered the whole
   * grid at each page read (every few frames of a scroll), not just the rows of the page.
   */
  function frameOf(s: StockState, grid: GridView) {
    const total = grid.total;
    const allColumns = sameColumns(s.allColumns, grid.columns) ? s.allColumns : grid.columns;
    const cols = visibleColumns({ allColumns, query: s.query, hidden: s.hidden });
    const row = clamp(s.active.row, 0, Math.max(0, total - 1));
    const col = clamp(s.active.col, 0, Math.max(0, cols.length - 1));
    const active = row === s.active.row && col === s.active.col ? s.active : { row, col };
    const currentStore = s.currentStore ?? allColumns.find((c) => c.type === 'seller_warehouse')?.key ?? null;
    return { total, allColumns, status: 'ready' as const, error: null, active, currentStore };
  }

  /** A page's answer into the cache (the current generation's). */
  function applyPage(page: number, r: Result<GridView>): void {
    set((s) => {
      const loadingPages = { ...s.loadingPages };
      delete loadingPages[page];
      if (!r.ok) return { loadingPages, ...(s.status === 'loading' ? { status: 'error' as const, error: r.error } : {}) };
      const pages = { ...s.pages, [page]: r.value.rows };
      // The page's rows known before it (a scan's) are its rows now.
      const first = page * PAGE_SIZE;
      const inPage = Object.keys(s.strays).some((k) => Number(k) >= first && Number(k) < first + PAGE_SIZE);
      const strays = inPage ? Object.fromEntries(Object.entries(s.strays).filter(([k]) => Number(k) < first || Number(k) >= first + PAGE_SIZE)) : s.strays;
      // Keep the pages nearest the places recently asked for (the viewport and the focused row):
      // keeping only those nearest the page just read would drop the focused row's page when the
      // viewport is far from it, read it again, drop the viewport's pages for it, and so on.
      const keys = Object.keys(pages).map(Number);
      if (keys.length > MAX_PAGES) {
        const distance = (k: number) => Math.min(Math.abs(k - page), ...wanted.map((w) => (k < w.from ? w.from - k : k > w.to ? k - w.to : 0)));
        keys.sort((a, b) => distance(b) - distance(a));
        for (const k of keys.slice(0, keys.length - MAX_PAGES)) delete pages[k];
      }
      return { loadingPages, pages, strays, ...frameOf(s, r.value) };
    });
  }

  /** Rows outside whole pages (a scan's row and its near rows) into the cache, beside the pages. */
  function applyStrays(offset: number, grid: GridView): void {
    set((s) => {
      const strays = { ...s.strays };
      grid.rows.forEach((row, i) => {
        const index = offset + i;
        // A row of a page in the cache is that page's (read with it, kept fresh with it).
        if (s.pages[Math.floor(index / PAGE_SIZE)] === undefined) strays[index] = row;
      });
      const keys = Object.keys(strays).map(Number);
      if (keys.length > MAX_STRAYS) {
        keys.sort((a, b) => Math.abs(b - offset) - Math.abs(a - offset));
        for (const k of keys.slice(0, keys.length - MAX_STRAYS)) delete strays[k];
      }
      return { strays, ...frameOf(s, grid) };
    });
  }

  /** A new query: forget the pages, read the first one again. */
  function requery(patch: Partial<StockState> = {}): Promise<void> {
    const generation = get().generation + 1;
    reading.clear();
    set({ ...patch, generation, pages: {}, strays: {}, loadingPages: {}, status: 'loading', editing: null, active: { row: 0, col: get().active.col } });
    return fetchPage(0, generation);
  }

  return {
    requery,
    actions: {
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

      putPage(offset, grid, generation) {
        // Only rows of the current query (a locate's answer carries them, issue 29 §3).
        if (get().generation !== generation) return;
        const whole = offset % PAGE_SIZE === 0 && (grid.rows.length === PAGE_SIZE || offset + grid.rows.length >= grid.total);
        if (!whole) return applyStrays(offset, grid);
        const page = offset / PAGE_SIZE;
        reading.delete(page);
        applyPage(page, { ok: true, value: grid });
      },

      loadRow(row) {
        const s = get();
        const page = Math.floor(Math.max(0, row) / PAGE_SIZE);
        if (s.status === 'error' || s.pages[page] || s.strays[row]) return Promise.resolve();
        // A read that failed leaves the row loading, as a scroll's would: the caller goes on.
        return ((s.loadingPages[page] ? reading.get(page) : undefined) ?? fetchPage(page, s.generation)).catch(() => undefined);
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
          const narrowed =
            s.query.filter !== 'all' ||
            s.query.lowStock !== null ||
            s.query.store !== null ||
            s.query.search !== '' ||
            s.query.belowReorder === true ||
            (s.query.sort ?? null) !== null;
          // Filtered and sorted views can gain, lose or move rows anywhere: read their loaded pages again.
          const stale = wanted === null || narrowed ? pages : pages.filter((p) => s.pages[p]!.some((r) => wanted.has(r.userProductId)));
          // A scan's row outside a loaded page: its page is read (a row alone is never read again).
          for (const [k, r] of Object.entries(s.strays)) {
            const p = Math.floor(Number(k) / PAGE_SIZE);
            if ((wanted === null || narrowed || wanted.has(r.userProductId)) && !stale.includes(p) && !s.loadingPages[p]) stale.push(p);
          }
          for (const p of stale) void fetchPage(p, s.generation);
        }, CHANGE_SETTLE_MS);
      },

      putCell(cell) {
        set((s) => {
          const key = columnKeyOf(cell);
          const pages = { ...s.pages };
          for (const [p, rows] of Object.entries(pages)) {
            const i = rows.findIndex((r) => r.userProductId === cell.userProductId);
            if (i < 0) continue;
            const copy = rows.slice();
            copy[i] = withCell(copy[i]!, key, cell);
            pages[Number(p)] = copy;
          }
          let strays = s.strays;
          for (const [k, old] of Object.entries(s.strays)) {
            if (old.userProductId !== cell.userProductId) continue;
            strays = { ...strays, [k]: withCell(old, key, cell) };
          }
          return { pages, strays };
        });
      },
    },
  };
}

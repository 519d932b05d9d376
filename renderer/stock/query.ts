/**
 * What the grid shows: the search, the filters and the low-stock threshold (each change reads the
 * rows again from the first page), locating a scanned or typed product in the grid, and the store
 * scans go to as this workstation kept it (restored at load).
 */
import { restoreHidden } from './columns-hidden.js';
import { columnLabel, rowAt, visibleColumns } from './selectors.js';
import { PAGE_SIZE, type Requery, type StockKit, type StockState } from './state.js';

export function queryActions(
  kit: StockKit,
  requery: Requery,
): Pick<StockState, 'load' | 'setQuery' | 'setLowStockThreshold' | 'clearFilters' | 'showConflicts' | 'locate'> {
  const { set, get, api } = kit;
  return {
    async load() {
      // The store scans go to, as this workstation chose it last (asked beside the first page).
      const kept = api.stock.scanStore();
      // The columns hidden on this workstation (columns-hidden.ts), asked beside the first page too.
      const hidden = restoreHidden(kit);
      await requery();
      await hidden;
      const r = await kept;
      if (!r.ok || r.value.store === null) return;
      const saved = r.value.store;
      const s = get();
      if (s.allColumns.some((c) => c.key === saved && c.type === 'seller_warehouse')) {
        set({ currentStore: saved });
        return;
      }
      // The store is gone (closed, or another account's): say so, never fall back silently.
      const now = s.allColumns.find((c) => c.key === s.currentStore);
      if (s.status === 'ready') s.say('scanner.storeGone', { store: saved, now: now ? columnLabel(now) : '' }, 'error');
    },

    setQuery(patch) {
      const query = { ...get().query, ...patch };
      const currentStore = patch.store !== undefined && patch.store !== null ? patch.store : get().currentStore;
      return requery({ query, currentStore });
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

    async locate(text, opts) {
      const s = get();
      // A new scan or search: the notice of the one before goes at once, and a slower answer of it says nothing.
      const action = s.act();
      const q = s.query;
      let generation = s.generation;
      const r = await api.stock.locate({
        search: text,
        ...(q.filter !== 'all' ? { filter: q.filter } : {}),
        ...(q.store !== null ? { store: q.store } : {}),
        ...(q.lowStock !== null ? { lowStock: q.lowStock } : {}),
        ...(q.belowReorder ? { belowReorder: true } : {}),
        ...(q.sort ? { sort: q.sort } : {}),
        // The row comes with the answer: one round trip to a focused, read row, not two. Only the
        // row: its page (50 rows × every store) made the answer most of a scan's time to focus; the
        // grid reads the page as it reads any page that comes into view.
        page: PAGE_SIZE,
        near: 0,
        ...(q.cover ? { cover: true } : {}),
      });
      if (!get().isLatest(action)) return false;
      if (!r.ok) {
        s.sayError('error', r.error);
        return false;
      }
      const { userProductId, index } = r.value;
      if (userProductId === null) {
        if (opts?.scan) s.say('scanner.unknown', { code: text }, 'error');
        else s.say('search.notFound', { text }, 'error');
        return false;
      }
      if (index === null) {
        s.say('search.hidden', { id: userProductId }, 'error', 'showAll');
        return false;
      }
      if (q.search.trim() !== '') {
        // The scan is located in the grid without the typed words: drop them first.
        await requery({ query: { ...q, search: '' } });
        generation = get().generation;
      }
      // Its row was read for this query without the typed words: kept unless the query changed meanwhile.
      if (r.value.page) get().putPage(r.value.page.offset, r.value.page.grid, generation);
      // The row first, then one move: the grid lands on the product with its row read (one render
      // and one layout), not on a loading row that fills in a moment later. With the row just
      // taken, no await: the row and the move are one render, not a render a microtask apart each.
      if (rowAt(get(), index) === undefined) await get().loadRow(index);
      const focus = opts?.focus ?? true;
      get().focusStoreCell(index, focus);
      // Named from the answer, not from a loaded row (its page may still be on the way): the
      // confirmation always replaces an earlier notice, such as a stale "Nothing matches".
      const title = r.value.title ?? rowAt(get(), index)?.title ?? userProductId;
      const t = get();
      if (!t.isLatest(action)) return true;
      const column = visibleColumns(t)[t.active.col];
      if (opts?.scan) {
        t.say(focus ? 'scanner.found' : 'scanner.foundBehind', { code: text, title, id: userProductId, store: column ? columnLabel(column) : '' });
      } else t.say('search.jumped', { id: userProductId, title });
      return true;
    },
  };
}

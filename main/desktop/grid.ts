import type { GridColumnView, GridRowView, GridView, HistoryEntryView, LocateView, RowsView } from '../../common/contract/contract.js';
import { historyRepo } from '../db/repos/history.js';
import { pictureOf } from './conversation-orders.js';
import type { Db } from '../db/open.js';
import type { GridSort, ProductPosition } from '../db/repos/grid.js';
import { gridRows } from '../sync/read-model.js';
import type { StateFilter } from '../../common/stock-vocabulary.js';
import { positionOf, repoOf, visibleColumns } from './grid-cache.js';
import { type GridOptions, enrichRows } from './grid-cells.js';

// The grid's per-database caches (grid-cache.ts) and its cells' locks (grid-cells.ts), as they were imported from here.
export { invalidateGrid, repoOf, visibleColumns } from './grid-cache.js';
export { type GridOptions, PLATFORM_LOCK, editRefusal, enrichOneCell, lockOf } from './grid-cells.js';
export type { StateFilter } from '../../common/stock-vocabulary.js';

export interface GridFilters {
  search?: string | undefined;
  filter?: StateFilter | undefined;
  /** Only the user products stocked in this store (a location there, or an edit of it queued). */
  store?: string | undefined;
  /** Only the user products with a seller-managed location (a store, the selling address) at or under this quantity. */
  lowStock?: number | undefined;
  /** Only the user products with a cell at or under its reorder point. */
  belowReorder?: boolean | undefined;
  /** The order (default: by user product id). */
  sort?: GridSort | undefined;
}

export interface GridQuery extends GridFilters {
  limit: number;
  offset: number;
  /** Each cell's newest edit with its reason too (the exports' `Last change` note). */
  changes?: boolean;
}

const FILTER_STATES: Record<Exclude<StateFilter, 'all'>, string[]> = {
  pending: ['pending', 'in_flight'],
  conflict: ['conflict'],
  failed: ['failed'],
};

// ---------------------------------------------------------------- narrowing

const sorted = (f: GridFilters) => f.sort !== undefined && (f.sort.key !== 'product' || f.sort.dir !== 'asc');

function narrowing(f: GridFilters): boolean {
  return (
    (f.search ?? '').trim() !== '' || (f.filter ?? 'all') !== 'all' || f.store !== undefined || f.lowStock !== undefined || f.belowReorder === true || sorted(f)
  );
}

/**
 * The last filtered or sorted list per database, kept while nothing has been written (the write
 * stamp: this connection's total changes and SQLite's data_version): scrolling a sorted grid of
 * 100,000 products reads its pages without sorting them again for each one.
 */
const matchCache = new WeakMap<Db, { key: string; stamp: string; matches: ProductPosition[] }>();

/**
 * The user products the filters keep, in grid order, each with its position in the unfiltered
 * grid (the read model pages by position). One read over the seller's products.
 */
function matchesOf(db: Db, sellerId: number, f: GridFilters): ProductPosition[] {
  const filter = f.filter ?? 'all';
  const repo = repoOf(db);
  const query = {
    search: (f.search ?? '').trim(),
    states: filter === 'all' ? null : FILTER_STATES[filter],
    store: f.store,
    lowStock: f.lowStock,
    belowReorder: f.belowReorder === true,
    sort: f.sort,
  };
  const key = JSON.stringify([sellerId, query]);
  const stamp = repo.writeStamp();
  const hit = matchCache.get(db);
  if (hit && hit.key === key && hit.stamp === stamp) return hit.matches;
  const matches = repo.matches(sellerId, query);
  matchCache.set(db, { key, stamp, matches });
  return matches;
}

/** The grid rows of these user products, in this order (1,000 per read-model call, one read each). */
function rowsOf(db: Db, sellerId: number, ids: string[]): { columns: GridColumnView[]; rows: GridRowView[] } {
  const rows: GridRowView[] = [];
  let columns: GridColumnView[] | null = null;
  for (let i = 0; i < ids.length; i += 1000) {
    const part = gridRows(db, { sellerId, ids: ids.slice(i, i + 1000) });
    columns ??= part.columns;
    rows.push(...part.rows);
  }
  return { columns: columns ?? gridRows(db, { sellerId, limit: 1, offset: 0 }).columns, rows };
}

// ---------------------------------------------------------------- the calls

/**
 * A page of the stock grid. Without filters it is the read model's page as is; with them, the
 * matching user products are found here (title words, a user product id, an item id typed or
 * scanned, the state of their outbox entries, a store, low stock) and their rows are built by the
 * read model (`gridRows`) by id, in the filter's or the sort's order, so the cells are computed in exactly
 * one place (main/sync/read-model.ts). Then the columns are narrowed to the seller's stock
 * locations, and each row gets its item ids and each cell its lock reason.
 */
export function gridPage(db: Db, sellerId: number, q: GridQuery, o: GridOptions = { authority: false }): GridView {
  // One read transaction: positions and rows come from the same snapshot.
  return db.transaction((): GridView => {
    let base: { total: number; columns: GridColumnView[]; rows: GridRowView[] };
    if (!narrowing(q)) base = gridRows(db, { sellerId, limit: q.limit, offset: q.offset });
    else {
      const matches = matchesOf(db, sellerId, q);
      base = {
        total: matches.length,
        ...rowsOf(
          db,
          sellerId,
          matches.slice(q.offset, q.offset + q.limit).map((m) => m.id),
        ),
      };
    }
    const rows = enrichRows(db, base.rows, o);
    return { total: base.total, columns: visibleColumns(db, sellerId, base.columns), rows: q.changes ? withLastChanges(db, rows) : rows };
  })();
}

/**
 * Rows with what the exports write besides the cells: each cell's newest adjustment or count
 * (history keeps local-only edits' reasons too) and the product's SKU.
 */
function withLastChanges(db: Db, rows: GridRowView[]): GridRowView[] {
  const last = historyRepo(db).lastEditsOf(rows.flatMap((r) => Object.values(r.cells).map((c) => c.cell)));
  const skus = repoOf(db).skusOf(rows.map((r) => r.userProductId));
  return rows.map((r) => {
    const changes: Record<string, HistoryEntryView> = {};
    for (const [key, c] of Object.entries(r.cells)) {
      const h = last.get(c.cell);
      if (h !== undefined) changes[key] = h;
    }
    return { ...r, lastChanges: changes, sku: skus.get(r.userProductId) ?? null };
  });
}

/**
 * What a search or scan matched first: an exact id or code (each one index seek), else title words.
 * Without the product's place in the grid (`locate` counts the rows before it): a count session's
 * scan needs only the product.
 */
export function findProduct(db: Db, sellerId: number, text: string): { id: string; matchedBy: NonNullable<LocateView['matchedBy']> } | null {
  const repo = repoOf(db);
  const exact = text.toUpperCase();
  const product = repo.productById(exact, sellerId);
  if (product !== undefined) return { id: product, matchedBy: 'user_product' };
  const item = repo.productOfItem(exact, sellerId);
  if (item !== undefined) return { id: item, matchedBy: 'item' };
  const code = repo.productOfCode(text, sellerId);
  if (code !== undefined) return { id: code.id, matchedBy: code.kind };
  const titled = matchesOf(db, sellerId, { search: text })[0]?.id;
  return titled === undefined ? null : { id: titled, matchedBy: 'title' };
}

/**
 * Where a search or a barcode scan lands: an exact user product id, item id, barcode (GTIN/EAN/UPC),
 * seller SKU or inventory id first (what a scanner types; migration 012 indexes the codes), else the
 * first product whose title has every word; then its row in the grid with the other filters (null
 * when they hide it), and its title for the confirmation.
 */
export function locate(db: Db, sellerId: number, q: GridFilters & { search: string }): LocateView {
  return db.transaction((): LocateView => locateIn(db, sellerId, q).view)();
}

/**
 * `locate` with the grid page of the row (`size` rows a page, as `gridPage` reads it) in the same
 * read: a scan's one round trip (issue 29). With `near`, only the row and up to `near` rows on each
 * side of it within that page (the page's `offset` is then its first row's index): a scan lands on
 * its row at once and the grid reads the rest of the page as it reads any page. Unfiltered, the
 * rows are read by two seeks from the product's key, not by walking the index again from the
 * first row to the page's offset.
 */
export function locateWithPage(db: Db, sellerId: number, q: GridFilters & { search: string }, size: number, o: GridOptions, near?: number): LocateView {
  return db.transaction((): LocateView => {
    const { view, matches } = locateIn(db, sellerId, q);
    if (view.userProductId === null || view.index === null) return view;
    const pageStart = Math.floor(view.index / size) * size;
    const offset = near === undefined ? pageStart : Math.max(pageStart, view.index - near);
    const end = near === undefined ? pageStart + size : Math.min(pageStart + size, view.index + near + 1);
    const ids = matches ? matches.slice(offset, end).map((m) => m.id) : repoOf(db).pageAround(sellerId, view.userProductId, view.index - offset, end - offset);
    const { columns, rows } = rowsOf(db, sellerId, ids);
    return { ...view, page: { offset, grid: { total: view.total, columns: visibleColumns(db, sellerId, columns), rows: enrichRows(db, rows, o) } } };
  })();
}

/** `locate`'s reads, inside the caller's transaction, with the filtered grid's rows when filters narrow it (null: the whole grid). */
function locateIn(db: Db, sellerId: number, q: GridFilters & { search: string }): { view: LocateView; matches: ProductPosition[] | null } {
  const repo = repoOf(db);
  const hit = findProduct(db, sellerId, q.search.trim());
  const found = hit?.id ?? null;
  const named = hit ? { title: repo.titleOf(hit.id), matchedBy: hit.matchedBy, picture: pictureOf(repo.attributesOf(hit.id)) } : {};
  const rest: GridFilters = { filter: q.filter, store: q.store, lowStock: q.lowStock, belowReorder: q.belowReorder, sort: q.sort };
  if (!narrowing(rest)) {
    const total = repo.productCount(sellerId);
    if (found === null) return { view: { userProductId: null, index: null, total }, matches: null };
    return { view: { userProductId: found, index: positionOf(db, sellerId, found), total, ...named }, matches: null };
  }
  const matches = matchesOf(db, sellerId, rest);
  const index = found === null ? -1 : matches.findIndex((m) => m.id === found);
  return { view: { userProductId: found, index: index < 0 ? null : index, total: matches.length, ...named }, matches };
}

/** Rows by user product id or item id (at most 1000), for the CSV import's preview. */
export function rowsByIds(db: Db, sellerId: number, ids: string[], o: GridOptions = { authority: false }): RowsView {
  return db.transaction((): RowsView => {
    const { products, missing, aliases } = resolveIds(db, sellerId, ids);
    const { columns, rows } = rowsOf(db, sellerId, products);
    return { columns: visibleColumns(db, sellerId, columns), rows: enrichRows(db, rows, o), missing, aliases };
  })();
}

/**
 * The seller's user products that ids (user product ids or item ids) name, in the grid's default
 * order (by id), each item id given with its product, and the ids that name neither.
 */
export function resolveIds(db: Db, sellerId: number, ids: string[]): { products: string[]; missing: string[]; aliases: Record<string, string> } {
  const repo = repoOf(db);
  const wanted = [...new Set(ids.map((id) => id.trim().toUpperCase()))];
  const products = new Set(repo.productsIn(sellerId, wanted));
  const aliases: Record<string, string> = {};
  const rest = wanted.filter((id) => !products.has(id));
  if (rest.length > 0) {
    for (const r of repo.itemsIn(sellerId, rest)) {
      aliases[r.id] = r.user_product_id;
      products.add(r.user_product_id);
    }
  }
  return { products: [...products].sort(), missing: rest.filter((id) => aliases[id] === undefined), aliases };
}

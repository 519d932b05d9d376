import type { CellLockView, CellView, GridColumnView, GridRowView, GridView, LocateView, RowsView } from '../../preload/contract.js';
import type { Db } from '../db/open.js';
import { type GridRepo, type ItemFacts, type ProductPosition, gridRepo } from '../db/repos/grid.js';
import type { ItemRow } from '../db/repos/stock.js';
import { sellingAddressErrors, sellingAddressRule } from '../service/stock/stock.js';
import { gridRows } from '../sync/read-model.js';

export type StateFilter = 'all' | 'pending' | 'conflict' | 'failed';

export interface GridFilters {
  search?: string | undefined;
  filter?: StateFilter | undefined;
  /** Only the user products stocked in this store (a location there, or an edit of it queued). */
  store?: string | undefined;
  /** Only the user products with a seller-managed location (a store, the selling address) at or under this quantity. */
  lowStock?: number | undefined;
}

export interface GridQuery extends GridFilters {
  limit: number;
  offset: number;
}

export interface GridOptions {
  /**
   * The embedded service is the marketplace (the local profile): the item facts behind the
   * selling-address rules of SPEC 7.3 are known here, so a cell they forbid is shown locked with
   * the spec's reason. A replica does not know them (the remote refuses such an edit with the
   * same message, and the cell then shows it as failed).
   */
  authority: boolean;
}

const FILTER_STATES: Record<Exclude<StateFilter, 'all'>, string[]> = {
  pending: ['pending', 'in_flight'],
  conflict: ['conflict'],
  failed: ['failed'],
};

export const PLATFORM_LOCK: CellLockView = { reason: 'platform_managed', message: 'Stock of type platform_facility cannot be edited through the interface.' };

const SELLING_ADDRESS_LOCKS: [CellLockView['reason'], string][] = [
  ['fulfillment_only', sellingAddressErrors.fulfillmentOnly().message],
  ['no_inventory_id', sellingAddressErrors.noInventoryId().message],
  ['no_full_inbound', sellingAddressErrors.noFullInbound().message],
];

// ---------------------------------------------------------------- queries and column set (cached per database)

/** The grid's statements (main/db/repos/grid.ts), prepared once per database. */
const repos = new WeakMap<Db, GridRepo>();

function repoOf(db: Db): GridRepo {
  let repo = repos.get(db);
  if (!repo) repos.set(db, (repo = gridRepo(db)));
  return repo;
}

interface ColumnSet {
  stockStores: Set<string>;
  sellingAddress: boolean;
  platform: boolean;
}

/**
 * Which columns the seller's grid has: the stores tagged `stock_location`, and the selling-address
 * and platform columns when any of the seller's products has such a location. Finding that no
 * product has one reads every location (about 0.3 s for 1,000,000), so the answer is kept until
 * something can change it: a pull (stores, new products) or a new listing (`invalidateGrid`,
 * called by the core). Edits never add a location type (a product keeps its pairing).
 */
const columnCache = new WeakMap<Db, Map<number, ColumnSet>>();

export function invalidateGrid(db: Db): void {
  columnCache.delete(db);
}

function columnSet(db: Db, sellerId: number): ColumnSet {
  let bySeller = columnCache.get(db);
  if (!bySeller) columnCache.set(db, (bySeller = new Map()));
  const hit = bySeller.get(sellerId);
  if (hit) return hit;
  const repo = repoOf(db);
  const stores = repo.stockStores(sellerId);
  const pendingSelling = repo.hasPendingSellingAddress(sellerId);
  const set: ColumnSet = {
    stockStores: new Set(stores),
    sellingAddress: repo.hasLocationOfType('selling_address', sellerId) || pendingSelling,
    platform: repo.hasLocationOfType('platform_facility', sellerId),
  };
  bySeller.set(sellerId, set);
  return set;
}

function visibleColumns(db: Db, sellerId: number, columns: GridColumnView[]): GridColumnView[] {
  const set = columnSet(db, sellerId);
  return columns.filter((c) => (c.type === 'seller_warehouse' ? set.stockStores.has(c.key) : c.type === 'selling_address' ? set.sellingAddress : set.platform));
}

// ---------------------------------------------------------------- enrichment: item ids, locks, conflict times

export function lockOf(cell: Pick<CellView, 'type'>, items: ItemFacts[] | undefined, o: GridOptions): CellLockView | null {
  if (cell.type === 'platform_facility') return PLATFORM_LOCK;
  if (cell.type !== 'selling_address' || !o.authority) return null;
  // A replica's items have logistic_type 'unknown' (never fulfillment): the rule then finds nothing.
  const rule = sellingAddressRule((items ?? []).map((i) => ({ ...i, logistic_type: i.logistic_type as ItemRow['logistic_type'] })));
  if (!rule) return null;
  const reason = SELLING_ADDRESS_LOCKS.find(([, message]) => message === rule.message)?.[0] ?? 'fulfillment_only';
  return { reason, message: rule.message };
}

function itemFacts(db: Db, ids: string[]): Map<string, ItemFacts[]> {
  const rows = repoOf(db).itemFacts(ids);
  const out = new Map<string, ItemFacts[]>();
  for (const r of rows) {
    const list = out.get(r.user_product_id);
    if (list) list.push(r);
    else out.set(r.user_product_id, [r]);
  }
  return out;
}

function conflictTimes(db: Db, entryIds: number[]): Map<number, { created_at: number; updated_at: number }> {
  if (entryIds.length === 0) return new Map();
  const rows = repoOf(db).conflictTimes(entryIds);
  return new Map(rows.map((r) => [r.id, r]));
}

function enrichCell(cell: CellView, items: ItemFacts[] | undefined, times: Map<number, { created_at: number; updated_at: number }>, o: GridOptions): CellView {
  const lock = lockOf(cell, items, o);
  const conflict = cell.conflict
    ? { ...cell.conflict, countedAt: times.get(cell.conflict.entryId)?.created_at ?? null, seenAt: times.get(cell.conflict.entryId)?.updated_at ?? null }
    : null;
  return { ...cell, editable: cell.editable && lock === null, lock, conflict };
}

function enrichRows(db: Db, rows: GridRowView[], o: GridOptions): GridRowView[] {
  if (rows.length === 0) return rows;
  const items = itemFacts(
    db,
    rows.map((r) => r.userProductId),
  );
  const conflicts = rows.flatMap((r) => Object.values(r.cells).flatMap((c) => (c.conflict ? [c.conflict.entryId] : [])));
  const times = conflictTimes(db, conflicts);
  return rows.map((r) => {
    const its = items.get(r.userProductId);
    const cells: Record<string, CellView> = {};
    for (const [key, c] of Object.entries(r.cells)) cells[key] = enrichCell(c, its, times, o);
    return { ...r, itemIds: (its ?? []).map((i) => i.id), cells };
  });
}

/** One cell as `stock.cell` answers it: the read model's view with its lock and conflict times. */
export function enrichOneCell(db: Db, cell: CellView, o: GridOptions): CellView {
  const items = itemFacts(db, [cell.userProductId]).get(cell.userProductId);
  return enrichCell(cell, items, conflictTimes(db, cell.conflict ? [cell.conflict.entryId] : []), o);
}

// ---------------------------------------------------------------- narrowing

function narrowing(f: GridFilters): boolean {
  return (f.search ?? '').trim() !== '' || (f.filter ?? 'all') !== 'all' || f.store !== undefined || f.lowStock !== undefined;
}

/**
 * The user products the filters keep, in grid order, each with its position in the unfiltered
 * grid (the read model pages by position). One read over the seller's products.
 */
function matchesOf(db: Db, sellerId: number, f: GridFilters): ProductPosition[] {
  const filter = f.filter ?? 'all';
  return repoOf(db).matches(sellerId, {
    search: (f.search ?? '').trim(),
    states: filter === 'all' ? null : FILTER_STATES[filter],
    store: f.store,
    lowStock: f.lowStock,
  });
}

/** The grid rows at these positions of the unfiltered grid; consecutive positions are read in one call. */
function rowsAt(db: Db, sellerId: number, page: ProductPosition[]): { columns: GridColumnView[]; rows: GridRowView[] } {
  const runs: { start: number; length: number }[] = [];
  for (const m of page) {
    const last = runs.at(-1);
    if (last && last.start + last.length === m.pos) last.length++;
    else runs.push({ start: m.pos, length: 1 });
  }
  const rows: GridRowView[] = [];
  let columns: GridColumnView[] | null = null;
  for (let i = 0; i < runs.length;) {
    const run = runs[i]!;
    // gridRows reads at most 1000 rows a call.
    const length = Math.min(run.length, 1000);
    const part = gridRows(db, { sellerId, limit: length, offset: run.start });
    columns ??= part.columns;
    rows.push(...part.rows);
    if (length < run.length) runs[i] = { start: run.start + length, length: run.length - length };
    else i++;
  }
  return { columns: columns ?? gridRows(db, { sellerId, limit: 1, offset: 0 }).columns, rows };
}

// ---------------------------------------------------------------- the calls

/**
 * A page of the stock grid. Without filters it is the read model's page as is; with them, the
 * matching user products are found here (title words, a user product id, an item id typed or
 * scanned, the state of their outbox entries, a store, low stock) and their rows are built by the
 * read model (`gridRows`) from their positions in its order, so the cells are computed in exactly
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
      base = { total: matches.length, ...rowsAt(db, sellerId, matches.slice(q.offset, q.offset + q.limit)) };
    }
    return { total: base.total, columns: visibleColumns(db, sellerId, base.columns), rows: enrichRows(db, base.rows, o) };
  })();
}

/**
 * Where a search or a barcode scan lands: an exact user product id, item id or inventory id first
 * (what a scanner types), else the first product whose title has every word; then its row in the
 * grid with the other filters (null when they hide it).
 */
export function locate(db: Db, sellerId: number, q: GridFilters & { search: string }): LocateView {
  const repo = repoOf(db);
  return db.transaction((): LocateView => {
    const text = q.search.trim();
    const exact = text.toUpperCase();
    const found =
      repo.productById(exact, sellerId) ??
      repo.productOfItem(exact, sellerId) ??
      repo.productOfInventory(text, sellerId) ??
      matchesOf(db, sellerId, { search: text })[0]?.id ??
      null;
    const rest: GridFilters = { filter: q.filter, store: q.store, lowStock: q.lowStock };
    if (!narrowing(rest)) {
      const total = repo.productCount(sellerId);
      if (found === null) return { userProductId: null, index: null, total };
      const index = repo.positionOf(sellerId, found);
      return { userProductId: found, index, total };
    }
    const matches = matchesOf(db, sellerId, rest);
    const index = found === null ? -1 : matches.findIndex((m) => m.id === found);
    return { userProductId: found, index: index < 0 ? null : index, total: matches.length };
  })();
}

/** Rows by user product id or item id (at most 1000), for the CSV import's preview. */
export function rowsByIds(db: Db, sellerId: number, ids: string[], o: GridOptions = { authority: false }): RowsView {
  const repo = repoOf(db);
  return db.transaction((): RowsView => {
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
    const missing = rest.filter((id) => aliases[id] === undefined);
    const positions = repo.positionsOf(sellerId, [...products]);
    const { columns, rows } = rowsAt(db, sellerId, positions);
    return { columns: visibleColumns(db, sellerId, columns), rows: enrichRows(db, rows, o), missing, aliases };
  })();
}

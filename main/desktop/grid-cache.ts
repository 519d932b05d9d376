/**
 * What the stock grid (main/desktop/grid.ts) keeps per database: its statements, prepared once,
 * and the seller's column set, kept until something can change it.
 */
import type { GridColumnView } from '../../common/contract/contract.js';
import type { Db } from '../db/open.js';
import { type GridRepo, gridRepo } from '../db/repos/grid.js';

/** The grid's statements (main/db/repos/grid.ts), prepared once per database. */
const repos = new WeakMap<Db, GridRepo>();

export function repoOf(db: Db): GridRepo {
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

export function visibleColumns(db: Db, sellerId: number, columns: GridColumnView[]): GridColumnView[] {
  const set = columnSet(db, sellerId);
  return columns.filter((c) => (c.type === 'seller_warehouse' ? set.stockStores.has(c.key) : c.type === 'selling_address' ? set.sellingAddress : set.platform));
}

/** Every how many products a place is kept (a scan then counts at most this many rows). */
export const FENCE_EVERY = 256;

/**
 * Kept places of each seller's unfiltered grid: every FENCE_EVERY-th product's id (the k-th at
 * place k × FENCE_EVERY), valid while the seller's set of products has the stamp they were read
 * at (migration 033). `seen` is the stamp of the call before: places are read again only when it
 * held still since, so a pull adding products between scans does not read them for every scan.
 */
const fenceCache = new WeakMap<Db, Map<number, { stamp: string; ids: string[] | null }>>();

/** SQLite orders text ids by their UTF-8 bytes (BINARY), which JavaScript's `<` does not always follow. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/**
 * The place of a user product of the seller's in the unfiltered grid (by id): counted from the
 * nearest kept place before it, never from the grid's first row (a walk of up to 100,000 index
 * entries for a scan near the end, issue 29). While products come and go, counted as before.
 */
export function positionOf(db: Db, sellerId: number, userProductId: string): number {
  const repo = repoOf(db);
  let bySeller = fenceCache.get(db);
  if (!bySeller) fenceCache.set(db, (bySeller = new Map()));
  const stamp = repo.productsStamp(sellerId);
  let kept = bySeller.get(sellerId);
  if (kept?.stamp !== stamp || kept.ids === null) {
    kept = { stamp, ids: kept?.stamp === stamp ? repo.fences(sellerId, FENCE_EVERY) : null };
    bySeller.set(sellerId, kept);
  }
  const ids = kept.ids;
  if (ids === null || ids.length === 0 || byBytes(ids[0]!, userProductId) > 0) return repo.positionOf(sellerId, userProductId);
  // The last kept place at or before the product.
  let lo = 0;
  let hi = ids.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (byBytes(ids[mid]!, userProductId) <= 0) lo = mid;
    else hi = mid - 1;
  }
  return lo * FENCE_EVERY + repo.countFrom(sellerId, ids[lo]!, userProductId);
}

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

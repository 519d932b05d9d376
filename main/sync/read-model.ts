import type { Db } from '../db/open.js';
import { type GridRowsRepo, gridRowsRepo } from '../db/repos/grid-rows.js';
import { type MirrorRepo, mirrorRepo } from '../db/repos/mirror.js';
import type { LocationType } from '../db/repos/stock.js';
import { type EditableType, type HistoryRow, type OutboxRow, type SyncRepo, syncRepo } from '../db/repos/sync.js';
import { type CellRef, cellKey } from './outbox.js';
import { deltaOn, onTheWire, outcomeUnknown, overlay, phaseOf } from './model.js';
import type { CellState, CellView, EntryView } from '../../common/views.js';

/**
 * What the grid shows. The service tables hold the mirror (last known remote quantity and
 * version); the outbox holds what the person meant. A cell shows the mirror quantity with every
 * active intent applied in order (a cell in conflict shows the local count, flagged), so a pull can
 * overwrite the mirror at any time without touching a pending edit.
 *
 * Cell state, most important first: conflict > failed > sending (a request on the wire) > pending > synced.
 */

// The shapes the screens receive are defined once, in common/views.ts (no Node imports there).
export type { CellState, CellView, EntryView };

const entryView = (e: OutboxRow): EntryView => ({
  id: e.id,
  op: e.op!,
  delta: e.delta,
  quantity: e.quantity,
  state: e.state,
  phase: phaseOf(e),
  onTheWire: onTheWire(e),
  attempts: e.attempts,
  nextAttemptAt: e.next_attempt_at,
  lastStatus: e.last_status,
  lastError: e.last_error,
  reason: e.reason,
  transfer: e.cell2 ? { from: e.store_key ?? '', to: e.store_key2 ?? '', units: -(e.delta ?? 0) } : null,
});

function stateOf(entries: OutboxRow[]): CellState {
  if (entries.some((e) => e.state === 'conflict')) return 'conflict';
  if (entries.some((e) => e.state === 'failed')) return 'failed';
  if (entries.some(onTheWire)) return 'sending';
  return entries.length > 0 ? 'pending' : 'synced';
}

/** What "take theirs" keeps after a conflicting count: the later adjustments of the cell (not the count's own inverses, which go with it). */
function laterAdjustments(entries: OutboxRow[], conflict: OutboxRow, key: string): number {
  return entries
    .filter((e) => e.id > conflict.id && e.op === 'adjust' && e.state !== 'failed' && e.undoes_entry !== conflict.id)
    .reduce((sum, e) => sum + deltaOn(e, key), 0);
}

function buildCell(
  ref: { userProductId: string; type: LocationType; storeKey: string },
  mirrorQuantity: number | null,
  version: string | null,
  entries: OutboxRow[],
): CellView {
  const conflict = entries.find((e) => e.state === 'conflict');
  const failed = entries.find((e) => e.state === 'failed');
  return {
    userProductId: ref.userProductId,
    type: ref.type,
    storeId: ref.type === 'seller_warehouse' ? ref.storeKey : null,
    cell: cellKey(ref.userProductId, ref.type, ref.storeKey),
    remote: { quantity: mirrorQuantity, version },
    shown: overlay(mirrorQuantity ?? 0, entries, cellKey(ref.userProductId, ref.type, ref.storeKey)),
    state: stateOf(entries),
    editable: ref.type !== 'platform_facility',
    entries: entries.map(entryView),
    conflict: conflict
      ? {
          entryId: conflict.id,
          base: { version: conflict.base_version, quantity: conflict.base_quantity },
          local: conflict.quantity ?? 0,
          remote: { version: conflict.remote_version, quantity: conflict.remote_quantity },
          laterAdjustments: laterAdjustments(entries, conflict, cellKey(ref.userProductId, ref.type, ref.storeKey)),
        }
      : null,
    error: failed ? { entryId: failed.id, status: failed.last_status, message: failed.last_error ?? 'failed', unknown: outcomeUnknown(failed) } : null,
  };
}

/**
 * The outbox's and the mirror's statements, prepared once per database: building the repositories
 * prepares some forty statements, a millisecond or two on every grid page and cell read.
 */
const repos = new WeakMap<Db, { sync: SyncRepo; mirror: MirrorRepo }>();

function reposOf(db: Db): { sync: SyncRepo; mirror: MirrorRepo } {
  let r = repos.get(db);
  if (!r) repos.set(db, (r = { sync: syncRepo(db), mirror: mirrorRepo(db) }));
  return r;
}

/** One cell: mirror, intents, state, conflict. */
export function cellView(db: Db, ref: CellRef): CellView {
  const { mirror, sync } = reposOf(db);
  const entries =
    ref.type === 'seller_warehouse' || ref.type === 'selling_address' ? sync.activeOfCell(cellKey(ref.userProductId, ref.type, ref.storeKey)) : [];
  const product = mirror.product(ref.userProductId);
  // Known from its listing only (issue 29): the same locked "not read yet" cell the grid shows, never a synced 0.
  if (product && !product.stockRead)
    return unreadCell(ref.userProductId, { type: ref.type, storeId: ref.type === 'seller_warehouse' ? ref.storeKey : null }, product.version.toString());
  return buildCell(ref, mirror.cellQuantity(ref.userProductId, ref.type, ref.storeKey) ?? null, product?.version.toString() ?? null, entries);
}

export interface GridColumn {
  key: string;
  type: LocationType;
  storeId: string | null;
  label: string;
}

export interface GridRow {
  userProductId: string;
  title: string | null;
  version: string;
  /** Cells by column key (store id, `selling_address`, `platform_facility`); absent where the product has no such location. */
  cells: Record<string, CellView>;
  /** Known from its listing only (migration 029): every column has a cell locked as not read yet. */
  stockUnread?: true;
}

/** Why a product known from its listing only refuses edits (validate.ts refuses them with the same words). */
export const NOT_READ_MESSAGE = 'The stock of this product is not read from the marketplace yet: it can be changed once it is read.';

/** A cell of a product whose stock is not read yet: no quantity, locked until the pull reads it. */
function unreadCell(userProductId: string, column: Pick<GridColumn, 'type' | 'storeId'>, version: string): CellView {
  const storeKey = column.storeId ?? '';
  return {
    userProductId,
    type: column.type,
    storeId: column.storeId,
    cell: cellKey(userProductId, column.type, storeKey),
    remote: { quantity: null, version },
    shown: 0,
    state: 'synced',
    editable: false,
    entries: [],
    conflict: null,
    error: null,
    lock: { reason: 'not_read', message: NOT_READ_MESSAGE },
  };
}

const statements = new WeakMap<Db, GridRowsRepo>();

function prepared(db: Db) {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = gridRowsRepo(db)));
  return s;
}

/**
 * A page of the grid: the seller's user products (by id) × their locations, with intents applied.
 * Columns: every store of the seller, then selling_address and platform_facility.
 */
export function gridRows(
  db: Db,
  opts: { sellerId: number; limit?: number; offset?: number; ids?: string[] },
): { total: number; columns: GridColumn[]; rows: GridRow[] } {
  const s = prepared(db);
  const limit = Math.max(1, Math.min(opts.limit ?? 100, 1000));
  // By ids (a sorted or filtered page, an import's lookup): one read, rows in the order given.
  const products = opts.ids
    ? (() => {
        const found = new Map(s.byIds.all(opts.sellerId, JSON.stringify(opts.ids)).map((p) => [p.id, p]));
        return opts.ids.flatMap((id) => found.get(id) ?? []);
      })()
    : s.page.all(opts.sellerId, limit, opts.offset ?? 0);
  const ids = JSON.stringify(products.map((p) => p.id));
  const locations = s.locations.all(ids);
  const titles = new Map(s.titles.all(ids).map((t) => [t.user_product_id, t.title]));
  const byCell = intentsByCell(db, products);
  const columns = gridColumns(db, opts.sellerId);
  const rows: GridRow[] = products.map((p) => {
    if (p.stock_read === 1) return { userProductId: p.id, title: titles.get(p.id) ?? null, version: p.version, cells: {} };
    const cells: Record<string, CellView> = {};
    for (const c of columns) cells[c.key] = unreadCell(p.id, c, p.version);
    return { userProductId: p.id, title: titles.get(p.id) ?? null, version: p.version, cells, stockUnread: true as const };
  });
  const rowOf = new Map(rows.map((r) => [r.userProductId, r]));
  const seen = new Set<string>();
  for (const l of locations) {
    const key = l.type === 'seller_warehouse' ? l.store_key : l.type;
    const cell = cellKey(l.user_product_id, l.type, l.store_key);
    seen.add(cell);
    const row = rowOf.get(l.user_product_id)!;
    row.cells[key] = buildCell({ userProductId: l.user_product_id, type: l.type, storeKey: l.store_key }, l.quantity, row.version, byCell.get(cell) ?? []);
  }
  // Cells the remote does not have yet (a first edit of a store for this product) still show their intent.
  for (const [cell, list] of byCell) {
    if (seen.has(cell)) continue;
    const e = list[0]!;
    const row = rowOf.get(e.user_product_id!)!;
    const type = e.cell_type as EditableType;
    // The cell's own store (a transfer's destination is its second cell).
    const storeKey = e.cell2 === cell ? (e.store_key2 ?? '') : (e.store_key ?? '');
    row.cells[type === 'seller_warehouse' ? storeKey : type] = buildCell({ userProductId: e.user_product_id!, type, storeKey }, null, row.version, list);
  }
  return { total: s.total.get(opts.sellerId)?.n ?? 0, columns, rows };
}

/** The active outbox entries of these products by cell (a transfer is an entry of both its cells). */
function intentsByCell(db: Db, products: { id: string }[]): Map<string, OutboxRow[]> {
  const byCell = new Map<string, OutboxRow[]>();
  for (const e of reposOf(db).sync.activeOfProducts(products.map((p) => p.id))) {
    for (const cell of e.cell2 ? [e.cell, e.cell2] : [e.cell]) {
      if (cell === null) continue;
      const list = byCell.get(cell);
      if (list) list.push(e);
      else byCell.set(cell, [e]);
    }
  }
  return byCell;
}

/** Every store of the seller, then selling_address and platform_facility. */
export function gridColumns(db: Db, sellerId: number): GridColumn[] {
  return [
    ...prepared(db)
      .stores.all(String(sellerId))
      .map((st) => ({ key: st.id, type: 'seller_warehouse' as const, storeId: st.id, label: st.description })),
    { key: 'selling_address', type: 'selling_address', storeId: null, label: 'Selling address' },
    { key: 'platform_facility', type: 'platform_facility', storeId: null, label: 'Platform fulfillment' },
  ];
}

/** A cell as the import's preview reads it: the mirror quantity with the intents applied (what the grid shows). */
export interface LookupCell {
  type: LocationType;
  shown: number;
}

export interface LookupRow {
  userProductId: string;
  title: string | null;
  version: string;
  cells: Record<string, LookupCell>;
}

/**
 * The import preview's products, in the order given, with only the cells of `keys` (null: all):
 * the same reads as `gridRows`, but no entry, conflict or error views, which a grid row builds
 * for every cell of every product (most of a 10,000-product lookup's time).
 */
export function lookupRows(db: Db, sellerId: number, ids: string[], keys: Set<string> | null): LookupRow[] {
  const s = prepared(db);
  const found = new Map(s.byIds.all(sellerId, JSON.stringify(ids)).map((p) => [p.id, p]));
  const products = ids.flatMap((id) => found.get(id) ?? []);
  const json = JSON.stringify(products.map((p) => p.id));
  const titles = new Map(s.titles.all(json).map((t) => [t.user_product_id, t.title]));
  const byCell = intentsByCell(db, products);
  const rows: LookupRow[] = products.map((p) => ({ userProductId: p.id, title: titles.get(p.id) ?? null, version: p.version, cells: {} }));
  const rowOf = new Map(rows.map((r) => [r.userProductId, r]));
  const put = (userProductId: string, type: LocationType, storeKey: string, quantity: number | null, cell: string) => {
    const key = type === 'seller_warehouse' ? storeKey : type;
    if (keys !== null && !keys.has(key)) return;
    rowOf.get(userProductId)!.cells[key] = { type, shown: overlay(quantity ?? 0, byCell.get(cell) ?? [], cell) };
  };
  const seen = new Set<string>();
  for (const l of s.locations.all(json)) {
    const cell = cellKey(l.user_product_id, l.type, l.store_key);
    seen.add(cell);
    put(l.user_product_id, l.type, l.store_key, l.quantity, cell);
  }
  // As in `gridRows`: a cell the remote does not have yet shows its intent.
  for (const [cell, list] of byCell) {
    if (seen.has(cell)) continue;
    const e = list[0]!;
    put(e.user_product_id!, e.cell_type as EditableType, e.cell2 === cell ? (e.store_key2 ?? '') : (e.store_key ?? ''), null, cell);
  }
  return rows;
}

/** The history of a cell, newest first; `before` (a history id) gives the page after the one that ended with it. */
export function history(db: Db, ref: CellRef, limit = 50, before?: number): HistoryRow[] {
  return reposOf(db).sync.historyOf(cellKey(ref.userProductId, ref.type, ref.storeKey), limit, before);
}

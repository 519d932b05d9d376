/**
 * The grid's enrichment of the read model's rows (main/desktop/grid.ts): each row's item ids,
 * reorder points and other locations, each cell's lock (the platform's, the selling-address rules
 * of SPEC 7.3) and its conflict's times.
 */
import type { CellLockView, CellView, GridRowView, OtherLocationView } from '../../common/contract/contract.js';
import type { Db } from '../db/open.js';
import type { ItemFacts } from '../db/repos/grid.js';
import type { ItemRow } from '../db/repos/stock.js';
import { sellingAddressErrors, sellingAddressRule } from '../service/stock/stock.js';
import { repoOf } from './grid-cache.js';

export interface GridOptions {
  /**
   * The embedded service is the marketplace (the local profile): the item facts behind the
   * selling-address rules of SPEC 7.3 are known here, so a cell they forbid is shown locked with
   * the spec's reason. A replica knows them from the pull (items' inventory_id and
   * shipping.logistic_type), except the first full inbound, which the remote alone enforces.
   */
  authority: boolean;
}

export const PLATFORM_LOCK: CellLockView = { reason: 'platform_managed', message: 'Stock of type platform_facility cannot be edited through the interface.' };

const SELLING_ADDRESS_LOCKS: [CellLockView['reason'], string][] = [
  ['fulfillment_only', sellingAddressErrors.fulfillmentOnly().message],
  ['no_inventory_id', sellingAddressErrors.noInventoryId().message],
  ['no_full_inbound', sellingAddressErrors.noFullInbound().message],
];

export function lockOf(cell: Pick<CellView, 'type'>, items: ItemFacts[] | undefined, o: GridOptions): CellLockView | null {
  if (cell.type === 'platform_facility') return PLATFORM_LOCK;
  if (cell.type !== 'selling_address') return null;
  const rule = sellingAddressRefusal(items, o);
  if (!rule) return null;
  const reason = SELLING_ADDRESS_LOCKS.find(([, message]) => message === rule.message)?.[0] ?? 'fulfillment_only';
  return { reason, message: rule.message };
}

/**
 * The spec's refusal of a selling-address write, from the product's items. A replica applies it once
 * the pull brought every item's logistic type (an item mirrored from an answer without it is
 * 'unknown': the remote then decides, and a refused edit shows as failed).
 */
function sellingAddressRefusal(items: ItemFacts[] | undefined, o: GridOptions) {
  const list = items ?? [];
  if (!o.authority && (list.length === 0 || list.some((i) => i.logistic_type === 'unknown'))) return null;
  return sellingAddressRule(list.map((i) => ({ ...i, logistic_type: i.logistic_type as ItemRow['logistic_type'] })));
}

/** Why a replica must not queue this edit (the lock a cell shows), before anything is queued; null when it may. */
export function editRefusal(db: Db, userProductId: string, type: string) {
  if (type !== 'selling_address') return null;
  return sellingAddressRefusal(itemFacts(db, [userProductId]).get(userProductId), { authority: false });
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

/**
 * Adds the lock and the conflict times to a cell, in place: the read model builds fresh cells for
 * every call, and a copy of each of an import lookup's 10,000 cells was a third of its time (GC).
 */
function enrichCell(cell: CellView, items: ItemFacts[] | undefined, times: Map<number, { created_at: number; updated_at: number }>, o: GridOptions): CellView {
  // A product whose stock is not read yet (issue 29) is locked by the read model, whatever its items say.
  const lock = cell.lock?.reason === 'not_read' ? cell.lock : lockOf(cell, items, o);
  if (cell.conflict) {
    cell.conflict = {
      ...cell.conflict,
      countedAt: times.get(cell.conflict.entryId)?.created_at ?? null,
      seenAt: times.get(cell.conflict.entryId)?.updated_at ?? null,
    };
  }
  cell.editable = cell.editable && lock === null;
  cell.lock = lock;
  return cell;
}

export function enrichRows(db: Db, rows: GridRowView[], o: GridOptions): GridRowView[] {
  if (rows.length === 0) return rows;
  const items = itemFacts(
    db,
    rows.map((r) => r.userProductId),
  );
  const conflicts = rows.flatMap((r) => Object.values(r.cells).flatMap((c) => (c.conflict ? [c.conflict.entryId] : [])));
  const times = conflictTimes(db, conflicts);
  const points = reorderPoints(db, rows);
  const others = otherLocations(db, rows);
  return rows.map((r) => {
    const its = items.get(r.userProductId);
    const cells: Record<string, CellView> = {};
    for (const [key, c] of Object.entries(r.cells)) cells[key] = enrichCell(c, its, times, o);
    const reorder = points.get(r.userProductId);
    const other = others.get(r.userProductId);
    return { ...r, itemIds: (its ?? []).map((i) => i.id), cells, ...(reorder ? { reorder } : {}), ...(other ? { others: other } : {}) };
  });
}

/** The locations of kinds without rules of these rows, by user product. */
function otherLocations(db: Db, rows: GridRowView[]): Map<string, OtherLocationView[]> {
  const out = new Map<string, OtherLocationView[]>();
  for (const l of repoOf(db).otherLocationsOf(rows.map((r) => r.userProductId))) {
    const list = out.get(l.user_product_id) ?? [];
    list.push({ type: l.type, storeId: l.store_key === '' ? null : l.store_key, quantity: l.quantity });
    out.set(l.user_product_id, list);
  }
  return out;
}

/** One cell as `stock.cell` answers it: the read model's view with its lock and conflict times. */
export function enrichOneCell(db: Db, cell: CellView, o: GridOptions): CellView {
  const items = itemFacts(db, [cell.userProductId]).get(cell.userProductId);
  return enrichCell(cell, items, conflictTimes(db, cell.conflict ? [cell.conflict.entryId] : []), o);
}

/** Reorder points of these rows by user product, keyed by column (a store id, `selling_address`). */
function reorderPoints(db: Db, rows: GridRowView[]): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const p of repoOf(db).reorderPointsOf(rows.map((r) => r.userProductId))) {
    const byColumn = out.get(p.user_product_id) ?? {};
    byColumn[p.cell_type === 'seller_warehouse' ? p.store_key : p.cell_type] = p.point;
    out.set(p.user_product_id, byColumn);
  }
  return out;
}

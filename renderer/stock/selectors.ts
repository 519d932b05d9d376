/**
 * Reading the stock state: the rows and columns on screen, a row's total, why a cell is locked,
 * and their names in the current language. Pure functions of the state (or a part of it).
 */
import type { GridColumnView, GridRowView, LookupCellView } from '../../common/contract/contract.js';
import { useI18nStore } from '../i18n/index.js';
import { columnEditable, locationLabel } from './columns.js';
import { PAGE_SIZE, type StockState } from './state.js';
import { type StockKey, stockText } from './words.js';

/** Words in the current language, outside React. */
export const tr = (key: StockKey, vars?: Record<string, string | number>) => stockText(useI18nStore.getState().language, key, vars);

/** A column's name in the current language (a store keeps its own name). */
export function columnLabel(c: Pick<GridColumnView, 'type' | 'label'>, t: (key: StockKey) => string = tr): string {
  return locationLabel(c, t);
}

/** The words of a lock reason (`lockOf`). */
export function lockText(reason: string, column: GridColumnView, t: (key: StockKey, vars?: Record<string, string | number>) => string = tr): string {
  if (reason === 'no_location') return t('lock.noLocation', { column: columnLabel(column, t) });
  return t(`lock.${reason}` as StockKey);
}

/** Whether the row's product keeps its seller stock at its selling address (then not in stores). */
export const atSellingAddress = (row: { cells: Record<string, LookupCellView> } | undefined): boolean =>
  row !== undefined && Object.values(row.cells).some((c) => c.type === 'selling_address');

/** Why a cell cannot be edited: the lock's reason key's short form, or null when it can. */
export function lockOf(column: GridColumnView, cell: LookupCellView | undefined, row?: { cells: Record<string, LookupCellView> }): string | null {
  return lockOfCell(column, cell, atSellingAddress(row));
}

/** lockOf with the row read already (a grid cell gets that as a flag, not the row: see GridRow.tsx). */
export function lockOfCell(column: GridColumnView, cell: LookupCellView | undefined, sellingAddress: boolean): string | null {
  if (cell?.lock) return cell.lock.reason;
  if (!columnEditable(column)) return 'platform_managed';
  if (!cell && column.type !== 'seller_warehouse') return 'no_location';
  // A product keeps seller stock in stores or at its selling address, never both (SPEC 2.5, section 8).
  if (!cell && sellingAddress) return 'pairing';
  if (cell && !cell.editable) return 'platform_managed';
  return null;
}

export const cellKeyOf = (userProductId: string, column: string) => `${userProductId}|${column}`;

/** The columns on screen: one store's when the store filter is on (hidden or not: the filter asked for it), else all but those hidden. */
export function visibleColumns(s: Pick<StockState, 'allColumns' | 'query'> & { hidden?: readonly string[] }): GridColumnView[] {
  if (s.query.store === null) {
    const hidden = s.hidden ?? [];
    return hidden.length === 0 ? s.allColumns : s.allColumns.filter((c) => !hidden.includes(c.key));
  }
  return s.allColumns.filter((c) => c.key === s.query.store);
}

/** Where rows are kept: whole pages, and rows known outside them (a scan's). */
export type LoadedRows = Pick<StockState, 'pages' | 'strays'>;

export function rowAt(s: LoadedRows, index: number): GridRowView | undefined {
  return s.pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE] ?? s.strays[index];
}

export function findRow(s: LoadedRows, userProductId: string): { index: number; row: GridRowView } | null {
  for (const [p, rows] of Object.entries(s.pages)) {
    const i = rows.findIndex((r) => r.userProductId === userProductId);
    if (i >= 0) return { index: Number(p) * PAGE_SIZE + i, row: rows[i]! };
  }
  for (const [i, row] of Object.entries(s.strays)) if (row.userProductId === userProductId) return { index: Number(i), row };
  return null;
}

/** The loaded row and the column on screen at a grid position, or null when either is missing. */
export function cellAt(
  s: Pick<StockState, 'pages' | 'strays' | 'allColumns' | 'query' | 'hidden'>,
  row: number,
  col: number,
): { row: GridRowView; column: GridColumnView } | null {
  const r = rowAt(s, row);
  const column = visibleColumns(s)[col];
  return r && column ? { row: r, column } : null;
}

/** Sum of what every location of the row shows. */
export function rowTotal(row: GridRowView): number {
  let total = 0;
  for (const c of Object.values(row.cells)) total += c.shown;
  return total;
}

export const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

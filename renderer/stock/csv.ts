/**
 * CSV in and out of the grid (Papa Parse). Pure functions: the dialog and the export call them.
 *
 * Import formats (header row required, any column order, case-insensitive names):
 * - long: `user_product_id` (or `item_id`), `store` (a store id or name, or `selling_address`),
 *   and `count` / `quantity` (a bare number is a count; `+n` / `-n` there are adjustments, as the
 *   help says), `adjustment` (a delta: `5`, `+5`, `-2`) or `value` (the grid's rule);
 * - wide (what the export writes): `user_product_id`, then one column per location headed
 *   `<name> [<key>]` (or the bare key); each non-empty cell follows the grid's rule, cells equal to
 *   the current stock are unchanged, `total` and the read-only columns are ignored unless changed.
 *
 * The preview (`diffImport`) lists every change (line, product, store, old, new, kind) and every
 * rejected line with its reason; nothing is queued until the person applies it.
 *
 * The same plan reads a CSV (any of `,` `;` tab `|`, detected) or an .xlsx sheet (its cells as
 * text, read by the main process). The export writes the person's locale's list separator: `;`
 * where the decimal separator is a comma (es, pt-BR), `,` elsewhere; quantities are whole numbers
 * written without thousands separators, so they read back in any locale.
 */
import Papa from 'papaparse';
import { csvText } from '../../common/csv-cell.js';
import { KEY_IN_HEADER, LOCATION_COLUMNS, locationColumnHeader } from '../../common/grid-columns.js';
import { isLocationType } from '../../common/stock-vocabulary.js';
import { LAST_CHANGE_HEADER, PENDING_HEADER, lastChangeNote, pendingNote } from '../../common/pending-note.js';
import type { GridColumnView, GridRowView, LookupCellView, LookupRowView, LookupView } from '../../common/contract/contract.js';
import { type Edit, afterEdit, parseEdit } from './parse.js';
import { lockOf, rowTotal } from './store.js';
import type { StockKey } from './words.js';

export const MAX_IMPORT_ROWS = 20_000;
/** A file to import (CSV or .xlsx) over this is refused from its size, before it is read (the core's cap for workbooks). */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** Characters of one cell at most (as the core's .xlsx reader, main/desktop/xlsx.ts). */
export const MAX_CELL_CHARS = 10_000;

export interface Reason {
  key: StockKey;
  vars?: Record<string, string | number>;
}

/** One value of the file, before the grid is consulted. */
export interface PlannedEdit {
  line: number;
  id: string;
  /** The store as written (id, name, `selling_address`), or a column key (wide format). */
  store: string;
  value: string;
  /** How to read the value: the grid's rule, or the column's meaning. */
  as: 'value' | 'count' | 'adjustment';
  /** Wide format: a read-only column (total, platform) that only matters when it differs. */
  readOnly?: boolean;
}

export interface Rejected {
  line: number;
  id: string;
  store: string;
  value: string;
  reason: Reason;
}

export interface Plan {
  edits: PlannedEdit[];
  rejected: Rejected[];
}

export interface Change {
  line: number;
  userProductId: string;
  title: string | null;
  column: GridColumnView;
  old: number;
  new: number;
  edit: Extract<Edit, { kind: 'count' | 'adjust' }>;
}

export interface Diff {
  changes: Change[];
  rejected: Rejected[];
  unchanged: number;
}

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, '_');
/** Columns of the exports (CSV and the .xlsx bulk-editor layout) that are not locations. */
const WIDE_NOT_LOCATIONS = [
  'title',
  'titulo',
  'título',
  'item_ids',
  'item_id',
  'user_product_id',
  'sku',
  'seller_sku',
  'total',
  norm(PENDING_HEADER),
  norm(LAST_CHANGE_HEADER),
];
const ID_HEADERS = ['user_product_id', 'item_id', 'id', 'product_id', 'sku'];

/** The header of a location column in the export: `Depósito Palermo [64712]`. */
export const columnHeader = locationColumnHeader;

/** The delimiters a CSV import recognises (Papa Parse guesses among them from the first lines). */
export const CSV_DELIMITERS = [',', ';', '\t', '|'];

/** A CSV's text as rows of cells, its delimiter detected. */
export function csvRows(text: string): string[][] | { error: Reason } {
  // Parsed no further than one row past the limit: a row bomb is known to be one by then.
  const parsed = Papa.parse<string[]>(text.replace(/^\ufeff/, ''), {
    header: false,
    skipEmptyLines: 'greedy',
    delimitersToGuess: CSV_DELIMITERS,
    preview: MAX_IMPORT_ROWS + 2,
  });
  if (parsed.errors.length > 0 && parsed.data.length === 0) return { error: { key: 'csv.err.parse', vars: { message: parsed.errors[0]!.message } } };
  for (let i = 0; i < parsed.data.length; i++) {
    if (parsed.data[i]!.some((cell) => cell.length > MAX_CELL_CHARS))
      return { error: { key: 'csv.err.cellTooLong', vars: { line: i + 1, max: MAX_CELL_CHARS } } };
  }
  return parsed.data;
}

/** Reads a CSV file into planned edits (and the lines that cannot be read at all). */
export function planImport(text: string): Plan | { error: Reason } {
  const rows = csvRows(text);
  return 'error' in rows ? rows : planRows(rows);
}

/** Reads a table (a CSV's rows, an .xlsx sheet's cells as text) into planned edits. */
export function planRows(rows: string[][]): Plan | { error: Reason } {
  if (rows.length < 2) return { error: { key: 'csv.err.empty' } };
  if (rows.length - 1 > MAX_IMPORT_ROWS) return { error: { key: 'csv.err.tooMany', vars: { max: MAX_IMPORT_ROWS } } };
  const header = rows[0]!.map(norm);
  const idCol = ID_HEADERS.map((h) => header.indexOf(h)).find((i) => i >= 0);
  if (idCol === undefined) return { error: { key: 'csv.err.header' } };
  const storeCol = ['store', 'store_id', 'deposito', 'depósito', 'location'].map((h) => header.indexOf(h)).find((i) => i >= 0);
  const valueCols = { count: ['count', 'quantity', 'conteo', 'contagem'], adjustment: ['adjustment', 'delta', 'ajuste'], value: ['value', 'valor'] };
  const find = (names: string[]) => names.map((h) => header.indexOf(h)).find((i) => i >= 0);
  const edits: PlannedEdit[] = [];
  const rejected: Rejected[] = [];

  if (storeCol !== undefined) {
    const countCol = find(valueCols.count);
    const adjustCol = find(valueCols.adjustment);
    const valueCol = find(valueCols.value);
    if (countCol === undefined && adjustCol === undefined && valueCol === undefined) return { error: { key: 'csv.err.header' } };
    rows.slice(1).forEach((r, i) => {
      const line = i + 2;
      const id = (r[idCol] ?? '').trim();
      const store = (r[storeCol] ?? '').trim();
      const count = countCol !== undefined ? (r[countCol] ?? '').trim() : '';
      const adjustment = adjustCol !== undefined ? (r[adjustCol] ?? '').trim() : '';
      const value = valueCol !== undefined ? (r[valueCol] ?? '').trim() : '';
      const given = [count, adjustment, value].filter((v) => v !== '');
      if (id === '') return rejected.push({ line, id, store, value: given.join(' '), reason: { key: 'csv.err.noProduct' } });
      if (given.length === 0) return rejected.push({ line, id, store, value: '', reason: { key: 'csv.err.none' } });
      if (given.length > 1) return rejected.push({ line, id, store, value: given.join(' / '), reason: { key: 'csv.err.both' } });
      edits.push({ line, id, store, value: given[0]!, as: count !== '' ? 'count' : adjustment !== '' ? 'adjustment' : 'value' });
      return undefined;
    });
    return { edits, rejected };
  }

  // Wide: the export's layout.
  const locations: { index: number; key: string; readOnly: boolean }[] = [];
  rows[0]!.forEach((h, index) => {
    if (index === idCol) return;
    const n = norm(h);
    if (WIDE_NOT_LOCATIONS.includes(n)) return;
    const key = KEY_IN_HEADER.exec(h.trim())?.[1]?.trim() ?? h.trim();
    if (key === '') return;
    locations.push({ index, key, readOnly: isLocationType(key) && !LOCATION_COLUMNS[key].editable });
  });
  if (locations.length === 0) return { error: { key: 'csv.err.header' } };
  rows.slice(1).forEach((r, i) => {
    const line = i + 2;
    const id = (r[idCol] ?? '').trim();
    const values = locations.filter((l) => (r[l.index] ?? '').trim() !== '');
    if (values.length === 0) return;
    if (id === '') {
      rejected.push({ line, id, store: '', value: '', reason: { key: 'csv.err.noProduct' } });
      return;
    }
    for (const l of values) edits.push({ line, id, store: l.key, value: (r[l.index] ?? '').trim(), as: 'value', readOnly: l.readOnly });
  });
  return { edits, rejected };
}

/** The distinct ids a plan needs looked up (`stock.rows`, up to 1000 a call). */
export function idsOf(plan: Plan): string[] {
  return [...new Set(plan.edits.map((e) => e.id.toUpperCase()))];
}

/**
 * The column keys a plan's stores name in `columns` (what `stock.lookup` reads), or null (read
 * every column) when a store names none of them: the core's columns may be newer.
 */
export function columnKeysOf(plan: Plan, columns: GridColumnView[]): string[] | null {
  const keys = new Set<string>();
  for (const store of new Set(plan.edits.map((e) => e.store))) {
    const column = columnFor(columns, store);
    if (!column) return null;
    keys.add(column.key);
  }
  return [...keys];
}

function columnFor(columns: GridColumnView[], store: string): GridColumnView | undefined {
  const s = store.trim();
  const n = norm(s);
  return (
    columns.find((c) => c.key === s) ??
    columns.find((c) => c.key === n) ??
    columns.find((c) => norm(c.label) === n) ??
    columns.find((c) => LOCATION_COLUMNS[c.type].aliases.includes(n))
  );
}

function readValue(e: PlannedEdit): Edit | Reason {
  let text = e.value;
  if (e.as === 'adjustment' && /^\d/.test(text)) text = `+${text}`;
  const edit = parseEdit(text);
  if (edit.kind === 'error') {
    if (edit.reason === 'zero') return { key: 'csv.err.zero' };
    if (edit.reason === 'range') return { key: 'csv.err.range' };
    return { key: 'csv.err.value', vars: { value: e.value.slice(0, 40) } };
  }
  // A signed number in a count column is an adjustment (the help text says so): `+5` received.
  return edit;
}

/**
 * The dry run: every planned edit against the grid as it is now. `lookup` is what `stock.rows`
 * answered for the plan's ids (several answers merged). `lockText` words a lock reason.
 */
export function diffImport(plan: Plan, lookup: LookupView, lockText: (reason: string, column: GridColumnView) => string): Diff {
  const byId = new Map<string, LookupRowView>(lookup.rows.map((r) => [r.userProductId, r]));
  const rejected: Rejected[] = [...plan.rejected];
  const changes: Change[] = [];
  const seen = new Map<string, number>();
  let unchanged = 0;
  for (const e of plan.edits) {
    const reject = (reason: Reason) => rejected.push({ line: e.line, id: e.id, store: e.store, value: e.value, reason });
    const upper = e.id.toUpperCase();
    const row = byId.get(lookup.aliases[upper] ?? upper);
    if (!row) {
      reject({ key: 'csv.err.unknownProduct', vars: { id: e.id.slice(0, 40) } });
      continue;
    }
    const column = columnFor(lookup.columns, e.store);
    if (!column) {
      reject({ key: 'csv.err.unknownStore', vars: { store: e.store.slice(0, 40) } });
      continue;
    }
    const cell: LookupCellView | undefined = row.cells[column.key];
    const read = readValue(e);
    if ('key' in read) {
      reject(read);
      continue;
    }
    if (read.kind === 'error') continue;
    const old = cell?.shown ?? 0;
    const next = afterEdit(old, read);
    const lock = lockOf(column, cell, row);
    if (lock) {
      // An exported read-only value that did not change is not an edit.
      if (e.readOnly || e.as === 'value') {
        if (read.kind === 'count' && next === old) {
          unchanged++;
          continue;
        }
      }
      reject(
        lock === 'no_location'
          ? { key: 'csv.err.noLocation', vars: { column: column.label } }
          : { key: 'csv.err.locked', vars: { reason: lockText(lock, column) } },
      );
      continue;
    }
    const cellKey = `${row.userProductId}|${column.key}`;
    const first = seen.get(cellKey);
    if (first !== undefined) {
      reject({ key: 'csv.err.duplicate', vars: { line: first } });
      continue;
    }
    if (next < 0 || next > 1_000_000) {
      reject(next < 0 ? { key: 'csv.err.negative', vars: { result: next } } : { key: 'csv.err.range' });
      continue;
    }
    // Only a line that is kept makes a later line for the same cell a duplicate.
    seen.set(cellKey, e.line);
    if (read.kind === 'count' && next === old) {
      unchanged++;
      continue;
    }
    changes.push({ line: e.line, userProductId: row.userProductId, title: row.title, column, old, new: next, edit: read });
  }
  rejected.sort((a, b) => a.line - b.line);
  changes.sort((a, b) => a.line - b.line);
  return { changes, rejected, unchanged };
}

/** The list separator of a locale: `;` where a comma is the decimal separator (es-AR, pt-BR), else `,`. */
export function csvDelimiter(locale: string): ',' | ';' {
  const decimal = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value;
  return decimal === ',' ? ';' : ',';
}

/**
 * The grid as CSV: id, title, item ids, one column per location (what it shows), total, and the
 * queued edits and each cell's newest edit with their reasons (notes the import skips); `delimiter` by locale.
 */
export function gridCsv(columns: GridColumnView[], rows: GridRowView[], delimiter: ',' | ';' = ','): string {
  const data = rows.map((r) => [
    r.userProductId,
    r.sku ?? '',
    r.title ?? '',
    (r.itemIds ?? []).join(' '),
    ...columns.map((c) => (r.cells[c.key] ? String(r.cells[c.key]!.shown) : '')),
    String(rowTotal(r)),
    pendingNote(columns, r),
    lastChangeNote(columns, r),
  ]);
  // `sku` as the bulk editor's layout has it (sellers reconcile by it); the import reads it as a name, never a location.
  const fields = ['user_product_id', 'sku', 'title', 'item_ids', ...columns.map(columnHeader), 'total', PENDING_HEADER, LAST_CHANGE_HEADER];
  // No cell, header labels included, can start a formula whichever separator a spreadsheet splits on.
  return csvText([fields, ...data], delimiter);
}

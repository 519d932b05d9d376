/**
 * The shape of the stock screens' state (see store.ts, which builds the store from the slices in
 * page-cache.ts, query.ts, cursor.ts, editing.ts, dialogs.ts and notices.ts), and what every slice
 * is given to read and change it.
 */
import type { StoreApi } from 'zustand';
import type { StockroomApi } from '../../common/contract/api.js';
import type { ApiError, CellView, GridColumnView, GridRowView, GridSortView, GridView } from '../../common/contract/contract.js';
import type { ErrorLike } from '../i18n/errors.js';
import type { StockKey } from './words.js';
import type { PICKABLE_REASONS } from '../../common/stock-reasons.js';
import type { StateFilter } from '../../common/stock-vocabulary.js';

/** A reason the person picks for + / − adjustments (issue 14 §6). */
export type PickableReason = (typeof PICKABLE_REASONS)[number];

export type { StateFilter } from '../../common/stock-vocabulary.js';

export interface StockQuery {
  /** Title words, an item id, a user product id (narrows the rows). */
  search: string;
  filter: StateFilter;
  /** One store: its rows and its column only. */
  store: string | null;
  /** Low stock at or under this quantity, or null (a cell with a reorder point uses its point). */
  lowStock: number | null;
  /** Only the products with a cell at or under its reorder point. */
  belowReorder?: boolean;
  /** The order; null or absent: by product id. */
  sort?: GridSortView | null;
  /** Store cells show their days of cover (issue 28, cover.ts); kept with saved views. */
  cover?: boolean;
}

export const PAGE_SIZE = 50;
export const DEFAULT_LOW_STOCK = 5;

export interface Notice {
  text: string;
  tone: 'info' | 'error';
  /** A button offered with the notice. */
  action?: 'showAll';
  /** The core's message of an error that `text` does not show (Spanish, Portuguese: renderer/i18n/errors.ts), as its tooltip. */
  detail?: string;
  /** The cell the notice tells of (a saved edit): when it turns failed or conflict, the notice says so instead (notices.ts). */
  about?: { cell: CellAddress; product: string; columnName: string };
  seq: number;
}

export interface Editing {
  row: number;
  col: number;
  text: string;
  /** Why the text cannot be saved, in words, shown beside the cell. */
  error: string | null;
  /** The core's message when `error` does not show it (its tooltip). */
  errorDetail?: string | undefined;
  /**
   * What the cell asks before saving (issue 27): the text looks like a barcode (a slow scanner
   * typed it: find the product or save it as a count), or a count far above the cell's quantity.
   */
  ask?: 'code' | 'jump' | undefined;
  /** The person confirmed the ask: the next commit saves as typed. */
  confirmed?: boolean | undefined;
}

export interface Activity {
  kind: 'import' | 'export';
  done: number;
  total: number;
}

export interface CellAddress {
  userProductId: string;
  column: string;
}

export interface StockState {
  api: StockroomApi;
  query: StockQuery;
  lowStockThreshold: number;
  /** Bumped by every change of query: answers of an older generation are dropped. */
  generation: number;
  status: 'loading' | 'ready' | 'error';
  error: ApiError | null;
  total: number;
  /** The grid's columns as the core answers them (stock-location stores, selling address, platform). */
  allColumns: GridColumnView[];
  pages: Record<number, GridRowView[]>;
  /**
   * Rows known outside a whole page, by grid index: a scan's row, answered with the scan (issue 29)
   * while its page is read. Gone when their page comes in or the query changes.
   */
  strays: Record<number, GridRowView>;
  loadingPages: Record<number, true>;
  active: { row: number; col: number };
  /** Bumped to ask the grid to scroll the active cell into view and focus it. */
  focusSeq: number;
  editing: Editing | null;
  /** Cells waiting for the core's answer to an edit (cell key → true). */
  saving: Record<string, true>;
  /** The store a scan lands in: chosen in the "Scans go to" selector or by the store filter (default: the first store). */
  currentStore: string | null;
  conflict: CellAddress | null;
  historyOpen: boolean;
  /** Bumped when the stock changed (history panels re-read). */
  stockSeq: number;
  notice: Notice | null;
  activity: Activity | null;
  dialog: 'import' | 'listing' | null;
  /** The cell a transfer leaves from (its dialog is open), and the cell whose failed edit is open (dialogs.ts). */
  transferFrom: CellAddress | null;
  failedAt: CellAddress | null;
  /** The reason of + / − adjustments: the last one picked (a count is always 'count'). */
  reason: PickableReason;
  /** The marketplace cannot be reached now (the sync's unreachableSince): queued cells say they wait. */
  unreachable: boolean;
  /** Location columns the person hid (their keys), kept with the current view and with saved views (columns-hidden.ts). */
  hidden: string[];

  // actions
  load(): Promise<void>;
  setQuery(patch: Partial<StockQuery>): Promise<void>;
  /** Focuses the current store's cell of a row (a scan's landing place). */
  focusStoreCell(row: number, focus?: boolean): void;
  /** Chooses the store scans go to (the visible "Scans go to" selector; moving in the grid does not change it). */
  setCurrentStore(key: string): void;
  setLowStockThreshold(n: number): void;
  clearFilters(): void;
  showConflicts(): void;
  ensureRows(first: number, last: number): void;
  /** Reads the page of a row now unless it is loaded or on the way; resolves once it is in (or failed). */
  loadRow(row: number): Promise<void>;
  /**
   * Rows read elsewhere (a locate's answer: a whole page, or a row and its near rows) into the
   * cache, `offset` the index of the first, when `generation` is still the query's.
   */
  putPage(offset: number, grid: GridView, generation: number): void;
  stockChanged(ids: string[] | null): void;
  moveTo(row: number, col: number, focus?: boolean): void;
  startEdit(text?: string): void;
  setEditText(text: string): void;
  cancelEdit(): void;
  commitEdit(move?: 'down' | 'right' | 'left' | 'none'): Promise<boolean>;
  /** Saves the edit that asked first, as typed (a code as a count, a big jump). */
  confirmEdit(): Promise<boolean>;
  /** The edit's text was a barcode: the edit is dropped and the product found as a scan would. */
  findEditCode(): Promise<void>;
  /**
   * Finds a product by id, code or title words and goes to its row. `scan`: a scanner's code (the
   * confirmation names what it found); `focus: false` moves the grid without taking focus (a dialog is open).
   */
  locate(text: string, opts?: { scan?: boolean; focus?: boolean }): Promise<boolean>;
  openConflict(address?: CellAddress): void;
  closeConflict(): void;
  resolveConflict(
    entryId: number,
    resolution: { action: 'keep_mine' } | { action: 'take_theirs' } | { action: 'new_count'; quantity: number },
  ): Promise<ApiError | null>;
  toggleHistory(open?: boolean): void;
  say(key: StockKey, vars?: Record<string, string | number>, tone?: Notice['tone'], action?: Notice['action']): void;
  /** An error of the core in the person's words (renderer/i18n/errors.ts), as `{message}` of `key`. */
  sayError(key: StockKey, error: ErrorLike): void;
  /** A notice about one cell (a saved edit): replaced by the cell's failure or conflict when it comes (notices.ts). */
  sayAbout(about: NonNullable<Notice['about']>, key: StockKey, vars?: Record<string, string | number>): void;
  /**
   * A new action of the person (a scan, a search, an edit): the notice of an earlier one is cleared.
   * Returns the action's number; `isLatest(n)` tells whether no action began since (an answer of an
   * older one then says nothing).
   */
  act(): number;
  isLatest(action: number): boolean;
  setActivity(a: Activity | null): void;
  setDialog(d: StockState['dialog']): void;
  /** Transfers (§5), reasons and undo (§6), failed edits (§7): dialogs.ts. */
  openTransfer(address?: CellAddress): void;
  closeTransfer(): void;
  transfer(toStoreId: string, units: number): Promise<ApiError | null>;
  /** Opens the failed edit of a cell (the active one by default); false when the cell has none. */
  openFailed(address?: CellAddress): boolean;
  closeFailed(): void;
  retryFailed(entryId: number): Promise<ApiError | null>;
  discardFailed(entryId: number): Promise<ApiError | null>;
  /** Closes the failed edit's dialog and opens the cell's count editor. */
  editFailed(): void;
  /** The grid filtered to failed edits, the first one's dialog open (the status bar's "N failed"). */
  showFailed(): Promise<void>;
  setReason(reason: PickableReason): void;
  undo(): Promise<void>;
  /** Replaces one cell in the loaded pages (after an edit or a resolution). */
  putCell(cell: CellView): void;
  /** Hides these location columns (the rest shown) and keeps the choice on this workstation. */
  setHidden(keys: string[]): void;
}

/** What a slice of the store is built with: the store's own set / get, and the API it talks to. */
export interface StockKit {
  set: StoreApi<StockState>['setState'];
  get: StoreApi<StockState>['getState'];
  api: StockroomApi;
}

/** A fresh page cache read again from the first page (see page-cache.ts). */
export type Requery = (patch?: Partial<StockState>) => Promise<void>;

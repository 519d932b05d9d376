/** A cell of the stock grid: its value, its state or lock in words and as a badge, or its editor. */
import { type ReactNode, memo, useLayoutEffect } from 'react';
import type { CellView, GridColumnView, GridRowView } from '../../common/contract/contract.js';
import { errorOfStatus, errorText } from '../i18n/errors.js';
import { cellId } from './grid-layout.js';
import { Editor } from './GridEditor.js';
import { coverShort, coverTone, coverWords } from './cover.js';
import { LockIcon } from './icons.js';
import { type Editing, atSellingAddress, columnLabel, lockOfCell, lockText, useStock, useStockStore } from './store.js';
import type { StockWords } from './words.js';

/** What a cell says in words: its state, or why it cannot be edited. */
export function cellStateText(
  w: StockWords,
  column: GridColumnView,
  cell: CellView | undefined,
  saving: boolean,
  row?: GridRowView,
  unreachable = false,
): string {
  return stateWords(w, column, cell, saving, lockOfCell(column, cell, atSellingAddress(row)), unreachable);
}

function stateWords(w: StockWords, column: GridColumnView, cell: CellView | undefined, saving: boolean, lock: string | null, unreachable: boolean): string {
  if (saving) return w.t('cell.saving');
  if (lock) return `${w.t('cell.locked')}: ${lockText(lock, column, w.t)}`;
  if (!cell) return w.t('cell.none');
  switch (outcomeOf(cell) ?? cell.state) {
    // While the marketplace cannot be reached nothing is on its way: the edit waits, kept here.
    case 'pending':
      return unreachable ? w.t('cell.waitingWhy') : w.t('cell.pending');
    case 'sending':
      return unreachable ? w.t('cell.waitingWhy') : w.t('cell.sending');
    case 'checking':
      return `${w.t('cell.checking')} ${w.t('cell.checkingTip')}`;
    case 'conflict':
      return `${w.t('cell.conflict')}. ${w.t('cell.openConflict')}`;
    case 'unknown':
      return `${w.t('cell.unknown')}: ${w.t('cell.unknownWhy')}`;
    case 'failed':
      return `${w.t('cell.failed')}: ${cell.error ? errorText(errorOfStatus(cell.error), w.language) : ''}`;
    default:
      return w.t('cell.synced');
  }
}

/**
 * What the cell's state alone does not tell (issue 24): its failed edit's outcome is unknown (sent,
 * its answer lost: the marketplace may have it), or an edit of it is being checked with the
 * marketplace before it is taken back. A conflict outranks both; a refused edit stays "failed".
 */
export function outcomeOf(cell: Pick<CellView, 'state' | 'error' | 'entries'>): 'unknown' | 'checking' | null {
  if (cell.state === 'conflict') return null;
  if (cell.state === 'failed') return cell.error?.unknown ? 'unknown' : null;
  return cell.entries.some((e) => e.phase === 'checking') ? 'checking' : null;
}

/** One queued edit in words: its delta (a transfer's direction and store) or count, and its reason. */
export function entryText(
  w: StockWords,
  e: CellView['entries'][number],
  cell: Pick<CellView, 'storeId'>,
  storeName: (id: string) => string = (id) => id,
): string {
  let op: string;
  if (e.transfer) {
    const out = e.transfer.from === cell.storeId;
    op = w.t(out ? 'cell.opTransferOut' : 'cell.opTransferIn', {
      units: w.formatNumber(e.transfer.units),
      store: storeName(out ? e.transfer.to : e.transfer.from),
    });
  } else if (e.op === 'adjust') op = w.t('cell.opAdjust', { delta: (e.delta ?? 0) > 0 ? `+${e.delta}` : String(e.delta) });
  else op = w.t('cell.opCount', { quantity: e.quantity ?? 0 });
  return e.reason && e.reason !== 'count' && !e.transfer ? w.t('cell.opReason', { op, reason: w.t(`reason.${e.reason}`) }) : op;
}

function queuedTip(w: StockWords, cell: CellView, storeName: (id: string) => string): string {
  const ops = cell.entries.filter((e) => e.state !== 'failed').map((e) => entryText(w, e, cell, storeName));
  return w.t('cell.queuedTip', { ops: ops.join(', ') });
}

interface CellProps {
  row: number;
  col: number;
  column: GridColumnView;
  product: string;
  cell: CellView | undefined;
  /** The product keeps its stock at its selling address (its store cells are locked). */
  sellingAddress: boolean;
  /** The cell's reorder point, if it has one. */
  reorderPoint: number | undefined;
  /** Days of cover (cover.ts): null for no sales; undefined when not shown. */
  cover?: number | null | undefined;
  active: boolean;
  saving: boolean;
  loaded: boolean;
  editing: Editing | null;
  left: number;
  w: StockWords;
}

/**
 * Memoized on plain props (no row object): an edit of one cell re-renders that cell, not its row's
 * other cells.
 */
export const Cell = memo(function Cell({
  row,
  col,
  column,
  product,
  cell,
  sellingAddress,
  reorderPoint,
  cover,
  active,
  saving,
  loaded,
  editing,
  left,
  w,
}: CellProps) {
  const store = useStockStore();
  // The marketplace cannot be reached (issue 27): a queued or sending cell says it waits.
  const unreachable = useStock((s) => s.unreachable);
  const storeName = (id: string) => store.getState().allColumns.find((c) => c.storeId === id)?.label ?? id;
  const lock = lockOfCell(column, cell, sellingAddress);
  const state = saving ? 'saving' : lock ? 'locked' : (cell?.state ?? 'none');
  const outcome = !saving && !lock && cell ? outcomeOf(cell) : null;
  // Not read yet (a first pull, issue 29): no quantity is known, so none is shown.
  const value = cell && cell.lock?.reason !== 'not_read' ? w.formatNumber(cell.shown) : '—';
  // At or under its reorder point (migration 015): highlighted, and said in the cell's name.
  const point = reorderPoint;
  const low = point !== undefined && (cell?.shown ?? 0) <= point ? w.t('reorder.low', { point: w.formatNumber(point) }) : null;
  const words = stateWords(w, column, cell, saving, lock, unreachable);
  const withCover = cover === undefined ? words : `${words}; ${coverWords(w, cover)}`;
  const stateText = low ? `${withCover}; ${low}` : withCover;
  // A locked cell shows its quantity and a short word ('8 platform'): its name says both, in that order (issue 28, WCAG 2.5.3).
  const shortLock = lock && lock !== 'no_location' ? w.t(`lock.short.${lock}` as 'lock.short.platform_managed') : '';
  const named = shortLock ? `${value} ${shortLock}` : value;
  const label = loaded ? w.t('cell.name', { column: columnLabel(column, w.t), product, value: named, state: stateText }) : w.t('loadingRows');
  let badge: ReactNode = null;
  let title: string | undefined;
  if (saving) badge = <span className="cell-badge">{w.t('cell.saving')}</span>;
  else if (lock) {
    title = lockText(lock, column, w.t);
    badge = (
      <span className="cell-badge">
        <LockIcon /> {shortLock}
      </span>
    );
  } else if (outcome === 'checking') {
    title = w.t('cell.checkingTip');
    badge = (
      <span className="cell-badge">
        <span aria-hidden="true">?</span> {w.t('cell.checking')}
      </span>
    );
  } else if (outcome === 'unknown') {
    title = `${w.t('cell.unknownTip')}. ${w.t('failed.openUnknown')}`;
    badge = (
      <span className="cell-badge">
        <span aria-hidden="true">?</span> {w.t('cell.unknown')}
      </span>
    );
  } else if (cell?.state === 'pending' || cell?.state === 'sending') {
    title = queuedTip(w, cell, storeName);
    badge = (
      <span className="cell-badge">
        <span aria-hidden="true">~</span> {w.t(unreachable ? 'cell.waiting' : cell.state === 'pending' ? 'cell.pending' : 'cell.sending')}
      </span>
    );
  } else if (cell?.state === 'conflict') {
    title = w.t('cell.openConflict');
    badge = (
      <span className="cell-badge">
        <span aria-hidden="true">!</span> {w.t('cell.conflict')}
      </span>
    );
  } else if (cell?.state === 'failed') {
    title = `${w.t('cell.failedTip', { message: cell.error ? errorText(errorOfStatus(cell.error), w.language) : '' })}. ${w.t('failed.open')}`;
    badge = (
      <span className="cell-badge">
        <span aria-hidden="true">×</span> {w.t('cell.failed')}
      </span>
    );
  }
  const isEditing = editing !== null && editing.row === row && editing.col === col;
  const editError = isEditing ? editing.error : null;
  // The edit's question (GridEditor.tsx) overflows the cell as an error does.
  const asking = isEditing && editing.ask !== undefined;
  // A validation message is shown below the cell: scrolled into the viewport when the cell is at its bottom edge.
  useLayoutEffect(() => {
    if (editError) {
      const el = document.getElementById(`${cellId(row, col)}-error`);
      // jsdom (the component tests) has no scrollIntoView.
      if (el && typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  }, [editError, row, col]);
  return (
    <div
      role="gridcell"
      id={cellId(row, col)}
      aria-colindex={col + 2}
      aria-selected={active || undefined}
      aria-label={isEditing ? undefined : label}
      aria-readonly={lock !== null || undefined}
      tabIndex={active ? 0 : -1}
      className="grid-cell data-cell"
      data-state={state}
      data-outcome={outcome ?? undefined}
      data-active={active || undefined}
      data-low={low !== null || undefined}
      data-cover={cover === undefined ? undefined : coverTone(cover)}
      data-error={editError || asking ? true : undefined}
      title={title ?? low ?? undefined}
      style={{ left }}
      onMouseDown={() => store.getState().moveTo(row, col, false)}
      onClick={() => {
        if (cell?.state === 'conflict') store.getState().openConflict({ userProductId: cell.userProductId, column: column.key });
        else if (cell?.state === 'failed') store.getState().openFailed({ userProductId: cell.userProductId, column: column.key });
      }}
      onDoubleClick={() => store.getState().startEdit()}
    >
      {isEditing ? (
        <Editor editing={editing} label={w.t('edit.label', { column: columnLabel(column, w.t), product })} w={w} />
      ) : loaded ? (
        <>
          <span className="cell-value">{value}</span>
          {badge}
          {cover === undefined ? null : (
            <span className="cell-cover" aria-hidden="true">
              {coverShort(w, cover)}
            </span>
          )}
        </>
      ) : null}
    </div>
  );
});

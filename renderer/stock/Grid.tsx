/**
 * The warehouse grid: user products × the seller's stock locations, virtualized in both
 * directions (@tanstack/react-virtual) so 100,000 rows × many stores cost what is on screen. Rows
 * are fetched from the core in pages as the viewport moves (store.ensureRows). The focused cell
 * is always rendered (the range extractors keep it) so keyboard focus never falls off the grid.
 *
 * Keys: arrows, Tab / Shift+Tab, Home / End (Ctrl: first / last row), PageUp / PageDown; Enter or
 * F2 edits, typing a digit or a sign starts an edit with it; in the editor Enter saves and moves
 * down, Tab saves and moves sideways, Esc cancels. A conflict cell opens its dialog instead.
 */
import { defaultRangeExtractor, type Range, useVirtualizer } from '@tanstack/react-virtual';
import { type CSSProperties, type KeyboardEvent, type ReactNode, memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { CellView, GridColumnView, GridRowView } from '../../preload/contract.js';
import { LockIcon } from './icons.js';
import { startsEdit } from './parse.js';
import { type Editing, PAGE_SIZE, columnLabel, lockOf, lockText, rowAt, rowTotal, useStock, useStockStore, visibleColumns } from './store.js';
import { type StockWords, useStockWords } from './words.js';

export const ROW_HEIGHT = 44;
export const HEADER_HEIGHT = 52;
export const PRODUCT_WIDTH = 300;
export const COLUMN_WIDTH = 150;
export const TOTAL_WIDTH = 96;

/** Rows per millisecond above which the grid waits for the scroll to slow before fetching (500 rows/s). */
export const FAST_ROWS_PER_MS = 0.5;
const SETTLE_MS = 60;
const NOT_SAVING: Record<string, true> = {};

export const cellId = (row: number, col: number) => `stock-cell-${row}-${col}`;

function keepIndex(range: Range, index: number): number[] {
  const out = defaultRangeExtractor(range);
  if (index >= 0 && index < range.count && !out.includes(index)) {
    out.push(index);
    out.sort((a, b) => a - b);
  }
  return out;
}

/** What a cell says in words: its state, or why it cannot be edited. */
export function cellStateText(w: StockWords, column: GridColumnView, cell: CellView | undefined, saving: boolean, row?: GridRowView): string {
  if (saving) return w.t('cell.saving');
  const lock = lockOf(column, cell, row);
  if (lock) return `${w.t('cell.locked')}: ${lockText(lock, column, w.t)}`;
  if (!cell) return w.t('cell.none');
  switch (cell.state) {
    case 'pending':
      return w.t('cell.pending');
    case 'sending':
      return w.t('cell.sending');
    case 'conflict':
      return `${w.t('cell.conflict')}. ${w.t('cell.openConflict')}`;
    case 'failed':
      return `${w.t('cell.failed')}: ${cell.error?.message ?? ''}`;
    default:
      return w.t('cell.synced');
  }
}

function queuedTip(w: StockWords, cell: CellView): string {
  const ops = cell.entries.map((e) =>
    e.op === 'adjust' ? w.t('cell.opAdjust', { delta: (e.delta ?? 0) > 0 ? `+${e.delta}` : String(e.delta) }) : w.t('cell.opCount', { quantity: e.quantity ?? 0 }),
  );
  return w.t('cell.queuedTip', { ops: ops.join(', ') });
}

interface CellProps {
  row: number;
  col: number;
  column: GridColumnView;
  product: string;
  cell: CellView | undefined;
  gridRow: GridRowView | undefined;
  active: boolean;
  saving: boolean;
  loaded: boolean;
  editing: Editing | null;
  left: number;
  w: StockWords;
}

const Cell = memo(function Cell({ row, col, column, product, cell, gridRow, active, saving, loaded, editing, left, w }: CellProps) {
  const store = useStockStore();
  const lock = lockOf(column, cell, gridRow);
  const state = saving ? 'saving' : lock ? 'locked' : (cell?.state ?? 'none');
  const value = cell ? w.formatNumber(cell.shown) : '—';
  const stateText = cellStateText(w, column, cell, saving, gridRow);
  const label = loaded ? w.t('cell.name', { column: columnLabel(column, w.t), product, value, state: stateText }) : w.t('loadingRows');
  let badge: ReactNode = null;
  let title: string | undefined;
  if (saving) badge = <span className="cell-badge">{w.t('cell.saving')}</span>;
  else if (lock) {
    title = lockText(lock, column, w.t);
    badge = (
      <span className="cell-badge">
        <LockIcon /> {lock === 'no_location' ? '' : w.t(`lock.short.${lock}` as 'lock.short.platform_managed')}
      </span>
    );
  } else if (cell?.state === 'pending' || cell?.state === 'sending') {
    title = queuedTip(w, cell);
    badge = (
      <span className="cell-badge">
        <span aria-hidden="true">~</span> {w.t(cell.state === 'pending' ? 'cell.pending' : 'cell.sending')}
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
    title = w.t('cell.failedTip', { message: cell.error?.message ?? '' });
    badge = (
      <span className="cell-badge">
        <span aria-hidden="true">×</span> {w.t('cell.failed')}
      </span>
    );
  }
  const isEditing = editing !== null && editing.row === row && editing.col === col;
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
      data-active={active || undefined}
      title={title}
      style={{ left }}
      onMouseDown={() => store.getState().moveTo(row, col, false)}
      onClick={() => {
        if (cell?.state === 'conflict') store.getState().openConflict({ userProductId: cell.userProductId, column: column.key });
      }}
      onDoubleClick={() => store.getState().startEdit()}
    >
      {isEditing ? (
        <Editor editing={editing} label={w.t('edit.label', { column: columnLabel(column, w.t), product })} w={w} />
      ) : loaded ? (
        <>
          <span className="cell-value">{value}</span>
          {badge}
        </>
      ) : null}
    </div>
  );
});

function Editor({ editing, label, w }: { editing: Editing; label: string; w: StockWords }) {
  const store = useStockStore();
  const ref = useRef<HTMLInputElement>(null);
  const errorId = `${cellId(editing.row, editing.col)}-error`;
  const hintId = 'stock-edit-hint';
  const started = useRef(editing.text);
  useLayoutEffect(() => {
    const input = ref.current;
    if (!input) return;
    input.focus({ preventScroll: true });
    // Enter / F2 show the current value selected (typing replaces it); a typed first key keeps the caret at the end.
    if (/^\d+$/.test(started.current) && started.current.length > 1) input.select();
    else input.setSelectionRange(input.value.length, input.value.length);
  }, []);
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    e.stopPropagation();
    if (e.key === 'Enter') {
      e.preventDefault();
      void store.getState().commitEdit('down');
    } else if (e.key === 'Tab') {
      e.preventDefault();
      void store.getState().commitEdit(e.shiftKey ? 'left' : 'right');
    } else if (e.key === 'Escape') {
      e.preventDefault();
      store.getState().cancelEdit();
    }
  };
  return (
    <>
      <input
        ref={ref}
        className="cell-editor"
        aria-label={label}
        aria-invalid={editing.error !== null}
        aria-describedby={editing.error ? `${errorId} ${hintId}` : hintId}
        value={editing.text}
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => store.getState().setEditText(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          const s = store.getState();
          if (s.editing && s.editing.row === editing.row && s.editing.col === editing.col) {
            if (s.editing.error) s.cancelEdit();
            else void s.commitEdit('none');
          }
        }}
      />
      {editing.error ? (
        <span className="cell-error" id={errorId} role="alert">
          {editing.error}
        </span>
      ) : null}
      <span className="visually-hidden" id={hintId}>
        {w.t('edit.hint')}
      </span>
    </>
  );
}

interface RowProps {
  index: number;
  top: number;
  row: GridRowView | undefined;
  columns: GridColumnView[];
  colItems: { index: number; start: number }[];
  activeCol: number | null;
  editing: Editing | null;
  saving: Record<string, true>;
  width: number;
  w: StockWords;
}

const Row = memo(function Row({ index, top, row, columns, colItems, activeCol, editing, saving, width, w }: RowProps) {
  if (!row && activeCol === null) {
    // Not read yet: a fast scroll flies past most rows before their page is fetched. One cell that
    // says so, not a row of empty cells: rebuilding ~20 rows × every column each frame is what
    // dropped frames. (The focused row always renders its cells: focus needs them.)
    return (
      <div role="row" aria-rowindex={index + 2} className="grid-row loading-row" style={{ transform: `translateY(${top}px)`, width }}>
        <div role="rowheader" className="grid-cell product-cell" aria-colindex={1}>
          <span className="product-loading">{w.t('loadingRows')}</span>
        </div>
      </div>
    );
  }
  const product = row ? (row.title ?? row.userProductId) : '';
  return (
    <div role="row" aria-rowindex={index + 2} className="grid-row" style={{ transform: `translateY(${top}px)`, width }}>
      <div role="rowheader" className="grid-cell product-cell" aria-colindex={1}>
        {row ? (
          <>
            <span className="product-title">{row.title ?? row.userProductId}</span>
            <span className="product-ids">
              {[...(row.itemIds ?? []), row.userProductId].join(' · ')}
            </span>
          </>
        ) : (
          <span className="product-loading">{w.t('loadingRows')}</span>
        )}
      </div>
      {colItems.map((c) => {
        const column = columns[c.index]!;
        const cell = row?.cells[column.key];
        return (
          <Cell
            key={column.key}
            row={index}
            col={c.index}
            column={column}
            product={product}
            cell={cell}
            gridRow={row}
            active={activeCol === c.index}
            saving={row ? saving[`${row.userProductId}|${column.key}`] === true : false}
            loaded={row !== undefined}
            editing={editing && editing.row === index ? editing : null}
            left={c.start}
            w={w}
          />
        );
      })}
      <div role="gridcell" className="grid-cell total-cell" aria-colindex={columns.length + 2} aria-readonly="true">
        {row ? w.formatNumber(rowTotal(row)) : ''}
      </div>
    </div>
  );
});

export function StockGrid({ label }: { label: string }) {
  const store = useStockStore();
  const w = useStockWords();
  const total = useStock((s) => s.total);
  const allColumns = useStock((s) => s.allColumns);
  const query = useStock((s) => s.query);
  const pages = useStock((s) => s.pages);
  const active = useStock((s) => s.active);
  const focusSeq = useStock((s) => s.focusSeq);
  const editing = useStock((s) => s.editing);
  const saving = useStock((s) => s.saving);
  const columns = useMemo(() => visibleColumns({ allColumns, query }), [allColumns, query]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const activeRef = useRef(active);
  /** The last focus request acted on (the effect also re-runs when the virtualizers change). */
  const focusHandled = useRef(0);
  activeRef.current = active;

  const rowV = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 4,
    paddingStart: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    // A new function when the focused row changes: the virtualizer recomputes its range with it.
    rangeExtractor: useCallback((r: Range) => keepIndex(r, active.row), [active.row]),
  });
  const colV = useVirtualizer({
    horizontal: true,
    count: columns.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => COLUMN_WIDTH,
    overscan: 1,
    paddingStart: PRODUCT_WIDTH,
    paddingEnd: TOTAL_WIDTH,
    scrollPaddingStart: PRODUCT_WIDTH,
    scrollPaddingEnd: TOTAL_WIDTH,
    rangeExtractor: useCallback((r: Range) => keepIndex(r, active.col), [active.col]),
  });

  // The product and total columns stay in view when scrolling sideways: they follow --sx (the
  // scroll position), written straight to the style on scroll. Not position: sticky — a sticky
  // cell in every row costs a layer each and made vertical scrolling drop frames.
  // The viewport's width (--vw) the same way, from a ResizeObserver (the history panel narrows it).
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let last = -1;
    const onScroll = () => {
      if (el.scrollLeft === last) return;
      last = el.scrollLeft;
      canvasRef.current?.style.setProperty('--sx', `${last}px`);
    };
    const onResize = () => canvasRef.current?.style.setProperty('--vw', `${el.clientWidth}px`);
    onScroll();
    onResize();
    el.addEventListener('scroll', onScroll, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(onResize);
    observer?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      observer?.disconnect();
    };
  }, []);

  const rowItems = rowV.getVirtualItems();
  const colItems = colV.getVirtualItems();
  const width = colV.getTotalSize();
  const height = rowV.getTotalSize();
  // The rows in view (not the focused row the range extractor keeps rendered far away).
  const first = rowV.range?.startIndex ?? 0;
  const last = rowV.range?.endIndex ?? 0;

  // Fetch the pages the viewport shows (and the focused row's), half a page behind and a page
  // ahead so rows usually arrive before they scroll into view. While the viewport flies past
  // faster than FAST_ROWS_PER_MS (a scroll bar drag), rows show as loading and the pages are
  // fetched once it slows down: pages flown past are never read.
  const motion = useRef({ first: 0, at: 0 });
  useEffect(() => {
    if (total === 0) return;
    const now = performance.now();
    const speed = Math.abs(first - motion.current.first) / Math.max(1, now - motion.current.at);
    motion.current = { first, at: now };
    const fetch = () => {
      const s = store.getState();
      s.ensureRows(Math.max(0, first - PAGE_SIZE / 2), Math.min(total - 1, last + PAGE_SIZE));
      s.ensureRows(s.active.row, s.active.row);
    };
    if (speed < FAST_ROWS_PER_MS) {
      fetch();
      return;
    }
    const timer = setTimeout(fetch, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [store, first, last, total, pages]);

  // Move focus to the active cell when asked (keys, a scan, the end of an edit or a dialog), in
  // the same task as the render that asked: an edit's input is gone by then, and keys typed
  // before the focus lands (a fast typist, a scanner) would go to the page instead of the grid.
  useLayoutEffect(() => {
    // Only a new focus request moves focus, not every change of the virtualizers.
    if (focusSeq === 0 || focusSeq === focusHandled.current) return;
    focusHandled.current = focusSeq;
    const { row, col } = activeRef.current;
    rowV.scrollToIndex(row, { align: 'auto' });
    colV.scrollToIndex(col, { align: 'auto' });
    const id = cellId(row, col);
    let tries = 0;
    const focus = () => {
      const el = document.getElementById(id);
      // A dialog opened meanwhile keeps the focus.
      if (document.activeElement?.closest('[role="dialog"]')) return;
      if (el && !el.contains(document.activeElement)) el.focus({ preventScroll: true });
      else if (!el && tries++ < 5) requestAnimationFrame(focus);
    };
    // A cell far away is rendered once the virtualizer has scrolled to it: then the next frames.
    focus();
  }, [focusSeq, rowV, colV]);

  const rowsPerPage = () => Math.max(1, Math.floor(((scrollRef.current?.clientHeight ?? 600) - HEADER_HEIGHT) / ROW_HEIGHT) - 1);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const s = store.getState();
    if (s.editing || e.altKey) return;
    const { row, col } = s.active;
    const lastCol = columns.length - 1;
    const lastRow = total - 1;
    const mod = e.ctrlKey || e.metaKey;
    let handled = true;
    switch (e.key) {
      case 'ArrowUp':
        s.moveTo(row - 1, col);
        break;
      case 'ArrowDown':
        s.moveTo(row + 1, col);
        break;
      case 'ArrowLeft':
        s.moveTo(row, col - 1);
        break;
      case 'ArrowRight':
        s.moveTo(row, col + 1);
        break;
      case 'Home':
        s.moveTo(mod ? 0 : row, 0);
        break;
      case 'End':
        s.moveTo(mod ? lastRow : row, lastCol);
        break;
      case 'PageUp':
        s.moveTo(row - rowsPerPage(), col);
        break;
      case 'PageDown':
        s.moveTo(row + rowsPerPage(), col);
        break;
      case 'Tab':
        if (e.shiftKey) {
          if (col > 0) s.moveTo(row, col - 1);
          else if (row > 0) s.moveTo(row - 1, lastCol);
          else handled = false;
        } else if (col < lastCol) s.moveTo(row, col + 1);
        else if (row < lastRow) s.moveTo(row + 1, 0);
        else handled = false;
        break;
      case 'Enter':
      case 'F2':
        s.startEdit();
        break;
      default:
        if (!mod && startsEdit(e.key)) s.startEdit(e.key);
        else handled = false;
    }
    if (handled) e.preventDefault();
  };

  const rowFor = (index: number) => rowAt({ pages }, index);
  // Only the rows with a cell being saved get the saving map: the others keep their props, so
  // starting or finishing a save re-renders one row, not every row on screen.
  const savingRows = useMemo(() => new Set(Object.keys(saving).map((k) => k.slice(0, k.indexOf('|')))), [saving]);

  return (
    <div
      ref={scrollRef}
      className="grid-scroll"
      role="grid"
      aria-label={label}
      aria-rowcount={total + 1}
      aria-colcount={columns.length + 2}
      onKeyDown={onKeyDown}
      onFocus={(e) => {
        // Focus that lands on the grid itself goes to the active cell.
        if (e.target === scrollRef.current) document.getElementById(cellId(active.row, active.col))?.focus({ preventScroll: true });
      }}
    >
      <div ref={canvasRef} className="grid-canvas" style={{ width, height, '--w': `${width}px` } as CSSProperties}>
        <div role="row" aria-rowindex={1} className="grid-row header-row" style={{ width }}>
          <div role="columnheader" className="grid-cell product-cell" aria-colindex={1}>
            {w.t('col.product')}
          </div>
          {colItems.map((c) => {
            const column = columns[c.index]!;
            return (
              <div role="columnheader" key={column.key} className="grid-cell data-cell" aria-colindex={c.index + 2} data-type={column.type} title={columnLabel(column, w.t)} style={{ left: c.start }}>
                <span className="column-name">
                  {column.type === 'platform_facility' ? (
                    <>
                      <LockIcon />{' '}
                    </>
                  ) : null}
                  {columnLabel(column, w.t)}
                </span>
                {column.type === 'seller_warehouse' ? <span className="column-id">{w.t('col.storeId', { id: column.key })}</span> : null}
              </div>
            );
          })}
          <div role="columnheader" className="grid-cell total-cell" aria-colindex={columns.length + 2}>
            {w.t('col.total')}
          </div>
        </div>
        {rowItems.map((r) => {
          const row = rowFor(r.index);
          return (
            <Row
              key={r.index}
              index={r.index}
              top={r.start}
              row={row}
              columns={columns}
              colItems={colItems}
              activeCol={active.row === r.index ? active.col : null}
              editing={editing && editing.row === r.index ? editing : null}
              saving={row && savingRows.has(row.userProductId) ? saving : NOT_SAVING}
              width={width}
              w={w}
            />
          );
        })}
      </div>
    </div>
  );
}

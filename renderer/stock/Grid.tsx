/**
 * The warehouse grid: user products × the seller's stock locations, virtualized in both
 * directions (@tanstack/react-virtual) so 100,000 rows × many stores cost what is on screen. Rows
 * are fetched from the core in pages as the viewport moves (store.ensureRows). The focused cell
 * is always rendered (the range extractors keep it) so keyboard focus never falls off the grid.
 *
 * Keys: arrows, Tab / Shift+Tab, Home / End (Ctrl: first / last row), PageUp / PageDown; Enter or
 * F2 edits, typing a digit or a sign starts an edit with it; in the editor Enter saves and moves
 * down, Tab saves and moves sideways, Esc cancels. A conflict cell opens its dialog instead.
 *
 * The parts: viewport.ts (the virtualizers and focus), keys.ts (what a key does), GridHeader.tsx,
 * GridRow.tsx, GridCell.tsx and GridEditor.tsx; the sizes in grid-layout.ts. A scroll re-renders
 * this component every frame: the header and the rows already on screen are memoized and keep
 * their props, so only the rows coming into view render.
 */
import { type CSSProperties, type KeyboardEvent, useEffect, useMemo, useRef } from 'react';
import { HEADER_HEIGHT, ROW_HEIGHT, cellId } from './grid-layout.js';
import { GridHeader } from './GridHeader.js';
import { Row } from './GridRow.js';
import { gridKeyAction } from './keys.js';
import { PAGE_SIZE, rowAt, useStock, useStockStore, visibleColumns } from './store.js';
import { useGridViewport } from './viewport.js';
import { useStockWords } from './words.js';

export { COLUMN_WIDTH, HEADER_HEIGHT, PRODUCT_WIDTH, ROW_HEIGHT, TOTAL_WIDTH, cellId } from './grid-layout.js';
export { cellStateText } from './GridCell.js';
export { nextSort } from './GridHeader.js';

/** Rows per millisecond above which the grid waits for the scroll to slow before fetching (500 rows/s). */
export const FAST_ROWS_PER_MS = 0.5;
const SETTLE_MS = 60;
const NOT_SAVING: Record<string, true> = {};

/**
 * Keys for the rows on screen by slot, not by index: a row scrolling out gives its elements to a row
 * scrolling in, which updates them (its name, its numbers) instead of building a row of elements
 * while another is taken down, on every frame of a scroll. A row still on screen keeps its slot
 * (the focused row is always rendered, so its focused cell is never handed to another row).
 */
function useRowSlots(indexes: number[]): number[] {
  const slots = useRef(new Map<number, number>());
  const previous = slots.current;
  const next = new Map<number, number>();
  for (const index of indexes) {
    const slot = previous.get(index);
    if (slot !== undefined) next.set(index, slot);
  }
  const taken = new Set(next.values());
  const free = [...previous.values()].filter((slot) => !taken.has(slot));
  let fresh = Math.max(-1, ...previous.values()) + 1;
  for (const index of indexes) if (!next.has(index)) next.set(index, free.pop() ?? fresh++);
  slots.current = next;
  return indexes.map((index) => next.get(index)!);
}

export function StockGrid({ label }: { label: string }) {
  const store = useStockStore();
  const w = useStockWords();
  const total = useStock((s) => s.total);
  const allColumns = useStock((s) => s.allColumns);
  const query = useStock((s) => s.query);
  const pages = useStock((s) => s.pages);
  const strays = useStock((s) => s.strays);
  const active = useStock((s) => s.active);
  const focusSeq = useStock((s) => s.focusSeq);
  const editing = useStock((s) => s.editing);
  const saving = useStock((s) => s.saving);
  const hidden = useStock((s) => s.hidden);
  const columns = useMemo(() => visibleColumns({ allColumns, query, hidden }), [allColumns, query, hidden]);
  const { scrollRef, canvasRef, rowV, colV, columnWidth } = useGridViewport({ total, columnCount: columns.length, active, focusSeq });

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

  // A first pull reads the stock of the rows on screen first (issue 29): told only while some of them are not read yet.
  const unreadInView = useMemo(() => {
    const ids: string[] = [];
    for (let i = first; i <= last; i++) {
      const r = rowAt({ pages, strays }, i);
      if (r?.stockUnread) ids.push(r.userProductId);
    }
    return ids.join(',');
  }, [pages, strays, first, last]);
  useEffect(() => {
    if (unreadInView !== '') void store.getState().api.sync.visible({ ids: unreadInView.split(',') });
  }, [store, unreadInView]);

  const rowsPerPage = () => Math.max(1, Math.floor(((scrollRef.current?.clientHeight ?? 600) - HEADER_HEIGHT) / ROW_HEIGHT) - 1);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const s = store.getState();
    const action = gridKeyAction(e, { editing: s.editing !== null, active: s.active, lastRow: total - 1, lastCol: columns.length - 1, rowsPerPage });
    if (!action) return;
    if (action.kind === 'move') s.moveTo(action.row, action.col);
    else if (action.kind === 'undo') void s.undo();
    else if (action.kind === 'transfer') s.openTransfer();
    else s.startEdit(action.text);
    e.preventDefault();
  };

  const rowFor = (index: number) => rowAt({ pages, strays }, index);
  const keys = useRowSlots(rowItems.map((r) => r.index));
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
      <div ref={canvasRef} className="grid-canvas" style={{ width, height, '--w': `${width}px`, '--cw': `${columnWidth}px` } as CSSProperties}>
        <GridHeader store={store} w={w} columns={columns} colItems={colItems} sort={query.sort} width={width} />
        {rowItems.map((r, i) => {
          const row = rowFor(r.index);
          return (
            <Row
              key={keys[i]}
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

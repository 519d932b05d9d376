/**
 * The stock grid's viewport: two virtualizers (@tanstack/react-virtual), rows down and store
 * columns across, whose range extractors always keep the active cell rendered so keyboard focus
 * never falls off the grid; the scroll position and width written to the canvas's style; and the
 * move of focus to the active cell when the store asks for it (focusSeq).
 */
import { defaultRangeExtractor, type Range, useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { PRODUCT_COLUMN, TOTAL_COLUMN } from './columns.js';
import { COLUMN_WIDTH, HEADER_HEIGHT, ROW_HEIGHT, cellId } from './grid-layout.js';

function keepIndex(range: Range, index: number): number[] {
  const out = defaultRangeExtractor(range);
  if (index >= 0 && index < range.count && !out.includes(index)) {
    out.push(index);
    out.sort((a, b) => a - b);
  }
  return out;
}

export interface ViewportInput {
  /** Rows in the grid. */
  total: number;
  /** Store columns on screen. */
  columnCount: number;
  active: { row: number; col: number };
  focusSeq: number;
}

/** The scroll element's and the canvas's refs, and the row and column virtualizers. */
export function useGridViewport({ total, columnCount, active, focusSeq }: ViewportInput) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const activeRef = useRef(active);
  /** The last focus request acted on (the effect also re-runs when the virtualizers change). */
  const focusHandled = useRef(0);
  activeRef.current = active;
  // The store columns share the width the product and total columns leave, never under
  // COLUMN_WIDTH: with few stores the grid still spans the window (issue 28), with many it scrolls.
  const [viewportWidth, setViewportWidth] = useState(0);
  const columnWidth =
    columnCount > 0 ? Math.max(COLUMN_WIDTH, Math.floor((viewportWidth - PRODUCT_COLUMN.width - TOTAL_COLUMN.width) / columnCount)) : COLUMN_WIDTH;

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
    count: columnCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => columnWidth,
    overscan: 1,
    paddingStart: PRODUCT_COLUMN.width,
    paddingEnd: TOTAL_COLUMN.width,
    scrollPaddingStart: PRODUCT_COLUMN.width,
    scrollPaddingEnd: TOTAL_COLUMN.width,
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
    const onResize = () => {
      canvasRef.current?.style.setProperty('--vw', `${el.clientWidth}px`);
      setViewportWidth(el.clientWidth);
    };
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

  // A new column width moves every column: the virtualizer measures again.
  useLayoutEffect(() => colV.measure(), [colV, columnWidth]);

  return { scrollRef, canvasRef, rowV, colV, columnWidth };
}

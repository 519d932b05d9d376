/** The editor of a stock cell: an input over the cell, its error or its question beside it, and its keys (keys.ts). */
import { type KeyboardEvent, type RefObject, useLayoutEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { cellId } from './grid-layout.js';
import { editorKeyAction } from './keys.js';
import { cellAt } from './selectors.js';
import { type Editing, useStockStore } from './store.js';
import type { StockWords } from './words.js';

export function Editor({ editing, label, w }: { editing: Editing; label: string; w: StockWords }) {
  const store = useStockStore();
  const ref = useRef<HTMLInputElement>(null);
  const errorId = `${cellId(editing.row, editing.col)}-error`;
  const hintId = 'stock-edit-hint';
  const started = useRef(editing.text);
  const askRef = useRef<HTMLDivElement>(null);
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
    const action = editorKeyAction(e);
    if (!action) return;
    e.preventDefault();
    if (action.kind === 'commit') void store.getState().commitEdit(action.move);
    else store.getState().cancelEdit();
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
        onBlur={(e) => {
          const s = store.getState();
          if (s.editing && s.editing.row === editing.row && s.editing.col === editing.col) {
            // Into the edit's question: it stays open; anywhere else a question is a no (never saved silently).
            if (e.relatedTarget instanceof Node && askRef.current?.contains(e.relatedTarget)) return;
            if (s.editing.error || s.editing.ask) s.cancelEdit();
            else void s.commitEdit('none');
          }
        }}
      />
      {editing.ask ? <Ask editing={editing} askRef={askRef} w={w} /> : null}
      {editing.error ? (
        <span className="cell-error" id={errorId} role="alert" title={editing.errorDetail}>
          {editing.error}
        </span>
      ) : null}
      <span className="visually-hidden" id={hintId}>
        {w.t('edit.hint')}
      </span>
    </>
  );
}

/**
 * What the cell asks before saving (editing.ts): a barcode typed into it (find the product, or save
 * it as a count), or a count far above what it holds (save it, or not). Focus goes to the harmless
 * choice first, so a second scan's Enter never saves; Esc is a no.
 */
function Ask({ editing, askRef, w }: { editing: Editing; askRef: RefObject<HTMLDivElement | null>; w: StockWords }) {
  const store = useStockStore();
  const first = useRef<HTMLButtonElement>(null);
  const textId = `${cellId(editing.row, editing.col)}-ask`;
  useLayoutEffect(() => first.current?.focus({ preventScroll: true }), [editing.ask]);
  const s = () => store.getState();
  const shown = (() => {
    const t = s();
    const at = cellAt(t, editing.row, editing.col);
    return at?.row.cells[at.column.key]?.shown ?? 0;
  })();
  const typed = editing.text.trim();
  // Over the grid, not inside the cell: a row after it, or the sticky product column, would cover it there.
  return createPortal(
    <div
      ref={askRef}
      className="cell-ask"
      role="alertdialog"
      aria-labelledby={textId}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Escape') {
          e.preventDefault();
          s().cancelEdit();
        }
      }}
    >
      <span id={textId}>
        {editing.ask === 'code'
          ? w.t('edit.looksLikeCode', { code: typed })
          : w.t('edit.bigJump', { quantity: w.formatNumber(Number(typed.replace(/\D/g, ''))), shown: w.formatNumber(shown) })}
      </span>
      {editing.ask === 'code' ? (
        <>
          <button ref={first} type="button" onClick={() => void s().findEditCode()}>
            {w.t('edit.findCode')}
          </button>
          <button type="button" onClick={() => void s().confirmEdit()}>
            {w.t('edit.saveAsCount')}
          </button>
        </>
      ) : (
        <>
          <button ref={first} type="button" onClick={() => s().cancelEdit()}>
            {w.t('edit.keepEditing')}
          </button>
          <button type="button" onClick={() => void s().confirmEdit()}>
            {w.t('edit.saveJump')}
          </button>
        </>
      )}
    </div>,
    document.body,
  );
}

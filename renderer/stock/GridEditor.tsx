/** The editor of a stock cell: an input over the cell, its error beside it, and its keys (keys.ts). */
import { type KeyboardEvent, useLayoutEffect, useRef } from 'react';
import { cellId } from './grid-layout.js';
import { editorKeyAction } from './keys.js';
import { type Editing, useStockStore } from './store.js';
import type { StockWords } from './words.js';

export function Editor({ editing, label, w }: { editing: Editing; label: string; w: StockWords }) {
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
        onBlur={() => {
          const s = store.getState();
          if (s.editing && s.editing.row === editing.row && s.editing.col === editing.col) {
            if (s.editing.error) s.cancelEdit();
            else void s.commitEdit('none');
          }
        }}
      />
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

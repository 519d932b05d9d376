/**
 * "Columns" in the grid's tools (issue 27): a checkbox per location column to show or hide it, and
 * the offer to hide the columns with nothing to edit ("Nothing to edit here"). Keyboard: the
 * button opens it, Tab and Space work the checkboxes, Esc closes it with focus back on the button.
 */
import { useId, useMemo, useRef, useState } from 'react';
import { idleColumns } from './columns-hidden.js';
import { columnLabel, useStock, useStockStore } from './store.js';
import { useStockWords } from './words.js';

export function ColumnsMenu() {
  const store = useStockStore();
  const w = useStockWords();
  const columns = useStock((s) => s.allColumns);
  const pages = useStock((s) => s.pages);
  const total = useStock((s) => s.total);
  const hidden = useStock((s) => s.hidden);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const idle = useMemo(() => new Set(idleColumns({ allColumns: columns, pages, total }).map((c) => c.key)), [columns, pages, total]);
  const offered = columns.filter((c) => idle.has(c.key) && !hidden.includes(c.key));
  const show = (key: string, on: boolean) => store.getState().setHidden(on ? hidden.filter((k) => k !== key) : [...hidden, key]);

  return (
    <span className="columns-menu">
      <button ref={button} type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {w.t('columns.button', { count: hidden.length })}
      </button>
      {open ? (
        <fieldset
          id={id}
          className="columns-panel"
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.preventDefault();
            e.stopPropagation();
            setOpen(false);
            button.current?.focus();
          }}
        >
          <legend>{w.t('columns.legend')}</legend>
          {offered.length > 0 ? (
            <p className="columns-offer">
              {w.t('columns.offer', { columns: offered.map((c) => columnLabel(c, w.t)).join(', ') })}{' '}
              <button type="button" onClick={() => store.getState().setHidden([...hidden, ...offered.map((c) => c.key)])}>
                {w.t('columns.hideIdle', { count: offered.length })}
              </button>
            </p>
          ) : null}
          {columns.map((c) => (
            <label key={c.key}>
              <input
                type="checkbox"
                checked={!hidden.includes(c.key)}
                aria-describedby={idle.has(c.key) ? `${id}-${c.key}` : undefined}
                onChange={(e) => show(c.key, e.target.checked)}
              />{' '}
              {columnLabel(c, w.t)}
              {idle.has(c.key) ? (
                <span id={`${id}-${c.key}`} className="muted">
                  {' '}
                  ({w.t('columns.nothing')})
                </span>
              ) : null}
            </label>
          ))}
        </fieldset>
      ) : null}
    </span>
  );
}

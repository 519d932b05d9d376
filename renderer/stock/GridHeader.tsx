/**
 * The stock grid's header row: the column names with their sort buttons. Memoized apart from the
 * rows: a scroll re-renders the grid on every frame, and the header changes only with the
 * columns in view, the order or the language.
 */
import { memo } from 'react';
import type { GridColumnView, GridSortView } from '../../common/contract/contract.js';
import { PRODUCT_COLUMN, TOTAL_COLUMN, columnEditable, locationSortKey, showsStoreId } from './columns.js';
import { LockIcon } from './icons.js';
import { type StockStore, columnLabel } from './store.js';
import type { StockWords } from './words.js';

/** The order after a click on a column's header: ascending, descending, then back to the default. */
export function nextSort(current: GridSortView | null | undefined, key: string): GridSortView | null {
  if (!current || current.key !== key) return { key, dir: 'asc' };
  return current.dir === 'asc' ? { key, dir: 'desc' } : null;
}

/** A column header's sort button and the aria-sort of its header. */
function SortButton({
  store,
  w,
  sortKey,
  label,
  sort,
}: {
  store: StockStore;
  w: StockWords;
  sortKey: string;
  label: string;
  sort: GridSortView | null | undefined;
}) {
  const dir = sort?.key === sortKey ? sort.dir : null;
  return (
    <button
      type="button"
      className="sort-button"
      aria-label={w.t('sort.by', { column: label })}
      aria-pressed={dir !== null}
      data-dir={dir ?? undefined}
      // The grid's own keys (arrows, Enter to edit) are not this button's.
      onKeyDown={(e) => e.stopPropagation()}
      onClick={() => void store.getState().setQuery({ sort: nextSort(store.getState().query.sort, sortKey) })}
    >
      {/* The arrow is drawn by CSS (grid-tools.css): the header's text stays the column's name. */}
    </button>
  );
}

const ariaSort = (sort: GridSortView | null | undefined, key: string) =>
  sort?.key === key ? (sort.dir === 'asc' ? ('ascending' as const) : ('descending' as const)) : undefined;

interface HeaderProps {
  store: StockStore;
  w: StockWords;
  columns: GridColumnView[];
  colItems: { index: number; start: number }[];
  sort: GridSortView | null | undefined;
  width: number;
}

export const GridHeader = memo(function GridHeader({ store, w, columns, colItems, sort, width }: HeaderProps) {
  return (
    <div role="row" aria-rowindex={1} className="grid-row header-row" style={{ width }}>
      <div role="columnheader" className="grid-cell product-cell" aria-colindex={1} aria-sort={ariaSort(sort, PRODUCT_COLUMN.sortKey)}>
        {w.t(PRODUCT_COLUMN.labelKey)}
        <SortButton store={store} w={w} sortKey={PRODUCT_COLUMN.sortKey} label={w.t(PRODUCT_COLUMN.labelKey)} sort={sort} />
      </div>
      {colItems.map((c) => {
        const column = columns[c.index]!;
        return (
          <div
            role="columnheader"
            key={column.key}
            className="grid-cell data-cell"
            aria-colindex={c.index + 2}
            aria-sort={ariaSort(sort, locationSortKey(column))}
            data-type={column.type}
            title={columnLabel(column, w.t)}
            style={{ left: c.start }}
          >
            <span className="column-name">
              {!columnEditable(column) ? (
                <>
                  <LockIcon />{' '}
                </>
              ) : null}
              {columnLabel(column, w.t)}
            </span>
            {showsStoreId(column) ? <span className="column-id">{w.t('col.storeId', { id: column.key })}</span> : null}
            <SortButton store={store} w={w} sortKey={locationSortKey(column)} label={columnLabel(column, w.t)} sort={sort} />
          </div>
        );
      })}
      <div role="columnheader" className="grid-cell total-cell" aria-colindex={columns.length + 2} aria-sort={ariaSort(sort, TOTAL_COLUMN.sortKey)}>
        {w.t(TOTAL_COLUMN.labelKey)}
        <SortButton store={store} w={w} sortKey={TOTAL_COLUMN.sortKey} label={w.t(TOTAL_COLUMN.labelKey)} sort={sort} />
      </div>
    </div>
  );
});

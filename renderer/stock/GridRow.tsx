/** A row of the stock grid: the product, its cells in view, and its total. */
import { memo } from 'react';
import type { GridColumnView, GridRowView } from '../../common/contract/contract.js';
import { Cell } from './GridCell.js';
import { type Editing, atSellingAddress, rowTotal } from './store.js';
import type { StockWords } from './words.js';

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

/**
 * Locations of kinds the app has no rules for, with the type as the marketplace sent it (`drone_hangar
 * 9`, `pickup (store 12) 4`): shown, never edited.
 */
function otherList(row: GridRowView, w: StockWords): string {
  return (row.others ?? []).map((l) => `${l.type}${l.storeId ? ` (${w.t('col.storeId', { id: l.storeId })})` : ''} ${w.formatNumber(l.quantity)}`).join(', ');
}

export const Row = memo(function Row({ index, top, row, columns, colItems, activeCol, editing, saving, width, w }: RowProps) {
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
  const sellingAddress = atSellingAddress(row);
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className="grid-row"
      // Above the rows after it while its cell's validation message shows (stock.css).
      data-error={editing?.error ? true : undefined}
      style={{ transform: `translateY(${top}px)`, width }}
    >
      <div role="rowheader" className="grid-cell product-cell" aria-colindex={1}>
        {row ? (
          <>
            <span className="product-title">{row.title ?? row.userProductId}</span>
            <span className="product-ids">
              {[...(row.itemIds ?? []), row.userProductId].join(' · ')}
              {row.others ? (
                <>
                  {' · '}
                  <span className="product-other" title={otherList(row, w)}>
                    {w.t('otherLocations', { list: otherList(row, w) })}
                  </span>
                </>
              ) : null}
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
            sellingAddress={sellingAddress}
            reorderPoint={row?.reorder?.[column.key]}
            cover={row?.cover?.[column.key]}
            active={activeCol === c.index}
            saving={row ? saving[`${row.userProductId}|${column.key}`] === true : false}
            loaded={row !== undefined}
            // Only the cell being edited gets the editor's state: a keystroke re-renders that cell.
            editing={editing && editing.row === index && editing.col === c.index ? editing : null}
            left={c.start}
            w={w}
          />
        );
      })}
      <div role="gridcell" className="grid-cell total-cell" aria-colindex={columns.length + 2} aria-readonly="true">
        {row ? (row.stockUnread ? '—' : w.formatNumber(rowTotal(row))) : ''}
      </div>
    </div>
  );
});

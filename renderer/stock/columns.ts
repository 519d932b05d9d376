/**
 * The stock grid's column table: the fixed columns around the locations (product, total) and, per
 * kind of location (common/grid-columns.ts), its name in the person's language and its sort key.
 * The header, the rows, the viewport, the CSV export and the locks read it; a new column is an
 * entry here, its words, and (for a location kind) its entry in common/grid-columns.ts.
 */
import type { GridColumnView } from '../../common/contract/contract.js';
import { LOCATION_COLUMNS } from '../../common/grid-columns.js';
import type { LocationType } from '../../common/stock-vocabulary.js';
import { PRODUCT_WIDTH, TOTAL_WIDTH } from './grid-layout.js';
import type { StockKey } from './words.js';

export interface FixedColumn {
  labelKey: StockKey;
  /** The sort key its header's button sets. */
  sortKey: 'title' | 'total';
  width: number;
}

/** The first and the last column of every row. */
export const PRODUCT_COLUMN: FixedColumn = { labelKey: 'col.product', sortKey: 'title', width: PRODUCT_WIDTH };
export const TOTAL_COLUMN: FixedColumn = { labelKey: 'col.total', sortKey: 'total', width: TOTAL_WIDTH };

/** A location kind's name in the person's language; null: the column's own label (a store's name). */
const LABEL_KEYS: Readonly<Record<LocationType, StockKey | null>> = {
  seller_warehouse: null,
  selling_address: 'col.sellingAddress',
  platform_facility: 'col.platform',
};

/** A location column's name in the person's language (a store keeps its own name). */
export function locationLabel(c: Pick<GridColumnView, 'type' | 'label'>, t: (key: StockKey) => string): string {
  const key = LABEL_KEYS[c.type];
  return key === null ? c.label : t(key);
}

/** Whether a location column's cells can ever be edited (a cell may still be locked by its product). */
export const columnEditable = (c: Pick<GridColumnView, 'type'>) => LOCATION_COLUMNS[c.type].editable;

/** Whether the header shows the store id under the name. */
export const showsStoreId = (c: Pick<GridColumnView, 'type'>) => LOCATION_COLUMNS[c.type].showsStoreId;

/** The sort key of a location column: its own key (a store id, `selling_address`, `platform_facility`). */
export const locationSortKey = (c: Pick<GridColumnView, 'key'>) => c.key;

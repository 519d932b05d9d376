import type { LookupRowView, LookupView } from '../../common/contract/contract.js';
import { isEditableType } from '../../common/stock-vocabulary.js';
import type { Db } from '../db/open.js';
import type { ItemFacts } from '../db/repos/grid.js';
import { gridColumns, lookupRows } from '../sync/read-model.js';
import { type GridOptions, lockOf, repoOf, resolveIds, visibleColumns } from './grid.js';

/**
 * The CSV import's preview (`stock.lookup`): the products a file names with only the cells of its
 * columns, each with what the grid shows, whether it may be edited and the lock's reason. The
 * full grid rows (`rowsByIds`) built every cell's entries and conflict views for 10,000 products,
 * which the dry run never reads. `columns` are column keys (absent: all); the selling address is
 * always read, for the pairing rule (a product with one has no store cells to add).
 */
export function importLookup(db: Db, sellerId: number, ids: string[], columns: string[] | undefined, o: GridOptions = { authority: false }): LookupView {
  return db.transaction((): LookupView => {
    const { products, missing, aliases } = resolveIds(db, sellerId, ids);
    const keys = columns ? new Set([...columns, 'selling_address']) : null;
    const rows = lookupRows(db, sellerId, products, keys);
    // Item facts only decide the selling address's lock: read them for the products that have one.
    const selling = rows.filter((r) => r.cells.selling_address !== undefined).map((r) => r.userProductId);
    const items = new Map<string, ItemFacts[]>();
    for (const f of selling.length > 0 ? repoOf(db).itemFacts(selling) : []) items.set(f.user_product_id, [...(items.get(f.user_product_id) ?? []), f]);
    const views: LookupRowView[] = rows.map((r) => {
      const cells: LookupRowView['cells'] = {};
      for (const [key, c] of Object.entries(r.cells)) {
        const lock = lockOf(c, items.get(r.userProductId), o);
        cells[key] = { type: c.type, shown: c.shown, editable: isEditableType(c.type) && lock === null, lock };
      }
      return { ...r, cells };
    });
    return { columns: visibleColumns(db, sellerId, gridColumns(db, sellerId)), rows: views, missing, aliases };
  })();
}

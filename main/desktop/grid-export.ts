/** The grid as an .xlsx workbook (`stock.exportXlsx`): read in pages in the main process, written by xlsx.ts. */
import type { FileBytesView, GridColumnView, GridRowView } from '../../common/contract/contract.js';
import type { Db } from '../db/open.js';
import { type GridFilters, type GridOptions, gridPage } from './grid.js';
import { gridWorkbook } from './xlsx.js';

const PAGE = 1000;

export async function exportXlsx(db: Db, sellerId: number, filters: GridFilters, o: GridOptions, day: string): Promise<FileBytesView> {
  const rows: GridRowView[] = [];
  let columns: GridColumnView[];
  for (let offset = 0; ; offset += PAGE) {
    const page = gridPage(db, sellerId, { ...filters, limit: PAGE, offset, changes: true }, o);
    columns = page.columns;
    rows.push(...page.rows);
    if (page.rows.length < PAGE || rows.length >= page.total) break;
  }
  const shown = filters.store !== undefined ? columns.filter((c) => c.key === filters.store) : columns;
  // The rows carry their SKUs (read with `changes`, as the notes are).
  const bytes = await gridWorkbook(shown, rows);
  return { name: `stock-${day}.xlsx`, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', bytes };
}

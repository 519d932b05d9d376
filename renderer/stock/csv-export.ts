/**
 * Export of the grid as it is filtered and sorted now: CSV read from the core in pages (progress in
 * the status bar) with the list separator of the person's language (`;` for es and pt-BR), or an
 * .xlsx workbook in the bulk editor's layout, made in the main process (stock.exportXlsx).
 */
import type { GridColumnView, GridRowView } from '../../common/contract/contract.js';
import { useI18nStore } from '../i18n/index.js';
import { toast } from '../ui/Toast.js';
import { csvDelimiter, gridCsv } from './csv.js';
import { queryPayload } from './page-cache.js';
import { tr } from './selectors.js';
import { type StockStore, visibleColumns } from './store.js';

export const EXPORT_PAGE = 200;

/** Offers `data` as a file download (works in a browser and in Electron's renderer); text gets a BOM for Excel. */
export function download(name: string, data: string | Uint8Array, type = 'text/csv;charset=utf-8'): void {
  const parts: BlobPart[] = typeof data === 'string' ? ['\ufeff', data] : [data as Uint8Array<ArrayBuffer>];
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function exportCsv(store: StockStore, save: (name: string, text: string) => void = download): Promise<boolean> {
  const s = store.getState();
  const q = s.query;
  const filters = queryPayload(q);
  const rows: GridRowView[] = [];
  // Every column the filters show, hidden or not: hiding is the screen's (columns-hidden.ts), the file keeps the data.
  let columns: GridColumnView[] = visibleColumns({ allColumns: s.allColumns, query: q });
  let total = s.total;
  s.setActivity({ kind: 'export', done: 0, total });
  try {
    for (let offset = 0; offset === 0 || offset < total; offset += EXPORT_PAGE) {
      const r = await s.api.stock.grid({ ...filters, limit: EXPORT_PAGE, offset, changes: true });
      if (!r.ok) {
        s.sayError('error', r.error);
        return false;
      }
      total = r.value.total;
      columns = visibleColumns({ allColumns: r.value.columns, query: q });
      rows.push(...r.value.rows);
      store.getState().setActivity({ kind: 'export', done: rows.length, total });
      if (r.value.rows.length === 0) break;
    }
    const day = new Date().toISOString().slice(0, 10);
    save(`stock-${day}.csv`, gridCsv(columns, rows, csvDelimiter(useI18nStore.getState().language)));
    // A confirmation, not news for the notice line (scans and edits): a toast.
    toast(tr('csv.exported', { count: rows.length }));
    return true;
  } finally {
    store.getState().setActivity(null);
  }
}

/** The grid as filtered and sorted now, as an .xlsx workbook written by the main process. */
export async function exportXlsx(store: StockStore, save: (name: string, bytes: Uint8Array, type: string) => void = download): Promise<boolean> {
  const s = store.getState();
  s.setActivity({ kind: 'export', done: 0, total: s.total });
  try {
    const r = await s.api.stock.exportXlsx(queryPayload(s.query));
    if (!r.ok) {
      s.sayError('error', r.error);
      return false;
    }
    save(r.value.name, r.value.bytes, r.value.type);
    toast(tr('csv.exported', { count: store.getState().total }));
    return true;
  } finally {
    store.getState().setActivity(null);
  }
}

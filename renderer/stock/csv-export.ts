/** Export of the grid as it is filtered now: read from the core in pages (progress in the status bar), one CSV file. */
import type { GridColumnView, GridRowView } from '../../preload/contract.js';
import { gridCsv } from './csv.js';
import { type StockStore, visibleColumns } from './store.js';

export const EXPORT_PAGE = 200;

/** Offers `text` as a file download (works in a browser and in Electron's renderer). */
export function download(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob(['\ufeff', text], { type }));
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
  const filters = {
    ...(q.search.trim() !== '' ? { search: q.search.trim() } : {}),
    ...(q.filter !== 'all' ? { filter: q.filter } : {}),
    ...(q.store !== null ? { store: q.store } : {}),
    ...(q.lowStock !== null ? { lowStock: q.lowStock } : {}),
  };
  const rows: GridRowView[] = [];
  let columns: GridColumnView[] = visibleColumns(s);
  let total = s.total;
  s.setActivity({ kind: 'export', done: 0, total });
  try {
    for (let offset = 0; offset === 0 || offset < total; offset += EXPORT_PAGE) {
      const r = await s.api.stock.grid({ ...filters, limit: EXPORT_PAGE, offset });
      if (!r.ok) {
        s.say('error', { message: r.error.message }, 'error');
        return false;
      }
      total = r.value.total;
      columns = visibleColumns({ allColumns: r.value.columns, query: q });
      rows.push(...r.value.rows);
      store.getState().setActivity({ kind: 'export', done: rows.length, total });
      if (r.value.rows.length === 0) break;
    }
    const day = new Date().toISOString().slice(0, 10);
    save(`stock-${day}.csv`, gridCsv(columns, rows));
    store.getState().say('csv.exported', { count: rows.length });
    return true;
  } finally {
    store.getState().setActivity(null);
  }
}

import type { EditableType } from '../../../common/stock-vocabulary.js';
import type { Db } from '../open.js';

export interface GridViewRow {
  id: number;
  name: string;
  /** The view's query as JSON (the caller parses it with its schema). */
  query: string;
}

/**
 * The grid's settings kept in the database (migration 015): reorder points per cell and saved
 * views; and the workstation's own choices (migration 026). Writes are single statements (autocommit).
 */
export function gridPrefsRepo(db: Db) {
  const setPoint = db.prepare<[string, string, string, number]>(
    `INSERT INTO reorder_points (user_product_id, cell_type, store_key, point) VALUES (?, ?, ?, ?)
       ON CONFLICT (user_product_id, cell_type, store_key) DO UPDATE SET point = excluded.point`,
  );
  const clearPoint = db.prepare<[string, string, string]>('DELETE FROM reorder_points WHERE user_product_id = ? AND cell_type = ? AND store_key = ?');
  const views = db.prepare<[], GridViewRow>('SELECT id, name, query FROM grid_views ORDER BY name COLLATE NOCASE, id');
  const saveView = db.prepare<[string, string, number]>(
    'INSERT INTO grid_views (name, query, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET query = excluded.query',
  );
  const deleteView = db.prepare<[number]>('DELETE FROM grid_views WHERE id = ?');
  // A workstation's own choices (migration 026), such as the store scans go to.
  const pref = db.prepare<[string], string>('SELECT value FROM workstation_prefs WHERE name = ?').pluck(true);
  const setPref = db.prepare<[string, string]>(
    'INSERT INTO workstation_prefs (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
  );
  return {
    /** Sets a cell's reorder point, or removes it (null). */
    setReorderPoint(cell: { userProductId: string; type: EditableType; storeKey: string }, point: number | null): void {
      if (point === null) clearPoint.run(cell.userProductId, cell.type, cell.storeKey);
      else setPoint.run(cell.userProductId, cell.type, cell.storeKey, point);
    },
    views: () => views.all(),
    saveView: (name: string, query: string, now: number) => saveView.run(name, query, now),
    deleteView: (id: number) => deleteView.run(id).changes > 0,
    /** A workstation choice by name, or null when never made. */
    pref: (name: string): string | null => pref.get(name) ?? null,
    setPref: (name: string, value: string) => setPref.run(name, value),
  };
}
export type GridPrefsRepo = ReturnType<typeof gridPrefsRepo>;

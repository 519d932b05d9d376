/** Reorder points and saved views of the grid (migration 015), and the store scans go to (026), over the profile's database. */
import { z } from 'zod';
import { SORT_DIRECTIONS, STATE_FILTERS } from '../../common/stock-vocabulary.js';
import type { InputOf, SavedGridViewView } from '../../common/contract/contract.js';
import type { Db } from '../db/open.js';
import { type GridPrefsRepo, gridPrefsRepo } from '../db/repos/grid-prefs.js';
import { badRequest } from '../service/errors.js';

const repos = new WeakMap<Db, GridPrefsRepo>();
function repoOf(db: Db): GridPrefsRepo {
  let repo = repos.get(db);
  if (!repo) repos.set(db, (repo = gridPrefsRepo(db)));
  return repo;
}

/** What a stored view must be to be shown (a row written by a later version is skipped, not trusted). */
const storedQuery = z.strictObject({
  search: z.string().max(200),
  filter: z.enum(STATE_FILTERS),
  store: z.string().max(64).nullable(),
  lowStock: z.number().int().min(0).max(1_000_000).nullable(),
  belowReorder: z.boolean(),
  sort: z.strictObject({ key: z.string().max(64), dir: z.enum(SORT_DIRECTIONS) }).nullable(),
  hidden: z.array(z.string().min(1).max(64)).max(200).optional(),
  cover: z.boolean().optional(),
});

export function savedViews(db: Db): SavedGridViewView[] {
  return repoOf(db)
    .views()
    .flatMap((v) => {
      let json: unknown;
      try {
        json = JSON.parse(v.query);
      } catch {
        return [];
      }
      const query = storedQuery.safeParse(json);
      return query.success ? [{ id: v.id, name: v.name, query: query.data }] : [];
    });
}

export function saveView(db: Db, input: InputOf<'stock', 'saveView'>, now: number): SavedGridViewView[] {
  repoOf(db).saveView(input.name.trim(), JSON.stringify(input.query), now);
  return savedViews(db);
}

export function deleteView(db: Db, id: number): SavedGridViewView[] {
  repoOf(db).deleteView(id);
  return savedViews(db);
}

/** A cell's reorder point (the cell is an owned user product's; checked by the caller). */
export function setReorderPoint(db: Db, cell: { userProductId: string; type: string; storeKey: string }, point: number | null): { point: number | null } {
  if (cell.type !== 'seller_warehouse' && cell.type !== 'selling_address') throw badRequest('Only a store or the selling address has a reorder point');
  if (cell.type === 'seller_warehouse' && cell.storeKey === '') throw badRequest('A store cell needs its store id');
  repoOf(db).setReorderPoint({ userProductId: cell.userProductId, type: cell.type, storeKey: cell.storeKey }, point);
  return { point };
}

const SCAN_STORE = 'scan_store';

/**
 * The store scans go to on this workstation (the grid's column key of a store), as chosen last;
 * null when never chosen. Whether it still exists is the screen's to check: it says so when not.
 */
export function scanStore(db: Db): { store: string | null } {
  return { store: repoOf(db).pref(SCAN_STORE) };
}

export function setScanStore(db: Db, store: string): { store: string } {
  repoOf(db).setPref(SCAN_STORE, store);
  return { store };
}

const HIDDEN_COLUMNS = 'hidden_columns';
const storedHidden = z.array(z.string().min(1).max(64)).max(200);

/**
 * The location columns hidden in the grid on this workstation (issue 27), as chosen last; none when
 * never chosen, or when the stored value is not one this version reads (shown, never trusted).
 */
export function hiddenColumns(db: Db): { hidden: string[] } {
  const stored = repoOf(db).pref(HIDDEN_COLUMNS);
  if (stored === null) return { hidden: [] };
  let json: unknown;
  try {
    json = JSON.parse(stored);
  } catch {
    return { hidden: [] };
  }
  const hidden = storedHidden.safeParse(json);
  return { hidden: hidden.success ? hidden.data : [] };
}

export function setHiddenColumns(db: Db, hidden: string[]): { hidden: string[] } {
  const unique = [...new Set(hidden)];
  repoOf(db).setPref(HIDDEN_COLUMNS, JSON.stringify(unique));
  return { hidden: unique };
}

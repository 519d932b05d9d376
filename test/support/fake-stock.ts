/**
 * The stock screens' data for their component tests: the grid's columns and rows, and
 * `fakeStockroom`, the shared fake API (test/support/fake-api.ts) whose stock calls answer from an
 * in-memory grid and change it as edits come. The e2e tests use the real thing.
 *
 * No Node or DOM types here: the renderer's component tests compile this file too.
 */
import type {
  CellView,
  EntryView,
  GridColumnView,
  GridRowView,
  HistoryEntryView,
  QueueResultView,
  Result,
  SavedGridViewView,
  StoreView,
} from '../../common/contract/contract.js';
import { type Answer, type FakeApi, fakeApi, ok } from './fake-api.js';

export const COLUMNS: GridColumnView[] = [
  { key: '64712', type: 'seller_warehouse', storeId: '64712', label: 'Depósito Palermo' },
  { key: '64713', type: 'seller_warehouse', storeId: '64713', label: 'Depósito Avellaneda' },
  { key: 'selling_address', type: 'selling_address', storeId: null, label: 'Selling address' },
  { key: 'platform_facility', type: 'platform_facility', storeId: null, label: 'Platform fulfillment' },
];

export function cell(userProductId: string, column: GridColumnView, shown: number, patch: Partial<CellView> = {}): CellView {
  return {
    userProductId,
    type: column.type,
    storeId: column.storeId,
    cell: `${userProductId}|${column.type}|${column.storeId ?? ''}`,
    remote: { quantity: shown, version: '1' },
    shown,
    state: 'synced',
    editable: column.type !== 'platform_facility',
    entries: [],
    conflict: null,
    error: null,
    lock:
      column.type === 'platform_facility'
        ? { reason: 'platform_managed', message: 'Stock of type platform_facility cannot be edited through the interface.' }
        : null,
    ...patch,
  };
}

/** The phase the core tells of an entry in `state` when nothing else is said (main/sync/model.ts phaseOf). */
const PHASE_OF_STATE: Record<EntryView['state'], EntryView['phase']> = {
  pending: 'queued',
  in_flight: 'on_wire',
  done: 'done',
  conflict: 'conflict',
  failed: 'refused',
};

/** A queued edit of a cell: an adjustment of +1 by default; its phase follows its state unless given. */
export function entry(patch: Partial<EntryView> & Pick<EntryView, 'id'>): EntryView {
  const state = patch.state ?? 'pending';
  return {
    op: 'adjust',
    delta: 1,
    quantity: null,
    state,
    phase: PHASE_OF_STATE[state],
    onTheWire: state === 'in_flight',
    attempts: 0,
    nextAttemptAt: 0,
    lastStatus: null,
    lastError: null,
    ...patch,
  };
}

/** A cell's conflict: a count of `local` made at `base`, the marketplace now at `remote`; no later adjustments unless given. */
export function conflictOf(
  entryId: number,
  base: number,
  local: number,
  remote: number,
  patch: Partial<NonNullable<CellView['conflict']>> = {},
): NonNullable<CellView['conflict']> {
  return { entryId, base: { version: '1', quantity: base }, local, remote: { version: '2', quantity: remote }, laterAdjustments: 0, ...patch };
}

/** A cell's failed entry: refused by the marketplace (`unknown: false`) unless said otherwise. */
export function errorOf(entryId: number, status: number | null, message: string, unknown = false): NonNullable<CellView['error']> {
  return { entryId, status, message, unknown };
}

export const id = (i: number) => `MLAU${String(100000001 + i)}`;

/** `count` products: each with both stores (i and i + 10) and platform stock; product 2 is at its selling address instead. */
export function sampleRows(count: number): GridRowView[] {
  const [palermo, avellaneda, selling, platform] = COLUMNS as [GridColumnView, GridColumnView, GridColumnView, GridColumnView];
  return Array.from({ length: count }, (_, i) => {
    const up = id(i);
    const cells: Record<string, CellView> =
      i === 2
        ? {
            selling_address: cell(up, selling, 0, {
              editable: false,
              lock: { reason: 'no_inventory_id', message: 'You cannot modify selling address stock in items without inventory id.' },
            }),
            platform_facility: cell(up, platform, 7),
          }
        : { '64712': cell(up, palermo, i), '64713': cell(up, avellaneda, i + 10), platform_facility: cell(up, platform, 5) };
    return { userProductId: up, title: `Producto ${i}`, version: '1', itemIds: [`MLA${1400000001 + i}`], cells };
  });
}

/** The stock grid's in-memory model over the shared fake (test/support/fake-api.ts). */
export interface FakeStockroom extends FakeApi {
  rows: GridRowView[];
  columns: GridColumnView[];
  history: HistoryEntryView[];
  stores: StoreView[];
  views: SavedGridViewView[];
  /** A line `stock.importApply` refuses (the whole import with it), or null. */
  refuseLine: number | null;
  /** The store scans go to, as the workstation keeps it (`stock.scanStore`). */
  scanStore: string | null;
  /** The columns hidden in the grid, as the workstation keeps them (`stock.hiddenColumns`). */
  hidden: string[];
}

/** A fake whose stock calls answer from an in-memory grid of `rows` (edits change it; other areas are not faked). */
export function fakeStockroom(rows: GridRowView[] = sampleRows(5)): FakeStockroom {
  // The answers read `f` (below) when called: the grid as the test has changed it by then.
  const find = (p: { userProductId: string; type: string; storeId?: string }) => {
    const row = f.rows.find((r) => r.userProductId === p.userProductId);
    const key = p.type === 'seller_warehouse' ? p.storeId! : p.type;
    return { row, key, cell: row?.cells[key] };
  };
  const queue = (p: { userProductId: string; type: string; storeId?: string }, next: (shown: number) => number): Result<QueueResultView> => {
    const { row, key, cell: c } = find(p);
    if (!row) return { ok: false, error: { code: 'not_found', message: 'User product not found', status: 404 } };
    const column = f.columns.find((x) => x.key === key)!;
    const shown = next(c?.shown ?? 0);
    row.cells[key] = { ...(c ?? cell(row.userProductId, column, 0)), shown, state: 'pending' };
    return ok({ entryId: 77, how: 'queued', shown, historyId: 1 });
  };

  const handlers: Record<string, Answer> = {
    'stock.grid': (payload) => {
      const q = (payload ?? {}) as { limit?: number; offset?: number; search?: string; filter?: string; store?: string; lowStock?: number };
      let list = f.rows;
      if (q.search) list = list.filter((r) => r.userProductId === q.search || (r.title ?? '').toLowerCase().includes(q.search!.toLowerCase()));
      if (q.filter && q.filter !== 'all') list = list.filter((r) => Object.values(r.cells).some((c) => c.state === q.filter));
      if (q.store) list = list.filter((r) => r.cells[q.store!] !== undefined);
      const offset = q.offset ?? 0;
      return ok({ total: list.length, columns: f.columns, rows: structuredClone(list.slice(offset, offset + (q.limit ?? 100))) });
    },
    'stock.locate': (payload) => {
      const q = payload as { search: string; page?: number; near?: number };
      const index = f.rows.findIndex((r) => r.userProductId === q.search || (r.itemIds ?? []).includes(q.search));
      const found = { userProductId: index >= 0 ? f.rows[index]!.userProductId : null, index: index >= 0 ? index : null, total: f.rows.length };
      if (index < 0 || !q.page) return ok(found);
      // As the core does: the row's page comes with the answer when the grid gives its page size (with `near`, only the rows near it).
      const pageStart = Math.floor(index / q.page) * q.page;
      const offset = q.near === undefined ? pageStart : Math.max(pageStart, index - q.near);
      const end = q.near === undefined ? pageStart + q.page : Math.min(pageStart + q.page, index + q.near + 1);
      return ok({
        ...found,
        page: { offset, grid: { total: f.rows.length, columns: f.columns, rows: structuredClone(f.rows.slice(offset, end)) } },
      });
    },
    'stock.rows': (payload) => {
      const ids = (payload as { ids: string[] }).ids.map((x) => x.toUpperCase());
      const aliases: Record<string, string> = {};
      for (const r of f.rows) for (const item of r.itemIds ?? []) if (ids.includes(item)) aliases[item] = r.userProductId;
      const found = f.rows.filter((r) => ids.includes(r.userProductId) || Object.values(aliases).includes(r.userProductId));
      const missing = ids.filter((x) => !found.some((r) => r.userProductId === x) && aliases[x] === undefined);
      return ok({ columns: f.columns, rows: structuredClone(found), missing, aliases });
    },
    // The import's light lookup: the grid's rows are of its shape (whole rows: the fake keeps no other).
    'stock.lookup': (payload) => handlers['stock.rows']!({ ids: (payload as { ids: string[] }).ids }),
    'stock.cell': (payload) => {
      const { cell: c } = find(payload as { userProductId: string; type: string; storeId?: string });
      return c ? ok(structuredClone(c)) : { ok: false, error: { code: 'not_found', message: 'no such cell', status: 404 } };
    },
    'stock.history': () => ok(f.history),
    'stock.adjust': (payload) => {
      const p = payload as { userProductId: string; type: string; storeId?: string; delta: number };
      return queue(p, (s) => s + p.delta);
    },
    'stock.count': (payload) => {
      const p = payload as { userProductId: string; type: string; storeId?: string; quantity: number };
      return queue(p, () => p.quantity);
    },
    'stock.resolveConflict': (payload) => {
      const p = payload as { entryId: number; resolution: { action: string; quantity?: number } };
      for (const r of f.rows)
        for (const [k, c] of Object.entries(r.cells)) {
          if (c.conflict?.entryId !== p.entryId) continue;
          // Take theirs keeps the adjustments typed after the count (they are their own intents).
          const shown =
            p.resolution.action === 'take_theirs'
              ? (c.conflict.remote.quantity ?? 0) + c.conflict.laterAdjustments
              : p.resolution.action === 'keep_mine'
                ? c.conflict.local
                : p.resolution.quantity!;
          r.cells[k] = { ...c, shown, state: p.resolution.action === 'take_theirs' ? 'synced' : 'pending', conflict: null };
          return ok({ entryId: p.resolution.action === 'take_theirs' ? null : p.entryId, how: 'resolved', shown, historyId: 2 });
        }
      return { ok: false, error: { code: 'not_found', message: `Outbox entry ${p.entryId} not found`, status: 404 } };
    },
    // One call for a whole import: all applied, or (refuseLine) none, naming the line.
    'stock.importApply': (payload) => {
      const p = payload as {
        changes: ({ userProductId: string; type: string; storeId?: string; line: number } & (
          { kind: 'count'; quantity: number } | { kind: 'adjust'; delta: number }
        ))[];
      };
      const bad = p.changes.find((c) => c.line === f.refuseLine);
      if (bad)
        return { ok: false, error: { code: 'bad_request', message: `Line ${bad.line}: refused`, status: 400, cause: [{ code: 'line', line: bad.line }] } };
      for (const c of p.changes) queue(c, (s) => (c.kind === 'count' ? c.quantity : s + c.delta));
      return ok({ applied: p.changes.length });
    },
    'stock.views': () => ok(f.views),
    'stock.saveView': (payload) => {
      const p = payload as { name: string; query: FakeStockroom['views'][number]['query'] };
      f.views = [...f.views.filter((v) => v.name !== p.name), { id: f.views.length + 1, name: p.name, query: p.query }];
      return ok(f.views);
    },
    'stock.deleteView': (payload) => {
      f.views = f.views.filter((v) => v.id !== (payload as { id: number }).id);
      return ok(f.views);
    },
    'stock.setReorderPoint': (payload) => {
      const p = payload as { userProductId: string; type: string; storeId?: string; point: number | null };
      const { row, key } = find(p);
      if (row) {
        const reorder = { ...row.reorder };
        if (p.point === null) delete reorder[key];
        else reorder[key] = p.point;
        row.reorder = reorder;
      }
      return ok({ point: p.point });
    },
    'stock.scanStore': () => ok({ store: f.scanStore }),
    'stock.setScanStore': (payload) => {
      f.scanStore = (payload as { store: string }).store;
      return ok({ store: f.scanStore });
    },
    'stock.hiddenColumns': () => ok({ hidden: f.hidden }),
    'stock.setHiddenColumns': (payload) => {
      f.hidden = [...(payload as { hidden: string[] }).hidden];
      return ok({ hidden: f.hidden });
    },
    'stock.stores': () => ok(f.stores),
    'stock.createListing': () => ok({ id: 'MLA1400000099', user_product_id: 'MLAU100000099' }),
  };

  const f: FakeStockroom = Object.assign(fakeApi({}, handlers), {
    rows,
    columns: COLUMNS,
    history: [] as HistoryEntryView[],
    views: [] as SavedGridViewView[],
    refuseLine: null as number | null,
    scanStore: null as string | null,
    hidden: [] as string[],
    stores: [
      { id: '64712', user_id: '1', description: 'Depósito Palermo', status: 'active', location: {}, tags: ['stock_location'], network_node_id: 'ARBA01P' },
      { id: '64713', user_id: '1', description: 'Depósito Avellaneda', status: 'active', location: {}, tags: ['stock_location'], network_node_id: 'ARBA02A' },
      { id: '64714', user_id: '1', description: 'Showroom', status: 'active', location: {}, tags: [], network_node_id: 'ARBA03S' },
    ] as StoreView[],
  });
  return f;
}

/** jsdom has no layout: give the grid's scroll box a size so the virtualizer renders rows. */
export function giveGridASize(width = 1200, height = 600): void {
  // jsdom's HTMLElement, reached without the DOM's types (this file also compiles for Node).
  const element = (globalThis as unknown as { HTMLElement: { prototype: object } }).HTMLElement.prototype;
  const size = (dim: 'clientWidth' | 'clientHeight', value: number) =>
    Object.defineProperty(element, dim, {
      configurable: true,
      get(this: { classList: { contains(name: string): boolean } }) {
        return this.classList.contains('grid-scroll') ? value : 0;
      },
    });
  size('clientWidth', width);
  size('clientHeight', height);
}

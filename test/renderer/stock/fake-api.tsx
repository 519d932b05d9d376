/**
 * A test double of `window.stockroom` for the stock screens' component tests: the real typed API
 * object (preload/api.ts `createApi`) over a fake transport that answers the stock calls from an
 * in-memory grid and records every call. The e2e tests use the real thing.
 */
import { createApi, type StockroomApi } from '../../../preload/api.js';
import type { CellView, GridColumnView, GridRowView, HistoryEntryView, QueueResultView, Result, StockroomEvent, StoreView } from '../../../preload/contract.js';

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
    lock: column.type === 'platform_facility' ? { reason: 'platform_managed', message: 'Stock of type platform_facility cannot be edited through the interface.' } : null,
    ...patch,
  };
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

export interface Call {
  fn: string;
  payload: unknown;
}

export interface FakeStockroom {
  api: StockroomApi;
  calls: Call[];
  rows: GridRowView[];
  columns: GridColumnView[];
  history: HistoryEntryView[];
  stores: StoreView[];
  /** Answers to give instead of the default (by function name); a function gets the payload. */
  answers: Record<string, (payload: unknown) => Result<unknown>>;
  emit(event: StockroomEvent): void;
  callsOf(fn: string): unknown[];
}

const ok = <T,>(value: T): Result<T> => ({ ok: true, value });

export function fakeStockroom(rows: GridRowView[] = sampleRows(5)): FakeStockroom {
  const listeners = new Set<(e: StockroomEvent) => void>();
  const f: FakeStockroom = {
    api: undefined as unknown as StockroomApi,
    calls: [],
    rows,
    columns: COLUMNS,
    history: [],
    stores: [
      { id: '64712', user_id: '1', description: 'Depósito Palermo', status: 'active', location: {}, tags: ['stock_location'], network_node_id: 'ARBA01P' },
      { id: '64713', user_id: '1', description: 'Depósito Avellaneda', status: 'active', location: {}, tags: ['stock_location'], network_node_id: 'ARBA02A' },
      { id: '64714', user_id: '1', description: 'Showroom', status: 'active', location: {}, tags: [], network_node_id: 'ARBA03S' },
    ],
    answers: {},
    emit: (e) => {
      for (const l of listeners) l(e);
    },
    callsOf: (fn) => f.calls.filter((c) => c.fn === fn).map((c) => c.payload),
  };

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

  const handlers: Record<string, (payload: unknown) => Result<unknown>> = {
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
      const q = payload as { search: string };
      const index = f.rows.findIndex((r) => r.userProductId === q.search || (r.itemIds ?? []).includes(q.search));
      return ok({ userProductId: index >= 0 ? f.rows[index]!.userProductId : null, index: index >= 0 ? index : null, total: f.rows.length });
    },
    'stock.rows': (payload) => {
      const ids = (payload as { ids: string[] }).ids.map((x) => x.toUpperCase());
      const aliases: Record<string, string> = {};
      for (const r of f.rows) for (const item of r.itemIds ?? []) if (ids.includes(item)) aliases[item] = r.userProductId;
      const found = f.rows.filter((r) => ids.includes(r.userProductId) || Object.values(aliases).includes(r.userProductId));
      const missing = ids.filter((x) => !found.some((r) => r.userProductId === x) && aliases[x] === undefined);
      return ok({ columns: f.columns, rows: structuredClone(found), missing, aliases });
    },
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
          const shown = p.resolution.action === 'take_theirs' ? (c.conflict.remote.quantity ?? 0) : p.resolution.action === 'keep_mine' ? c.conflict.local : p.resolution.quantity!;
          r.cells[k] = { ...c, shown, state: p.resolution.action === 'take_theirs' ? 'synced' : 'pending', conflict: null };
          return ok({ entryId: p.resolution.action === 'take_theirs' ? null : p.entryId, how: 'resolved', shown, historyId: 2 });
        }
      return { ok: false, error: { code: 'not_found', message: `Outbox entry ${p.entryId} not found`, status: 404 } };
    },
    'stock.stores': () => ok(f.stores),
    'stock.createListing': () => ok({ id: 'MLA1400000099', user_product_id: 'MLAU100000099' }),
  };

  f.api = createApi({
    async invoke(channel, payload) {
      const fn = channel.slice('stockroom:'.length);
      f.calls.push({ fn, payload });
      const answer = f.answers[fn] ?? handlers[fn];
      if (!answer) return { ok: false, error: { code: 'unsupported', message: `${fn} is not faked` } };
      return answer(payload);
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  return f;
}

/** jsdom has no layout: give the grid's scroll box a size so the virtualizer renders rows. */
export function giveGridASize(width = 1200, height = 600): void {
  const size = (dim: 'clientWidth' | 'clientHeight', value: number) =>
    Object.defineProperty(HTMLElement.prototype, dim, {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('grid-scroll') ? value : 0;
      },
    });
  size('clientWidth', width);
  size('clientHeight', height);
}

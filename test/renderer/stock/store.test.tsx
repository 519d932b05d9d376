import { describe, expect, it } from 'vitest';
import { MAX_PAGES, MAX_STRAYS, PAGE_SIZE, createStockStore, rowAt } from '../../../renderer/stock/store.js';
import type { GridColumnView } from '../../../common/contract/contract.js';
import { ok } from '../../support/fake-api.js';
import { fakeStockroom, sampleRows } from '../../support/fake-stock.js';
import { waitFor } from '../../support/wait.js';

describe('stock store paging', () => {
  it('scrolling far from the focused row reads each page once and keeps the focused row loaded', async () => {
    const pages = MAX_PAGES + 40;
    const f = fakeStockroom(sampleRows(pages * PAGE_SIZE));
    const store = createStockStore(f.api);
    await store.getState().load();
    // The grid asks for the viewport's rows and the focused row's (row 0) on every move, as Grid.tsx does.
    for (let p = 0; p < pages; p++) {
      store.getState().ensureRows(p * PAGE_SIZE, p * PAGE_SIZE + 20);
      store.getState().ensureRows(0, 0);
      // The page has arrived before the next move, as on screen.
      await waitFor(() => rowAt(store.getState(), p * PAGE_SIZE), `page ${p}`);
    }
    const offsets = f.callsTo('stock.grid').map((c) => (c as { offset: number }).offset);
    // Every page read once: the focused row's page is never dropped and read again, nor the viewport's for it.
    expect(offsets.length).toBe(pages);
    expect(new Set(offsets).size).toBe(pages);
    const s = store.getState();
    expect(Object.keys(s.pages).length).toBe(MAX_PAGES);
    expect(rowAt(s, 0)?.userProductId).toBe(f.rows[0]!.userProductId);
    expect(rowAt(s, (pages - 1) * PAGE_SIZE)?.userProductId).toBe(f.rows[(pages - 1) * PAGE_SIZE]!.userProductId);
  });

  it('a row’s page is read once: asked again while on the way, the same read; once read, not again', async () => {
    const f = fakeStockroom(sampleRows(4 * PAGE_SIZE));
    const store = createStockStore(f.api);
    await store.getState().load();
    const s = store.getState();
    await Promise.all([s.loadRow(2 * PAGE_SIZE + 5), s.loadRow(2 * PAGE_SIZE + 30)]);
    expect(rowAt(store.getState(), 2 * PAGE_SIZE + 30)?.userProductId).toBe(f.rows[2 * PAGE_SIZE + 30]!.userProductId);
    await store.getState().loadRow(2 * PAGE_SIZE);
    expect(f.callsTo('stock.grid').map((c) => (c as { offset: number }).offset)).toEqual([0, 2 * PAGE_SIZE]);
  });

  it('a scan’s row kept outside its page: shown at once, its page read as any page, then the page’s row (issue 29)', async () => {
    const f = fakeStockroom(sampleRows(4 * PAGE_SIZE));
    const store = createStockStore(f.api);
    await store.getState().load();
    const index = 2 * PAGE_SIZE + 17;
    const found = await f.api.stock.locate({ search: f.rows[index]!.userProductId, page: PAGE_SIZE, near: 0 });
    if (!found.ok || !found.value.page) throw new Error('the fake found no row');
    expect(found.value.page).toMatchObject({ offset: index, grid: { rows: [{ userProductId: f.rows[index]!.userProductId }] } });
    store.getState().putPage(found.value.page.offset, found.value.page.grid, store.getState().generation);
    let s = store.getState();
    expect(rowAt(s, index)?.userProductId).toBe(f.rows[index]!.userProductId);
    // Its neighbours and its page are not known yet: the page is read when the grid asks for the rows.
    expect(rowAt(s, index - 1)).toBeUndefined();
    expect(s.pages[2]).toBeUndefined();
    // An edit's answer for the row reaches it before its page does.
    const key = f.columns[0]!.key;
    s.putCell({ ...s.strays[index]!.cells[key]!, shown: 999, lock: null });
    expect(rowAt(store.getState(), index)?.cells[key]?.shown).toBe(999);
    await store.getState().loadRow(index);
    expect(f.callsTo('stock.grid').map((c) => (c as { offset: number }).offset)).toEqual([0]);
    store.getState().ensureRows(index - 5, index + 5);
    await waitFor(() => store.getState().pages[2], 'the scanned row’s page');
    s = store.getState();
    expect(s.strays).toEqual({});
    expect(rowAt(s, index - 1)?.userProductId).toBe(f.rows[index - 1]!.userProductId);
    expect(rowAt(s, index)?.userProductId).toBe(f.rows[index]!.userProductId);
    // A new query forgets them, as it forgets pages.
    store.getState().putPage(3 * PAGE_SIZE + 1, { ...found.value.page.grid, rows: [f.rows[3 * PAGE_SIZE + 1]!] }, store.getState().generation);
    expect(Object.keys(store.getState().strays)).toEqual([String(3 * PAGE_SIZE + 1)]);
    await store.getState().setQuery({ search: 'Producto' });
    expect(store.getState().strays).toEqual({});
  });

  it('rows outside pages are kept for the latest scans only, and never for a page already read', async () => {
    const f = fakeStockroom(sampleRows(40 * PAGE_SIZE));
    const store = createStockStore(f.api);
    await store.getState().load();
    const put = (index: number) =>
      store.getState().putPage(index, { total: f.rows.length, columns: f.columns, rows: [f.rows[index]!] }, store.getState().generation);
    // A row of the first page, read already: the page keeps it.
    put(3);
    expect(store.getState().strays).toEqual({});
    for (let k = 1; k <= MAX_STRAYS + 5; k++) put(k * PAGE_SIZE + 1);
    const kept = Object.keys(store.getState().strays).map(Number);
    expect(kept.length).toBe(MAX_STRAYS);
    // The farthest from the newest went first.
    expect(kept).toContain((MAX_STRAYS + 5) * PAGE_SIZE + 1);
    expect(kept).not.toContain(PAGE_SIZE + 1);
    // An answer of an older query changes nothing.
    store
      .getState()
      .putPage(30 * PAGE_SIZE + 7, { total: f.rows.length, columns: f.columns, rows: [f.rows[30 * PAGE_SIZE + 7]!] }, store.getState().generation - 1);
    expect(store.getState().strays[30 * PAGE_SIZE + 7]).toBeUndefined();
  });

  it('a page read keeps the columns and the focused cell as they were when they did not change (the rows on screen keep their props)', async () => {
    const f = fakeStockroom(sampleRows(3 * PAGE_SIZE));
    // As the bridge answers: new column objects with every page.
    f.answers['stock.grid'] = (payload) => {
      const q = payload as { limit: number; offset: number };
      return ok({ total: f.rows.length, columns: structuredClone(f.columns), rows: structuredClone(f.rows.slice(q.offset, q.offset + q.limit)) });
    };
    const store = createStockStore(f.api);
    await store.getState().load();
    const { allColumns, active } = store.getState();
    await store.getState().loadRow(PAGE_SIZE);
    expect(store.getState().allColumns).toBe(allColumns);
    expect(store.getState().active).toBe(active);
    // A renamed store is a change: its new name is taken.
    f.columns = f.columns.map((c): GridColumnView => (c.key === '64712' ? { ...c, label: 'Depósito Centro' } : c));
    await store.getState().loadRow(2 * PAGE_SIZE);
    expect(store.getState().allColumns).not.toBe(allColumns);
    expect(store.getState().allColumns.find((c) => c.key === '64712')?.label).toBe('Depósito Centro');
  });
});

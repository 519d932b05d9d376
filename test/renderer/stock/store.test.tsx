import { describe, expect, it } from 'vitest';
import { MAX_PAGES, PAGE_SIZE, createStockStore, rowAt } from '../../../renderer/stock/store.js';
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

import { describe, expect, it } from 'vitest';
import { MAX_PAGES, PAGE_SIZE, createStockStore, rowAt } from '../../../renderer/stock/store.js';
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
});

// @vitest-environment jsdom
/**
 * Where a scan lands (renderer/stock/query.ts `locate`): the grid moves to the product once its
 * row is read, so focus lands on a cell that names the product, never on a loading row first.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { PAGE_SIZE } from '../../../renderer/stock/store.js';
import { fakeStockroom, giveGridASize, sampleRows } from '../../support/fake-stock.js';

beforeAll(() => giveGridASize());
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => cleanup());

describe('a scan far down the grid', () => {
  it('focuses the scanned product’s cell with its row read, its page read in the same call as the lookup', async () => {
    const f = fakeStockroom(sampleRows(6 * PAGE_SIZE));
    const store = createStockStore(f.api);
    render(<StockTab store={store} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 0:/ }));
    // Every cell of the scanned product's row that takes the focus, in order, by its name.
    const landed: string[] = [];
    const onFocus = (e: FocusEvent) => {
      const el = e.target as HTMLElement;
      if (el.closest('[role=row]')?.getAttribute('aria-rowindex') === String(5 * PAGE_SIZE + 2)) landed.push(el.getAttribute('aria-label') ?? '');
    };
    document.addEventListener('focusin', onFocus);
    await user.click(screen.getByRole('searchbox', { name: 'Search or scan' }));
    await user.keyboard(`MLA${1400000001 + 5 * PAGE_SIZE}{Enter}`);
    await waitFor(() => expect(landed.length).toBeGreaterThan(0));
    document.removeEventListener('focusin', onFocus);
    expect(landed[0]).toBe(`Depósito Palermo, Producto ${5 * PAGE_SIZE}: ${5 * PAGE_SIZE}, synced`);
    // Its page came with the scan's one call; the grid did not read it again.
    expect(f.callsTo('stock.locate')).toEqual([{ search: `MLA${1400000001 + 5 * PAGE_SIZE}`, page: PAGE_SIZE }]);
    expect(f.callsTo('stock.grid').map((c) => (c as { offset: number }).offset)).not.toContain(5 * PAGE_SIZE);
  });
});

// @vitest-environment jsdom
/**
 * Where a scan lands (renderer/stock/query.ts `locate`): the grid moves to the product once its
 * row is read, so focus lands on a cell that names the product, never on a loading row first.
 */
import { Profiler } from 'react';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { PAGE_SIZE } from '../../../renderer/stock/store.js';
import type { Result } from '../../../common/contract/contract.js';
import { fakeStockroom, giveGridASize, sampleRows } from '../../support/fake-stock.js';

beforeAll(() => giveGridASize());
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => cleanup());

describe('a scan far down the grid', () => {
  it('focuses the scanned product’s cell with its row read in the same call as the lookup, then reads its page', async () => {
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
    // Its row came with the scan's one call (only its row: issue 29); its page is read once the grid shows it.
    expect(f.callsTo('stock.locate')).toEqual([{ search: `MLA${1400000001 + 5 * PAGE_SIZE}`, page: PAGE_SIZE, near: 0 }]);
    await waitFor(() => expect(store.getState().pages[5]?.[1]?.title).toBe(`Producto ${5 * PAGE_SIZE + 1}`));
    expect(store.getState().strays).toEqual({});
    expect(f.callsTo('stock.grid').filter((c) => (c as { offset: number }).offset === 5 * PAGE_SIZE)).toHaveLength(1);
    expect(document.activeElement?.getAttribute('aria-label')).toBe(`Depósito Palermo, Producto ${5 * PAGE_SIZE}: ${5 * PAGE_SIZE}, synced`);
  });

  it('takes the page and moves the focus in one render after the answer, not in two a microtask apart (issue 29)', async () => {
    const f = fakeStockroom(sampleRows(6 * PAGE_SIZE));
    const store = createStockStore(f.api);
    // What happened, in order: the screen's commits, the lookup's answer, the focus on the scanned row.
    const log: string[] = [];
    render(
      <Profiler id="stock" onRender={() => log.push('commit')}>
        <StockTab store={store} />
      </Profiler>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 0:/ }));
    // The lookup is held until the test releases it, then answered as the fake core answers it
    // (a second fake of the same rows), so nothing else is on the way when it comes.
    const core = fakeStockroom(sampleRows(6 * PAGE_SIZE));
    let release: (() => void) | undefined;
    f.answers['stock.locate'] = (payload) =>
      new Promise<Result<unknown>>((resolve) => {
        release = () => {
          log.push('answer');
          void core.api.stock.locate(payload as { search: string }).then(resolve);
        };
      });
    const onFocus = (e: FocusEvent) => {
      if ((e.target as HTMLElement).closest('[role=row]')?.getAttribute('aria-rowindex') === String(5 * PAGE_SIZE + 2)) log.push('focus');
    };
    document.addEventListener('focusin', onFocus);
    await user.click(screen.getByRole('searchbox', { name: 'Search or scan' }));
    await user.keyboard(`MLA${1400000001 + 5 * PAGE_SIZE}{Enter}`);
    await waitFor(() => expect(release).toBeDefined());
    await act(async () => {
      release!();
      await waitFor(() => expect(log).toContain('focus'));
    });
    document.removeEventListener('focusin', onFocus);
    // The focus moves in a layout effect, before its commit is reported: no commit of the page alone before it.
    const after = log.slice(log.indexOf('answer'));
    expect(after.slice(0, after.indexOf('focus') + 2)).toEqual(['answer', 'focus', 'commit']);
  });
});

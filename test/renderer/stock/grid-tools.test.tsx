// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { nextSort } from '../../../renderer/stock/Grid.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { fakeStockroom, giveGridASize, id, sampleRows } from '../../support/fake-stock.js';
import { runStockAction } from '../../support/stock-actions.js';

beforeAll(() => giveGridASize());
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => cleanup());

function renderStock(f = fakeStockroom()) {
  const store = createStockStore(f.api);
  render(<StockTab store={store} />);
  return { store, f, user: userEvent.setup() };
}
const cellOf = (column: string, product: string) => screen.getByRole('gridcell', { name: new RegExp(`^${column}, ${product}:`) });

describe('sorting from the column headers', () => {
  it('cycles ascending, descending, default', () => {
    expect(nextSort(null, '64712')).toEqual({ key: '64712', dir: 'asc' });
    expect(nextSort({ key: '64712', dir: 'asc' }, '64712')).toEqual({ key: '64712', dir: 'desc' });
    expect(nextSort({ key: '64712', dir: 'desc' }, '64712')).toBeNull();
    expect(nextSort({ key: 'total', dir: 'desc' }, '64712')).toEqual({ key: '64712', dir: 'asc' });
  });

  it('asks the core for the order and says it with aria-sort', async () => {
    const { f, user } = renderStock();
    await screen.findByRole('grid');
    const header = () => screen.getByRole('columnheader', { name: /Depósito Palermo/ });
    expect(header().getAttribute('aria-sort')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sort by Depósito Palermo' }));
    await waitFor(() => expect(header().getAttribute('aria-sort')).toBe('ascending'));
    await user.click(screen.getByRole('button', { name: 'Sort by Depósito Palermo' }));
    await waitFor(() => expect(header().getAttribute('aria-sort')).toBe('descending'));
    expect(f.callsTo('stock.grid').at(-1)).toEqual({ sort: { key: '64712', dir: 'desc' }, limit: 50, offset: 0 });
  });
});

describe('reorder points and saved views', () => {
  it('a cell at or under its reorder point is highlighted and says so; the point is set from the focused cell', async () => {
    const rows = sampleRows(3);
    rows[1]!.reorder = { '64713': 20 };
    const { f, user } = renderStock(fakeStockroom(rows));
    await screen.findByRole('grid');
    const low = cellOf('Depósito Avellaneda', 'Producto 1');
    expect(low.getAttribute('data-low')).toBe('true');
    expect(low.getAttribute('aria-label')).toContain('low: at or under the reorder point (20)');
    expect(cellOf('Depósito Palermo', 'Producto 1').getAttribute('data-low')).toBeNull();
    // Focus Producto 0's Palermo cell and give it a point of 5.
    await user.click(cellOf('Depósito Palermo', 'Producto 0'));
    await runStockAction(user, 'Reorder point');
    await user.type(screen.getByRole('spinbutton', { name: 'Reorder point of Producto 0 in Depósito Palermo' }), '5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(f.callsTo('stock.setReorderPoint')).toEqual([{ userProductId: id(0), type: 'seller_warehouse', storeId: '64712', point: 5 }]);
    await screen.findByText('Reorder point of Producto 0 in Depósito Palermo: 5.');
  });

  it('saves the current store, filters and order under a name, and a chosen view brings them back', async () => {
    const { f, store, user } = renderStock();
    await screen.findByRole('grid');
    await runStockAction(user, 'Below reorder point');
    await user.click(screen.getByRole('button', { name: 'Sort by Total' }));
    await runStockAction(user, 'Saved views');
    await user.type(screen.getByRole('textbox', { name: 'Name of the view' }), 'Reponer');
    await user.click(screen.getByRole('button', { name: 'Save view' }));
    await waitFor(() => expect(f.views.map((v) => v.name)).toEqual(['Reponer']));
    expect(f.views[0]!.query).toEqual({ search: '', filter: 'all', store: null, lowStock: null, belowReorder: true, sort: { key: 'total', dir: 'asc' } });
    await act(async () => {
      store.getState().clearFilters();
      await Promise.resolve();
    });
    expect(store.getState().query.belowReorder).toBeUndefined();
    await runStockAction(user, 'Saved views');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Saved views' }), 'Reponer');
    await waitFor(() => expect(store.getState().query).toMatchObject({ belowReorder: true, sort: { key: 'total', dir: 'asc' } }));
    expect(f.callsTo('stock.grid').at(-1)).toMatchObject({ belowReorder: true, sort: { key: 'total', dir: 'asc' } });
  });
});

// @vitest-environment jsdom
/**
 * Issue 27: "Columns" hides and shows location columns, offers to hide those with nothing to edit
 * on any row ("Nothing to edit here"), and keeps the hidden set with the workstation (a reload shows
 * it again) and with a saved view.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { COLUMNS, type FakeStockroom, cell, fakeStockroom, giveGridASize, sampleRows } from '../../support/fake-stock.js';
import { runStockAction } from '../../support/stock-actions.js';

beforeAll(() => giveGridASize());
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => cleanup());

function renderStock(f: FakeStockroom) {
  const store = createStockStore(f.api);
  const view = render(<StockTab store={store} />);
  return { store, f, user: userEvent.setup(), unmount: view.unmount };
}
const headers = () => screen.getAllByRole('columnheader').map((h) => h.getAttribute('title') ?? h.textContent);

describe('hiding grid columns', () => {
  it('offers to hide the columns with nothing to edit, hides them from the keyboard, and a reload keeps them hidden', async () => {
    // Sample rows: Full is the platform's everywhere, and no row's selling address can be edited.
    const f = fakeStockroom(sampleRows(5));
    const { user, unmount } = renderStock(f);
    await screen.findByRole('grid');
    expect(headers()).toEqual(['Product', 'Depósito Palermo', 'Depósito Avellaneda', 'Selling address', 'Full (platform)', 'Total']);

    await runStockAction(user, 'Columns');
    const button = screen.getByRole('button', { name: 'Columns' });
    button.focus();
    await user.keyboard('{Enter}');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const panel = screen.getByRole('group', { name: 'Columns shown' });
    expect(panel.querySelector('.columns-offer')!.textContent).toBe('Nothing to edit here: Selling address, Full (platform). Hide them');
    // Each idle column's checkbox says why in its description.
    expect(screen.getByRole('checkbox', { name: /^Full \(platform\)/ }).getAttribute('aria-describedby')).not.toBeNull();
    expect(screen.getByRole('checkbox', { name: /^Depósito Palermo/ }).getAttribute('aria-describedby')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Hide them' }));
    await waitFor(() => expect(headers()).toEqual(['Product', 'Depósito Palermo', 'Depósito Avellaneda', 'Total']));
    expect(f.callsTo('stock.setHiddenColumns')).toEqual([{ hidden: ['selling_address', 'platform_facility'] }]);
    expect(button.textContent).toBe('Columns (2 hidden)');
    expect(panel.querySelector('.columns-offer')).toBeNull();

    // Space on a checkbox hides a store too; Esc closes with focus back on the button.
    screen.getByRole('checkbox', { name: /^Depósito Avellaneda/ }).focus();
    await user.keyboard(' ');
    await waitFor(() => expect(headers()).toEqual(['Product', 'Depósito Palermo', 'Total']));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Columns shown' })).toBeNull();
    expect(document.activeElement).toBe(button);

    // A reload: the workstation's hidden set comes back with the grid.
    unmount();
    const again = renderStock(f);
    await screen.findByRole('grid');
    await waitFor(() => expect(headers()).toEqual(['Product', 'Depósito Palermo', 'Total']));
    await runStockAction(again.user, 'Columns (3 hidden)', 'Columns');
    expect(screen.getByRole('button', { name: 'Columns (3 hidden)' })).toBeTruthy();
  });

  it('does not offer a selling address that one row can edit', async () => {
    const rows = sampleRows(3);
    rows[1]!.cells = { selling_address: cell(rows[1]!.userProductId, COLUMNS[2]!, 4) };
    renderStock(fakeStockroom(rows));
    const user = userEvent.setup();
    await screen.findByRole('grid');
    await runStockAction(user, 'Columns');
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    expect(document.querySelector('.columns-offer')!.textContent).toBe('Nothing to edit here: Full (platform). Hide it');
  });

  it('a saved view keeps its hidden columns; choosing a view brings its set back', async () => {
    const f = fakeStockroom(sampleRows(5));
    const { user } = renderStock(f);
    await screen.findByRole('grid');
    await runStockAction(user, 'Columns');
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(screen.getByRole('checkbox', { name: /^Full \(platform\)/ }));
    await user.type(screen.getByRole('textbox', { name: 'Name of the view' }), 'Sin Full');
    await user.click(screen.getByRole('button', { name: 'Save view' }));
    await waitFor(() => expect(f.views.map((v) => [v.name, v.query.hidden])).toEqual([['Sin Full', ['platform_facility']]]));

    // Everything shown again, then the view chosen: Full is hidden again and the workstation keeps it.
    await user.click(screen.getByRole('checkbox', { name: /^Full \(platform\)/ }));
    await waitFor(() => expect(headers()).toContain('Full (platform)'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Saved views' }), 'Sin Full');
    await waitFor(() => expect(headers()).not.toContain('Full (platform)'));
    expect(f.hidden).toEqual(['platform_facility']);
  });
});

// @vitest-environment jsdom
/**
 * The stock toolbar (issue 28): the command palette lists every action of the registry by its
 * name in the current language with its shortcut, filters as you type, runs with Enter and closes
 * with Esc (focus back); the File, View and Edit menus are made from the same registry.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { translate, useI18nStore } from '../../../renderer/i18n/index.js';
import { STOCK_ACTIONS, actionLabel, matches } from '../../../renderer/stock/actions.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { shortcutText } from '../../../renderer/ui/shortcut.js';
import { fakeStockroom, giveGridASize } from '../../support/fake-stock.js';
import { runStockAction } from '../../support/stock-actions.js';

beforeAll(() => giveGridASize());
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => cleanup());

function renderStock(f = fakeStockroom()) {
  const store = createStockStore(f.api);
  render(<StockTab store={store} />);
  return { store, f, user: userEvent.setup() };
}
const optionNames = () => screen.getAllByRole('option').map((o) => o.querySelector('.ui-palette-label')!.textContent);

describe('the command palette', () => {
  it('lists every registry action by name with its shortcut shown', async () => {
    const { store, user } = renderStock();
    await screen.findByRole('grid');
    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Command palette' });
    const state = { stock: store.getState(), count: { view: null } as never };
    const expected = STOCK_ACTIONS.map((a) => actionLabel(a, state, (key, vars) => translate('en', `stock.${key}`, vars)));
    expect(optionNames()).toEqual(expected);
    expect(expected).toContain('Import CSV / Excel');
    expect(expected).toContain('Reason for + / − adjustments: damaged');
    // Shortcuts: in aria-keyshortcuts and shown in words.
    const transfer = within(dialog).getByRole('option', { name: /^Transfer…/ });
    expect(transfer.getAttribute('aria-keyshortcuts')).toBe('Control+M');
    expect(transfer.querySelector('kbd')!.textContent).toBe(shortcutText('Control+M', false));
    expect(transfer.querySelector('kbd')!.textContent).toBe('Ctrl+M');
    expect(
      within(dialog)
        .getByRole('option', { name: /^Undo last edit/ })
        .querySelector('kbd')!.textContent,
    ).toBe('Ctrl+Z');
  });

  it('filters by name in the current language (accents and case aside) and says when nothing matches', async () => {
    const { user } = renderStock();
    await screen.findByRole('grid');
    await user.keyboard('{Control>}k{/Control}');
    const box = await screen.findByRole('combobox', { name: 'Command name' });
    await user.type(box, 'export');
    expect(optionNames()).toEqual(['Export CSV', 'Export Excel']);
    await user.clear(box);
    await user.type(box, 'zzz');
    expect(screen.queryAllByRole('option')).toEqual([]);
    expect(screen.getByText('No command matches “zzz”.')).toBeTruthy();
    await user.keyboard('{Escape}');
    // In Spanish: names are Spanish, and "deposito" needs no accent.
    act(() => useI18nStore.getState().setLanguage('es'));
    await user.keyboard('{Control>}k{/Control}');
    await user.type(await screen.findByRole('combobox', { name: 'Nombre del comando' }), 'exportar');
    expect(optionNames()).toEqual(['Exportar CSV', 'Exportar Excel']);
    expect(matches('Depósito Palermo', 'deposito PAL')).toBe(true);
  });

  it('Enter runs the active option (arrows move it); Esc closes and gives focus back', async () => {
    const { store, user } = renderStock();
    await screen.findByRole('grid');
    const cell = screen.getAllByRole('gridcell').find((c) => c.tabIndex === 0)!;
    cell.focus();
    await user.keyboard('{Control>}k{/Control}');
    const box = await screen.findByRole('combobox', { name: 'Command name' });
    await waitFor(() => expect(document.activeElement).toBe(box));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Command palette' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(cell));

    await user.keyboard('{Control>}k{/Control}');
    // Set at once, not typed key by key: keys typed faster than a person types are a scan (scanner.ts).
    fireEvent.change(await screen.findByRole('combobox', { name: 'Command name' }), { target: { value: 'listing' } });
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: 'New listing with stock per store' });
    expect(store.getState().dialog).toBe('listing');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(store.getState().dialog).toBeNull());

    await user.keyboard('{Control>}k{/Control}');
    const again = await screen.findByRole('combobox', { name: 'Command name' });
    fireEvent.change(again, { target: { value: 'import' } });
    await user.keyboard('{ArrowDown}');
    // One match: the arrow wraps to it again.
    expect(again.getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { name: 'Import CSV / Excel' }).id);
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: 'Import counts or adjustments' });
  });

  it('a View action opens the View options panel with focus on its control', async () => {
    const { user } = renderStock();
    await screen.findByRole('grid');
    await runStockAction(user, 'Show');
    const panel = await screen.findByRole('dialog', { name: 'View options' });
    await waitFor(() => expect(document.activeElement).toBe(within(panel).getByRole('combobox', { name: 'Show' })));
  });
});

describe('the menus', () => {
  it('File, View and Edit list their registry actions; Edit holds the reasons as a radio group', async () => {
    const { store, user } = renderStock();
    await screen.findByRole('grid');
    const open = async (name: string) => {
      await user.click(screen.getByRole('button', { name }));
      return screen.findByRole('menu');
    };
    const file = await open('File');
    expect(
      within(file)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Export CSV', 'Export Excel', 'Import CSV / Excel', 'New listing']);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    const view = await open('View');
    const inView = STOCK_ACTIONS.filter((a) => a.group === 'view').length;
    expect(view.querySelectorAll('[role^="menuitem"]').length).toBe(inView);
    expect(within(view).getByRole('menuitemcheckbox', { name: 'History' }).getAttribute('aria-checked')).toBe('false');
    await user.click(within(view).getByRole('menuitemcheckbox', { name: 'History' }));
    await waitFor(() => expect(store.getState().historyOpen).toBe(true));

    const edit = await open('Edit');
    expect(
      within(edit)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Transfer…Ctrl+M', 'Undo last editCtrl+Z']);
    const reasons = within(edit).getByRole('group', { name: 'Reason for + / − adjustments' });
    expect(
      within(reasons)
        .getAllByRole('menuitemradio')
        .map((i) => i.textContent),
    ).toEqual(['received', 'damaged', 'returned', 'sold elsewhere', 'correction']);
    await user.click(within(reasons).getByRole('menuitemradio', { name: 'damaged' }));
    await waitFor(() => expect(store.getState().reason).toBe('damaged'));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit' })));
  });
});

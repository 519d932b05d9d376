// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { placeError } from '../../../renderer/stock/ListingDialog.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { fakeStockroom, giveGridASize } from '../../support/fake-stock.js';
import { runStockAction } from '../../support/stock-actions.js';

beforeAll(() => giveGridASize());
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => cleanup());

async function openForm(f = fakeStockroom()) {
  const store = createStockStore(f.api);
  const user = userEvent.setup();
  render(<StockTab store={store} />);
  await screen.findByRole('grid');
  await runStockAction(user, 'New listing');
  const dialog = screen.getByRole('dialog', { name: 'New listing with stock per store' });
  await within(dialog).findByRole('checkbox', { name: /Depósito Palermo/ });
  return { f, user, dialog, store };
}

describe('new listing with stock per store', () => {
  it('picks stores from the store search (stock locations only) and sends POST /items/multiwarehouse through the core', async () => {
    const { f, user, dialog, store } = await openForm();
    expect((within(dialog).getByRole('checkbox', { name: /Showroom/ }) as HTMLInputElement).disabled).toBe(true);
    expect(within(dialog).getByText(/not a stock location/)).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Title'), 'Termo 500 ml');
    await user.type(within(dialog).getByLabelText('Category id'), 'MLA1902');
    await user.type(within(dialog).getByLabelText('Price'), '19999');
    await user.click(within(dialog).getByRole('checkbox', { name: /Depósito Palermo/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /Depósito Avellaneda/ }));
    const q1 = within(dialog).getByRole('textbox', { name: 'Quantity in Depósito Palermo' });
    await user.clear(q1);
    await user.type(q1, '12');
    const q2 = within(dialog).getByRole('textbox', { name: 'Quantity in Depósito Avellaneda' });
    await user.clear(q2);
    await user.type(q2, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Create listing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(f.callsTo('stock.createListing')).toEqual([
      {
        title: 'Termo 500 ml',
        category_id: 'MLA1902',
        price: 19999,
        currency_id: 'ARS',
        listing_type_id: 'gold_special',
        channels: ['marketplace'],
        stock_locations: [
          { store_id: '64712', network_node_id: 'ARBA01P', quantity: 12 },
          { store_id: '64713', network_node_id: 'ARBA02A', quantity: 3 },
        ],
      },
    ]);
    expect(store.getState().notice?.text).toBe('Listing MLA1400000099 created (user product MLAU100000099).');
  });

  it('checks the fields before sending and says what is wrong beside each', async () => {
    const { f, user, dialog } = await openForm();
    await user.type(within(dialog).getByLabelText('Price'), '-4');
    await user.click(within(dialog).getByRole('button', { name: 'Create listing' }));
    const title = within(dialog).getByLabelText('Title');
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(title.getAttribute('aria-describedby')!)!.textContent).toBe('! Type a title.');
    expect(document.getElementById(within(dialog).getByLabelText('Price').getAttribute('aria-describedby')!)!.textContent).toBe(
      '! Type a price greater than 0.',
    );
    expect(within(dialog).getByText('! Pick at least one store.')).toBeTruthy();
    expect(f.callsTo('stock.createListing')).toEqual([]);
  });

  it("shows the marketplace's errors (SPEC 7.1) beside the store they are about", async () => {
    const f = fakeStockroom();
    f.answers['stock.createListing'] = () => ({ ok: false, error: { code: 'bad_request', message: 'Store does not belong to seller: 64713', status: 400 } });
    const { user, dialog } = await openForm(f);
    await user.type(within(dialog).getByLabelText('Title'), 'Mate');
    await user.type(within(dialog).getByLabelText('Category id'), 'MLA1903');
    await user.type(within(dialog).getByLabelText('Price'), '10');
    await user.click(within(dialog).getByRole('checkbox', { name: /Depósito Avellaneda/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create listing' }));
    const row = await waitFor(() => dialog.querySelector('[data-store="64713"]')!);
    await waitFor(() => expect(within(row as HTMLElement).getByRole('alert').textContent).toBe('! Store does not belong to seller: 64713'));
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('places each kind of error where it belongs', () => {
    const err = (message: string) => ({ code: 'bad_request' as const, message, status: 400 });
    expect(placeError(err('The fields [stock_locations] are required for requested call'), [])).toEqual({
      stores: 'The fields [stock_locations] are required for requested call',
    });
    expect(placeError(err('Store not found: 999'), [])).toEqual({ store: { '999': 'Store not found: 999' } });
    expect(placeError(err('title: Too small: expected string to have >=1 characters'), [])).toEqual({
      title: 'title: Too small: expected string to have >=1 characters',
    });
    expect(placeError(err('stock_locations.1.quantity: Too small'), [{ store_id: 'a' }, { store_id: 'b' }])).toEqual({
      store: { b: 'stock_locations.1.quantity: Too small' },
    });
    expect(placeError(err('The fields [available_quantity] are invalid for requested call'), [])).toEqual({
      general: 'The fields [available_quantity] are invalid for requested call',
    });
  });
});

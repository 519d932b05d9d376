// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { fakeStockroom } from '../../support/fake-stock.js';
import { id } from '../../support/fake-stock.js';
import { runStockAction } from '../../support/stock-actions.js';
import { renderStockAtKeyboard, setUpKeyClock } from '../support/scanner-keys.js';

/**
 * Issue 14 §1: a scan is recognised wherever focus is (renderer/stock/scanner.ts's window-wide
 * capture) and goes to the lookup, never into a quantity. Keys at a scanner's and a person's speed:
 * test/renderer/support/scanner-keys.tsx.
 */
setUpKeyClock();
const renderStock = () => renderStockAtKeyboard(20);
const cellOf = (column: string, product: string) => screen.getByRole('gridcell', { name: new RegExp(`^${column}, ${product}:`) });
const edits = (f: ReturnType<typeof fakeStockroom>) => [...f.callsTo('stock.count'), ...f.callsTo('stock.adjust')];
const notice = () => document.querySelector('.notice-line')!.textContent;

describe('a scan wherever focus is', () => {
  it('on a focused cell: no edit, the scanned product is focused and named', async () => {
    const { f, user, scan } = renderStock();
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 0:/ }));
    // Digits first: the first key opens the cell's editor, as a person's would.
    await scan('1400000006{Enter}');
    await waitFor(() => expect(f.callsTo('stock.locate')).toContainEqual({ search: '1400000006', page: 50, near: 0 }));
    expect(edits(f)).toEqual([]);
    // Letters and digits of an item id.
    await scan('MLA1400000006{Enter}');
    await waitFor(() => expect(f.callsTo('stock.locate')).toContainEqual({ search: 'MLA1400000006', page: 50, near: 0 }));
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Depósito Palermo, Producto 5: 5, synced'));
    expect(notice()).toBe(`Scanned MLA1400000006: Producto 5 (${id(5)}) · Depósito Palermo`);
    expect(screen.queryByRole('textbox', { name: /Producto/ })).toBeNull();
    expect(edits(f)).toEqual([]);
  });

  it('in an open cell editor: the typed text is dropped, nothing is saved, and a stale "nothing matches" goes', async () => {
    const { f, user, scan, type } = renderStock();
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 1:/ }));
    await scan('UNKNOWN1{Enter}');
    await waitFor(() => expect(notice()).toContain('No product has code UNKNOWN1.'));
    // The person opens the editor and starts a count; a scan comes before their Enter.
    await type(['{Enter}', '4']);
    const editor = screen.getByRole('textbox', { name: /Producto 1/ }) as HTMLInputElement;
    expect(editor.value).toBe('14');
    await scan('00123457{Enter}');
    await waitFor(() => expect(f.callsTo('stock.locate')).toContainEqual({ search: '00123457', page: 50, near: 0 }));
    expect(editor.isConnected).toBe(false);
    expect(edits(f)).toEqual([]);
    expect(cellOf('Depósito Palermo', 'Producto 1').getAttribute('aria-label')).toBe('Depósito Palermo, Producto 1: 1, synced');
    await scan(`${id(7)}{Enter}`);
    await waitFor(() => expect(notice()).toBe(`Scanned ${id(7)}: Producto 7 (${id(7)}) · Depósito Palermo`));
    expect(edits(f)).toEqual([]);
  });

  it('a count typed by hand still saves (asked first: 1,234 is far above the 3 there)', async () => {
    const { f, user, type } = renderStock();
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Avellaneda, Producto 3:/ }));
    await type(['1', '2', '3', '4', '{Enter}']);
    await user.click(await screen.findByRole('button', { name: 'Yes, save it' }));
    await waitFor(() => expect(f.callsTo('stock.count')).toEqual([{ userProductId: id(3), type: 'seller_warehouse', storeId: '64713', quantity: 1234 }]));
    expect(f.callsTo('stock.locate')).toEqual([]);
  });

  it('in a dialog: the field keeps what the person typed, no button is pressed, and the grid moves behind it', async () => {
    const { f, store, user, scan, type } = renderStock();
    await screen.findByRole('grid');
    await runStockAction(user, 'New listing');
    const dialog = await screen.findByRole('dialog', { name: 'New listing with stock per store' });
    const title = within(dialog).getByLabelText('Title') as HTMLInputElement;
    await user.click(title);
    await type([...'Termo']);
    await scan('MLA1400000010{Enter}');
    await waitFor(() => expect(f.callsTo('stock.locate')).toContainEqual({ search: 'MLA1400000010', page: 50, near: 0 }));
    expect(title.value).toBe('Termo');
    expect(screen.getByRole('dialog', { name: 'New listing with stock per store' })).toBe(dialog);
    expect(document.activeElement).toBe(title);
    await waitFor(() => expect(store.getState().active.row).toBe(9));
    expect(notice()).toBe(`Scanned MLA1400000010: Producto 9 (${id(9)}) · Depósito Palermo. Close the dialog to work on it.`);
    expect(f.callsTo('stock.createListing')).toEqual([]);
  });
});

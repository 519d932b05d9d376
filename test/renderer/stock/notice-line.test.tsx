// @vitest-environment jsdom
/**
 * Issue 27: the notice line under the stock toolbar tells of the latest action only. An unknown
 * scan says "No product has code …" (never the scan before it), a slower answer of an older scan
 * says nothing, and a saved count whose cell then fails says the failure, not the past success.
 * Scans are keys at a scanner's speed (test/renderer/support/scanner-keys.tsx).
 */
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Result } from '../../../common/contract/contract.js';
import { id } from '../../support/fake-stock.js';
import { renderStockAtKeyboard, setUpKeyClock } from '../support/scanner-keys.js';

setUpKeyClock();
function renderStock() {
  const keys = renderStockAtKeyboard(10);
  return { ...keys, scan: (code: string) => keys.scan(`${code}{Enter}`) };
}
const notice = () => document.querySelector('.notice-line')!.textContent;
const cellOf = (column: string, product: string) => screen.getByRole('gridcell', { name: new RegExp(`^${column}, ${product}:`) });

describe('the notice line', () => {
  it('an unknown scan after a known one says "No product has code …", not the scan before it', async () => {
    const { f, user, scan } = renderStock();
    await screen.findByRole('grid');
    await user.click(cellOf('Depósito Palermo', 'Producto 0'));
    const found = f.rows[3]!;
    await scan(found.itemIds![0]!);
    await waitFor(() => expect(notice()).toBe(`Scanned ${found.itemIds![0]}: ${found.title} (${found.userProductId}) · Depósito Palermo`));
    await scan('7790001234565');
    await waitFor(() => expect(notice()).toBe('! No product has code 7790001234565.'));
    expect(document.querySelector('.notice-line')!.getAttribute('data-tone')).toBe('error');
  });

  it('a slower answer of an older scan says nothing once a newer scan began', async () => {
    const { f, user, scan } = renderStock();
    await screen.findByRole('grid');
    await user.click(cellOf('Depósito Palermo', 'Producto 0'));
    // The first lookup is held until released; the second answers at once (nothing matches).
    let release: (r: Result<unknown>) => void = () => undefined;
    f.answers['stock.locate'] = () => new Promise((resolve) => (release = resolve));
    await scan('MLA1400000004');
    await waitFor(() => expect(f.callsTo('stock.locate')).toHaveLength(1));
    f.answers['stock.locate'] = () => ({ ok: true, value: { userProductId: null, index: null, total: 10 } });
    await scan('7790001234565');
    await waitFor(() => expect(notice()).toBe('! No product has code 7790001234565.'));
    await act(async () => release({ ok: true, value: { userProductId: id(4), index: 4, total: 10, title: 'Producto 4' } }));
    // The held answer came last but belongs to an older scan: the notice and the focus stay.
    await act(async () => f.emit({ type: 'stock.changed', userProductIds: [id(0)] }));
    expect(notice()).toBe('! No product has code 7790001234565.');
    expect(cellOf('Depósito Palermo', 'Producto 0').getAttribute('aria-selected')).toBe('true');
  });

  it('a saved count whose cell then fails says the failure, and the next action clears it', async () => {
    const { f, user } = renderStock();
    await screen.findByRole('grid');
    await user.click(cellOf('Depósito Palermo', 'Producto 1'));
    vi.setSystemTime(Date.now() + 150);
    await user.keyboard('4');
    vi.setSystemTime(Date.now() + 150);
    await user.keyboard('0');
    vi.setSystemTime(Date.now() + 150);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(notice()).toBe('Count 40 saved for Depósito Palermo, Producto 1'));

    // The marketplace refuses it: the core says the stock changed, and the cell is failed.
    const row = f.rows[1]!;
    row.cells['64712'] = { ...row.cells['64712']!, state: 'failed', error: { entryId: 77, status: 400, message: 'quantity is not valid', unknown: false } };
    await act(async () => f.emit({ type: 'stock.changed', userProductIds: [row.userProductId] }));
    await waitFor(() => expect(notice()).toBe('! The edit of Depósito Palermo, Producto 1 failed: quantity is not valid'));

    // The next action (a move and an edit of another cell) clears it.
    await user.click(cellOf('Depósito Avellaneda', 'Producto 3'));
    vi.setSystemTime(Date.now() + 150);
    await user.keyboard('{Enter}');
    expect(notice()).toBe('');
  });
});

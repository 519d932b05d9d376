// @vitest-environment jsdom
/**
 * Issue 27: the store scans go to is the workstation's (stock.scanStore), restored at load; a kept
 * store that no longer exists is said, not fallen back on silently. A barcode typed into a cell is
 * offered as a code, never saved.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { fakeStockroom, giveGridASize } from '../../support/fake-stock.js';
import { runStockAction } from '../../support/stock-actions.js';

beforeAll(() => giveGridASize());
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => cleanup());

const scansGoTo = () => screen.getByRole('combobox', { name: 'Scans go to' }) as HTMLSelectElement;
const notice = () => document.querySelector('.notice-line')!.textContent;

describe('Scans go to', () => {
  it('restores the kept store at load, and keeps a new choice', async () => {
    const f = fakeStockroom();
    f.scanStore = '64713';
    render(<StockTab store={createStockStore(f.api)} />);
    await screen.findByRole('grid', { name: 'Stock per store' });
    const user = userEvent.setup();
    await runStockAction(user, 'Scans go to');
    await waitFor(() => expect(scansGoTo().value).toBe('64713'));
    await user.selectOptions(scansGoTo(), 'Depósito Palermo');
    await waitFor(() => expect(f.scanStore).toBe('64712'));
  });

  it('says so when the kept store no longer exists', async () => {
    const f = fakeStockroom();
    f.scanStore = '99999';
    render(<StockTab store={createStockStore(f.api)} />);
    await screen.findByRole('grid', { name: 'Stock per store' });
    await waitFor(() => expect(notice()).toContain('Scans went to store 99999, which is no longer one of your stores: they go to Depósito Palermo now.'));
  });
});

describe('a barcode typed into a cell', () => {
  it('is offered as a code: nothing saved, "Find the product" goes to it', async () => {
    const f = fakeStockroom();
    render(<StockTab store={createStockStore(f.api)} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 0:/ }));
    // A slow scanner: 40 ms a key (jsdom stamps keys with Date.now(), ours to move), too slow to be taken for one.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (const key of [...'00123457', '{Enter}']) {
        vi.setSystemTime(Date.now() + 40);
        await user.keyboard(key);
      }
    } finally {
      vi.useRealTimers();
    }
    const ask = await screen.findByRole('alertdialog');
    expect(ask.textContent).toContain('00123457 looks like a barcode, not a count. Nothing was saved.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Find the product' }));
    expect(f.callsTo('stock.count')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Find the product' }));
    await waitFor(() => expect(f.callsTo('stock.locate')).toContainEqual({ search: '00123457', page: 50, near: 0 }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(f.callsTo('stock.count')).toEqual([]);
  });
});

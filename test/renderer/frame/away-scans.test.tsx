// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../../../renderer/frame/App.js';
import { ok } from '../../support/fake-api.js';
import { fakeStockroom, giveGridASize, id } from '../../support/fake-stock.js';
import { settingsView } from '../../support/fake-settings.js';
import { setUpKeyClock } from '../support/scanner-keys.js';

/**
 * Issue 27: a scan while another tab is shown is not swallowed by the hidden stock screen: the
 * frame says it was not used (the code named), undoes what it typed, and can show it in Stock.
 * The keys' times are the feature: jsdom stamps events with Date.now(), which stands still while
 * the "scanner" types and moves before it (test/renderer/support/scanner-keys.tsx).
 */
setUpKeyClock();

describe('a scan on another tab', () => {
  it('is said with its code, what it typed is undone, and "Show it in Stock" goes to the product', async () => {
    giveGridASize();
    const fake = fakeStockroom();
    fake.answers['settings.get'] = () => ok(settingsView({ firstRun: false }));
    fake.answers['messages.conversations'] = () => ok({ total: 0, conversations: [] });
    render(<App api={fake.api} />);
    const user = userEvent.setup();
    await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 0:/ });
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    // A text field of the settings screen has focus when the scan comes.
    const field = (await waitFor(() => {
      const f = document.querySelector<HTMLInputElement>('.screen input[type="text"], .screen input:not([type]), .screen input[type="url"]');
      expect(f).not.toBeNull();
      return f!;
    }))!;
    const before = field.value;
    await user.click(field);
    vi.setSystemTime(Date.now() + 1000);
    await user.keyboard(`${id(3)}{Enter}`);
    const status = await screen.findByText(`Scanned ${id(3)} here: nothing was done with it. Scans work on the Stock tab.`, { exact: false });
    expect(status.closest('[role="status"]')).not.toBeNull();
    expect(field.value).toBe(before);
    expect(fake.callsTo('stock.locate')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Show it in Stock' }));
    expect(screen.getByRole('tab', { name: 'Stock' }).getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(fake.callsTo('stock.locate')).toContainEqual({ search: id(3), page: 50, near: 0 }));
    await waitFor(() => expect(document.querySelector('.notice-line')!.textContent).toBe(`Scanned ${id(3)}: Producto 3 (${id(3)}) · Depósito Palermo`));
  });
});

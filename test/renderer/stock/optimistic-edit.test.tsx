// @vitest-environment jsdom
/**
 * Edit → queued on screen at the Enter (renderer/stock/editing.ts): where edits queue (a replica),
 * the cell shows the new quantity as queued before the core answers; a refusal puts it back as it
 * was, never leaving it queued; on the local demo data it says "saving" until the answer.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mode, QueueResultView, Result } from '../../../common/contract/contract.js';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { fail, ok } from '../../support/fake-api.js';
import { syncStatus } from '../../support/sync-status.js';
import { fakeStockroom, giveGridASize } from '../../support/fake-stock.js';

beforeAll(() => giveGridASize());
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => cleanup());

const status = (mode: Mode) => syncStatus({ mode, online: false });

/** The grid over a fake in `mode`, whose stock.adjust answers only when the test releases it. */
function renderHeld(mode: Mode) {
  const f = fakeStockroom();
  f.answers['sync.status'] = () => ok(status(mode));
  const held: ((r: Result<QueueResultView>) => void)[] = [];
  f.answers['stock.adjust'] = () => new Promise<Result<QueueResultView>>((resolve) => held.push(resolve));
  render(<StockTab store={createStockStore(f.api)} />);
  return { f, held, user: userEvent.setup() };
}

const palermo = (product: string) => screen.getByRole('gridcell', { name: new RegExp(`^Depósito Palermo, ${product}:`) });

describe('a cell edit on screen before the core answers', () => {
  it('shows the new quantity queued at the Enter, and keeps it when the core queues the edit', async () => {
    const { f, held, user } = renderHeld('offline');
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 1:/ }));
    // The mode comes with the edit's first key; the Enter after it.
    await user.keyboard('+12');
    await waitFor(() => expect(f.callsTo('sync.status').length).toBeGreaterThan(0));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(f.callsTo('stock.adjust')).toHaveLength(1));
    // Not answered yet: already queued on screen, with the new quantity.
    expect(held).toHaveLength(1);
    expect(palermo('Producto 1').getAttribute('data-state')).toBe('pending');
    expect(palermo('Producto 1').getAttribute('aria-label')).toBe('Depósito Palermo, Producto 1: 13, queued');
    await act(async () => held[0]!(ok({ entryId: 77, how: 'queued', shown: 13, historyId: 1 })));
    expect(palermo('Producto 1').getAttribute('data-state')).toBe('pending');
    expect(palermo('Producto 1').textContent).toContain('13');
  });

  it('puts the cell back as it was when the core refuses the edit, with the reason beside it', async () => {
    const { f, held, user } = renderHeld('online');
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 1:/ }));
    await user.keyboard('+12');
    await waitFor(() => expect(f.callsTo('sync.status').length).toBeGreaterThan(0));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(palermo('Producto 1').getAttribute('data-state')).toBe('pending'));
    await act(async () => held[0]!(fail('conflict', 'The data changed meanwhile', 409)));
    // Back in the cell's editor with the reason; the cell under it is not queued any more.
    expect(screen.getByRole('alert').textContent).toContain('The data changed meanwhile');
    const cell = document.getElementById('stock-cell-1-0')!;
    expect(cell.getAttribute('data-state')).toBe('synced');
    await user.keyboard('{Escape}');
    expect(palermo('Producto 1').getAttribute('aria-label')).toBe('Depósito Palermo, Producto 1: 1, synced');
  });

  it('on the local demo data (edits do not queue) says "saving" until the answer, never queued', async () => {
    const { f, held, user } = renderHeld('local-only');
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 1:/ }));
    await user.keyboard('+12');
    await waitFor(() => expect(f.callsTo('sync.status').length).toBeGreaterThan(0));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(palermo('Producto 1').getAttribute('data-state')).toBe('saving'));
    await act(async () => held[0]!(ok({ entryId: null, how: 'queued', shown: 13, historyId: 1 })));
    expect(palermo('Producto 1').getAttribute('data-state')).toBe('synced');
    expect(palermo('Producto 1').textContent).toContain('13');
  });
});

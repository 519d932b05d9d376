// @vitest-environment jsdom
/**
 * Issue 27: while the marketplace cannot be reached (the sync status's unreachableSince), a queued
 * or sending cell says "~ waiting", and its accessible name says it waits for the marketplace with
 * the changes safe here; once it is reachable again the cell says queued or sending as before.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { ok } from '../../support/fake-api.js';
import { entry, fakeStockroom, giveGridASize, sampleRows } from '../../support/fake-stock.js';
import { syncStatus } from '../../support/sync-status.js';

beforeAll(() => giveGridASize());
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => cleanup());

const cellOf = (column: string, product: string) => screen.getByRole('gridcell', { name: new RegExp(`^${column}, ${product}:`) });
const badge = (el: HTMLElement) => el.querySelector('.cell-badge')!.textContent;

describe('queued cells while the marketplace is unreachable', () => {
  it('say "~ waiting" with the reason in their name, and queued / sending again once it is back', async () => {
    const rows = sampleRows(3);
    const [a, b] = [rows[0]!, rows[1]!];
    a.cells['64712'] = { ...a.cells['64712']!, state: 'pending', entries: [entry({ id: 1 })] };
    b.cells['64713'] = { ...b.cells['64713']!, state: 'sending', entries: [entry({ id: 2, state: 'in_flight' })] };
    const f = fakeStockroom(rows);
    const since = Date.parse('2026-11-27T14:05:00.000Z');
    // Unreachable when the screen opens (the first status), as the sync reports it.
    f.on({ sync: { status: () => ok(syncStatus({ online: false, unreachableSince: since, pending: 1, inFlight: 1 })) } });
    render(<StockTab store={createStockStore(f.api)} />);
    await screen.findByRole('grid');

    await waitFor(() => expect(badge(cellOf('Depósito Palermo', 'Producto 0'))).toBe('~ waiting'));
    expect(badge(cellOf('Depósito Avellaneda', 'Producto 1'))).toBe('~ waiting');
    expect(cellOf('Depósito Palermo', 'Producto 0').getAttribute('aria-label')).toBe(
      'Depósito Palermo, Producto 0: 0, waiting for the marketplace, your changes are safe here',
    );
    // A synced cell says nothing of it.
    expect(cellOf('Depósito Avellaneda', 'Producto 0').getAttribute('aria-label')).toBe('Depósito Avellaneda, Producto 0: 10, synced');

    // Reachable again (the sync's status event): queued and sending as before.
    await act(async () => f.emit({ type: 'sync.status', status: syncStatus({ pending: 1, inFlight: 1 }) }));
    await waitFor(() => expect(badge(cellOf('Depósito Palermo', 'Producto 0'))).toBe('~ queued'));
    expect(badge(cellOf('Depósito Avellaneda', 'Producto 1'))).toBe('~ sending');
    expect(cellOf('Depósito Avellaneda', 'Producto 1').getAttribute('aria-label')).toBe('Depósito Avellaneda, Producto 1: 11, sending');

    // Unreachable again by an event: waiting again.
    await act(async () => f.emit({ type: 'sync.status', status: syncStatus({ online: false, unreachableSince: since + 60_000, pending: 1 }) }));
    await waitFor(() => expect(badge(cellOf('Depósito Avellaneda', 'Producto 1'))).toBe('~ waiting'));
  });
});

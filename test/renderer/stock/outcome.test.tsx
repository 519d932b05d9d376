// @vitest-environment jsdom
/**
 * Issue 24 on the stock screens: an edit whose outcome is unknown (sent, its answer lost) is not
 * called failed, an edit being checked says so, undo and discard that check first say so, and a
 * conflict's choices say what the later adjustments add.
 */
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GridColumnView } from '../../../common/contract/contract.js';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { ok } from '../../support/fake-api.js';
import { COLUMNS, cell, conflictOf, entry, errorOf, fakeStockroom, giveGridASize, id, sampleRows } from '../../support/fake-stock.js';
import { runStockAction } from '../../support/stock-actions.js';

const [PALERMO, AVELLANEDA] = COLUMNS as [GridColumnView, GridColumnView];

beforeAll(() => giveGridASize());
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => cleanup());

function renderStock(f = fakeStockroom()) {
  const store = createStockStore(f.api);
  const utils = render(<StockTab store={store} />);
  return { ...utils, store, f, user: userEvent.setup() };
}

const cellOf = (column: string, product: string) => screen.getByRole('gridcell', { name: new RegExp(`^${column}, ${product}:`) });
const notice = () => document.querySelector('.notice-line')!.textContent;

/** Palermo of product 1: a +5 sent whose answers were lost (unknown); Avellaneda of product 1: a −2 the marketplace refused. */
function failedRows() {
  const rows = sampleRows(3);
  rows[1]!.cells['64712'] = cell(id(1), PALERMO, 1, {
    state: 'failed',
    entries: [entry({ id: 4, delta: 5, state: 'failed', phase: 'unknown', lastStatus: null, lastError: 'The marketplace did not answer' })],
    error: errorOf(4, null, 'The marketplace did not answer', true),
  });
  rows[1]!.cells['64713'] = cell(id(1), AVELLANEDA, 11, {
    state: 'failed',
    entries: [entry({ id: 6, delta: -2, state: 'failed', phase: 'refused', lastStatus: 400, lastError: 'Store not found: 64713' })],
    error: errorOf(6, 400, 'Store not found: 64713'),
  });
  return rows;
}

describe('an edit of unknown outcome', () => {
  it('reads "outcome unknown" (the marketplace may have it), in words and in its name; a refused one still reads failed with its reason', async () => {
    renderStock(fakeStockroom(failedRows()));
    await screen.findByRole('grid');
    const unknown = cellOf('Depósito Palermo', 'Producto 1');
    expect(unknown.textContent).toBe('1? outcome unknown');
    expect(unknown.getAttribute('aria-label')).toBe('Depósito Palermo, Producto 1: 1, outcome unknown: the marketplace may already have it');
    expect(unknown.getAttribute('aria-label')).not.toContain('failed');
    expect(unknown.title).toBe('Sent, but no answer came back: the marketplace may already have it. Open the edit of unknown outcome (Enter)');
    expect(unknown.getAttribute('data-outcome')).toBe('unknown');
    // The icon is decoration: the words carry the state.
    expect(unknown.querySelector('[aria-hidden="true"]')!.textContent).toBe('?');
    const refused = cellOf('Depósito Avellaneda', 'Producto 1');
    expect(refused.textContent).toBe('11× failed');
    expect(refused.getAttribute('aria-label')).toContain('failed: Store not found: 64713');
    expect(refused.getAttribute('data-outcome')).toBeNull();
  });

  it('opens a dialog that says the marketplace may have it and what Retry and Discard do; Discard that checks first says so', async () => {
    const f = fakeStockroom(failedRows());
    f.on({ outbox: { discard: (p) => ok({ entryId: p.entryId, how: 'checking' }) } });
    const { user } = renderStock(f);
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 1:/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Outcome unknown: Depósito Palermo, Producto 1' });
    // No choice has focus: a stray Enter changes nothing.
    expect(document.activeElement).toBe(dialog);
    expect(within(dialog).getByText('Your edit: +5')).toBeTruthy();
    expect(within(dialog).getByText('It was sent, but no answer came back: the marketplace may already have it.')).toBeTruthy();
    expect(within(dialog).getByText('No answer came back')).toBeTruthy();
    expect(within(dialog).queryByText(/refused|Not sent/)).toBeNull();
    const retry = within(dialog).getByRole('button', { name: 'Retry' });
    const discard = within(dialog).getByRole('button', { name: 'Discard' });
    // Each choice's effect is its accessible description.
    const described = (el: HTMLElement) => document.getElementById(el.getAttribute('aria-describedby')!)!.textContent;
    expect(described(retry)).toBe('Retry sends it again: safe, the marketplace won’t apply it twice.');
    expect(described(discard)).toBe('Discard checks with the marketplace first, then drops it only if it never arrived.');
    await user.click(discard);
    await waitFor(() => expect(f.callsTo('outbox.discard')).toEqual([{ entryId: 4 }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(notice()).toBe('Checking with the marketplace whether the edit arrived: it is dropped only if it never did.');
  });

  it('a refused edit keeps the "not applied" dialog with the marketplace’s reason, and Discard says it was discarded', async () => {
    const f = fakeStockroom(failedRows());
    f.on({ outbox: { discard: (p) => ok({ entryId: p.entryId, how: 'discarded' }) } });
    const { user } = renderStock(f);
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Avellaneda, Producto 1:/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Not applied: Depósito Avellaneda, Producto 1' });
    expect(within(dialog).getByText('The marketplace’s reason')).toBeTruthy();
    expect(within(dialog).getByText('Answer 400')).toBeTruthy();
    expect(within(dialog).queryByText(/no answer came back/i)).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Discard' }).getAttribute('aria-describedby')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(notice()).toBe('Failed edit discarded.'));
  });
});

describe('an edit being checked', () => {
  it('reads "checking…" in its badge and in its name', async () => {
    const rows = sampleRows(3);
    rows[0]!.cells['64712'] = cell(id(0), PALERMO, 0, {
      state: 'sending',
      entries: [entry({ id: 8, delta: 5, state: 'pending', phase: 'checking' })],
    });
    renderStock(fakeStockroom(rows));
    await screen.findByRole('grid');
    const checking = cellOf('Depósito Palermo', 'Producto 0');
    expect(checking.textContent).toBe('0? checking…');
    expect(checking.getAttribute('aria-label')).toBe('Depósito Palermo, Producto 0: 0, checking… Checking with the marketplace whether your edit arrived');
    expect(checking.title).toBe('Checking with the marketplace whether your edit arrived');
    // The cell beside it, with an ordinary edit on the wire, still reads sending.
    expect(cellOf('Depósito Avellaneda', 'Producto 0').getAttribute('data-outcome')).toBeNull();
  });

  it('undo of an edit whose outcome is unknown says the app checks with the marketplace first', async () => {
    const f = fakeStockroom();
    f.answers['stock.undo'] = () => ok({ how: 'checking', undone: 3, historyId: 4, userProductId: id(0) });
    const { user } = renderStock(f);
    await screen.findByRole('grid');
    await runStockAction(user, 'Undo last edit');
    await waitFor(() => expect(notice()).toBe('Undo: checking with the marketplace whether the edit arrived…'));
    expect(f.callsTo('stock.undo')).toHaveLength(1);
  });
});

describe('a conflict with adjustments typed after the count', () => {
  function rows() {
    const r = sampleRows(3);
    r[0]!.cells['64712'] = cell(id(0), PALERMO, 17, {
      state: 'conflict',
      entries: [entry({ id: 9, op: 'count', delta: null, quantity: 15, state: 'conflict' }), entry({ id: 10, delta: 2 })],
      conflict: conflictOf(9, 12, 15, 20, { laterAdjustments: 2 }),
    });
    return r;
  }

  it('each choice says what the cell will show, and "use marketplace" keeps the later +2', async () => {
    const { user, f } = renderStock(fakeStockroom(rows()));
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 0:/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Conflict in Depósito Palermo, Producto 0' });
    expect(document.activeElement).toBe(dialog);
    expect(within(dialog).getByText('The adjustments you typed after this count (+2) stay, whichever you choose.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Keep my count: 15, plus your later +2 → 17' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Use marketplace: 20, plus your later +2 → 22' }));
    await waitFor(() => expect(f.callsTo('stock.resolveConflict')).toEqual([{ entryId: 9, resolution: { action: 'take_theirs' } }]));
    await waitFor(() => expect(cellOf('Depósito Palermo', 'Producto 0').getAttribute('aria-label')).toBe('Depósito Palermo, Producto 0: 22, synced'));
  });

  it('a later −3 is said with its sign', async () => {
    const r = rows();
    r[0]!.cells['64712']!.conflict = conflictOf(9, 12, 15, 20, { laterAdjustments: -3 });
    const { user } = renderStock(fakeStockroom(r));
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 0:/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Conflict in Depósito Palermo, Producto 0' });
    expect(within(dialog).getByRole('button', { name: 'Use marketplace: 20, plus your later −3 → 17' })).toBeTruthy();
  });
});

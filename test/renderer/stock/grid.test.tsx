// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GridColumnView } from '../../../common/contract/contract.js';
import { StatusBar } from '../../../renderer/frame/StatusBar.js';
import { i18nFor, useI18nStore } from '../../../renderer/i18n/index.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { ROW_HEIGHT } from '../../../renderer/stock/Grid.js';
import { PAGE_SIZE } from '../../../renderer/stock/store.js';
import { COLUMNS, cell, conflictOf, entry, errorOf, fakeStockroom, giveGridASize, id, sampleRows } from '../../support/fake-stock.js';
import { runStockAction } from '../../support/stock-actions.js';
import { syncStatus } from '../../support/sync-status.js';

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
const focused = () => document.activeElement as HTMLElement;
/** The focused cell as "row,col" (aria-rowindex 2 is the first product; aria-colindex 2 the first location). */
const at = () => `${focused().closest('[role=row]')?.getAttribute('aria-rowindex')},${focused().getAttribute('aria-colindex')}`;

describe('stock grid', () => {
  it('shows products × stores, the read-only columns with their reason in words, and the totals', async () => {
    renderStock();
    const grid = await screen.findByRole('grid', { name: 'Stock per store' });
    expect(grid.getAttribute('aria-rowcount')).toBe('6');
    const headers = within(grid)
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.trim());
    expect(headers).toEqual(['Product', 'Depósito Palermostore 64712', 'Depósito Avellanedastore 64713', 'Selling address', 'Full (platform)', 'Total']);
    expect(screen.getByText('MLA1400000001 · MLAU100000001')).toBeTruthy();
    // Platform-managed: locked, with the reason in the accessible name and the text.
    const full = cellOf('Full \\(platform\\)', 'Producto 0');
    expect(full.getAttribute('aria-readonly')).toBe('true');
    expect(full.getAttribute('aria-label')).toContain('locked: Managed by the platform (Full)');
    expect(full.textContent).toContain('platform');
    // The selling address rule of SPEC 7.3, from the core's data.
    const selling = cellOf('Selling address', 'Producto 2');
    expect(selling.textContent).toContain('no inventory id');
    expect(selling.getAttribute('aria-label')).toContain('the item has no inventory id');
    // A product at its selling address has no store stock: those cells say why they are locked.
    expect(cellOf('Depósito Palermo', 'Producto 2').getAttribute('aria-label')).toContain('a product has stores or a selling address, not both');
    // Total: 1 + 11 + 5.
    const row1 = screen.getAllByRole('row').find((r) => r.getAttribute('aria-rowindex') === '3')!;
    expect(within(row1).getAllByRole('gridcell').at(-1)!.textContent).toBe('17');
  });

  it('shows a location of a kind the app has no rules for read-only, with the type as the marketplace sent it, outside the total', async () => {
    const rows = sampleRows(5);
    rows[1] = {
      ...rows[1]!,
      others: [
        { type: 'drone_hangar', storeId: null, quantity: 9 },
        { type: 'pickup', storeId: '77', quantity: 4 },
      ],
    };
    renderStock(fakeStockroom(rows));
    expect(await screen.findByText('Other (read-only): drone_hangar 9, pickup (store 77) 4')).toBeTruthy();
    // Total: 1 + 11 + 5, as without them.
    const row1 = screen.getAllByRole('row').find((r) => r.getAttribute('aria-rowindex') === '3')!;
    expect(within(row1).getAllByRole('gridcell').at(-1)!.textContent).toBe('17');
  });

  it('moves with arrows, Tab / Shift+Tab, Home / End, and PageUp / PageDown', async () => {
    const { user } = renderStock(fakeStockroom(sampleRows(60)));
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 0:/ }));
    expect(at()).toBe('2,2');
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowRight}');
    await waitFor(() => expect(at()).toBe('4,3'));
    await user.keyboard('{ArrowUp}{ArrowLeft}{ArrowLeft}');
    await waitFor(() => expect(at()).toBe('3,2'));
    await user.keyboard('{End}');
    await waitFor(() => expect(at()).toBe('3,5'));
    await user.keyboard('{Home}');
    await waitFor(() => expect(at()).toBe('3,2'));
    // Tab goes along the row and on to the next one; Shift+Tab back.
    await user.keyboard('{Tab}{Tab}{Tab}{Tab}');
    await waitFor(() => expect(at()).toBe('4,2'));
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    await waitFor(() => expect(at()).toBe('3,5'));
    // A page is what fits in the 600 px viewport.
    await user.keyboard('{PageDown}');
    await waitFor(() => expect(Number(at().split(',')[0])).toBeGreaterThan(10));
    await user.keyboard('{PageUp}');
    await waitFor(() => expect(at()).toBe('3,5'));
    await user.keyboard('{Control>}{End}{/Control}');
    await waitFor(() => expect(at()).toBe('61,5'));
    await user.keyboard('{Control>}{Home}{/Control}');
    await waitFor(() => expect(at()).toBe('2,2'));
  });

  it('records +n / -n as an adjustment and a bare number as a count, and shows the cell pending at once', async () => {
    const { user, f } = renderStock();
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 1:/ }));
    await user.keyboard('+12{Enter}');
    await waitFor(() =>
      expect(f.callsTo('stock.adjust')).toEqual([{ userProductId: id(1), type: 'seller_warehouse', storeId: '64712', delta: 12, reason: 'correction' }]),
    );
    const edited = cellOf('Depósito Palermo', 'Producto 1');
    await waitFor(() => expect(edited.getAttribute('data-state')).toBe('pending'));
    expect(edited.textContent).toContain('13');
    expect(edited.textContent).toContain('queued');
    expect(edited.getAttribute('aria-label')).toBe('Depósito Palermo, Producto 1: 13, queued');
    // Enter moved down a row.
    await waitFor(() => expect(at()).toBe('4,2'));
    await user.keyboard('{ArrowDown}-3{Enter}');
    await waitFor(() => expect(f.callsTo('stock.adjust')).toHaveLength(2));
    expect(f.callsTo('stock.adjust')[1]).toMatchObject({ userProductId: id(3), delta: -3 });
    await user.keyboard('{ArrowRight}40{Tab}');
    await waitFor(() => expect(f.callsTo('stock.count')).toEqual([{ userProductId: id(4), type: 'seller_warehouse', storeId: '64713', quantity: 40 }]));
    expect(f.callsTo('stock.adjust')).toHaveLength(2);
  });

  it('Esc cancels an edit, and a value that is not a count or an adjustment is refused beside the cell', async () => {
    const { user, f } = renderStock();
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Avellaneda, Producto 0:/ }));
    await user.keyboard('7');
    const input = screen.getByRole('textbox', { name: /New count, or \+n \/ -n to adjust, for Depósito Avellaneda, Producto 0/ });
    expect((input as HTMLInputElement).value).toBe('7');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: /New count/ })).toBeNull();
    await waitFor(() => expect(at()).toBe('2,3'));
    expect(cellOf('Depósito Avellaneda', 'Producto 0').textContent).toContain('10');
    // Enter edits the current value; 1.5 is neither a count nor an adjustment.
    await user.keyboard('{Enter}');
    const again = screen.getByRole('textbox', { name: /New count/ }) as HTMLInputElement;
    expect(again.value).toBe('10');
    await user.clear(again);
    await user.type(again, '1.5{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('Type a number (a count) or +n / -n (an adjustment).');
    expect(again.getAttribute('aria-invalid')).toBe('true');
    await user.clear(again);
    await user.type(again, '+0{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('An adjustment of 0 changes nothing.');
    await user.clear(again);
    await user.type(again, '-11{Enter}');
    expect(screen.getByRole('alert').textContent).toContain('below 0');
    await user.keyboard('{Escape}');
    expect(f.callsTo('stock.adjust')).toEqual([]);
    expect(f.callsTo('stock.count')).toEqual([]);
  });

  it('a cell that cannot be edited says why, and sends nothing', async () => {
    const { user, f } = renderStock();
    await user.click(await screen.findByRole('gridcell', { name: /^Full \(platform\), Producto 0:/ }));
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(document.querySelector('.notice-line')!.textContent).toContain('Not editable: Managed by the platform (Full): it cannot be changed here.'),
    );
    await user.keyboard('5');
    expect(screen.queryByRole('textbox', { name: /New count/ })).toBeNull();
    await user.click(cellOf('Selling address', 'Producto 2'));
    await user.keyboard('3');
    await waitFor(() => expect(document.querySelector('.notice-line')!.textContent).toContain('the item has no inventory id'));
    expect(f.callsTo('stock.count')).toEqual([]);
    expect(f.callsTo('stock.adjust')).toEqual([]);
  });

  it('pending, sending, conflict and failed cells show an icon and words, and say so in their accessible name', async () => {
    const rows = sampleRows(5);
    rows[0]!.cells['64712'] = cell(id(0), PALERMO, 45, {
      state: 'pending',
      entries: [entry({ id: 1, op: 'adjust', delta: 5 })],
    });
    rows[0]!.cells['64713'] = cell(id(0), AVELLANEDA, 40, {
      state: 'conflict',
      conflict: conflictOf(9, 35, 40, 31),
    });
    rows[1]!.cells['64712'] = cell(id(1), PALERMO, 3, { state: 'failed', error: errorOf(4, 400, 'Store not found: 64712') });
    rows[1]!.cells['64713'] = cell(id(1), AVELLANEDA, 3, { state: 'sending' });
    renderStock(fakeStockroom(rows));
    await screen.findByRole('grid');
    const pending = cellOf('Depósito Palermo', 'Producto 0');
    expect(pending.textContent).toBe('45~ queued');
    expect(pending.title).toBe('queued: +5');
    expect(pending.getAttribute('aria-label')).toBe('Depósito Palermo, Producto 0: 45, queued');
    const conflict = cellOf('Depósito Avellaneda', 'Producto 0');
    expect(conflict.textContent).toBe('40! conflict');
    expect(conflict.getAttribute('aria-label')).toContain('conflict. Press Enter to resolve the conflict');
    const failed = cellOf('Depósito Palermo', 'Producto 1');
    expect(failed.textContent).toBe('3× failed');
    expect(failed.getAttribute('aria-label')).toContain('failed: Store not found: 64712');
    expect(cellOf('Depósito Avellaneda', 'Producto 1').textContent).toBe('3~ sending');
    // The icons are hidden from screen readers (the words carry the meaning).
    for (const el of [pending, conflict, failed]) expect(el.querySelector('[aria-hidden="true"]')).not.toBeNull();
    // Synced cells say synced.
    expect(cellOf('Depósito Palermo', 'Producto 3').getAttribute('aria-label')).toBe('Depósito Palermo, Producto 3: 3, synced');
  });
});

describe('conflict dialog', () => {
  function conflictRows() {
    const rows = sampleRows(3);
    rows[0]!.cells['64712'] = cell(id(0), PALERMO, 40, {
      state: 'conflict',
      conflict: conflictOf(9, 35, 40, 31, { countedAt: Date.UTC(2026, 10, 21, 14, 58), seenAt: Date.UTC(2026, 10, 21, 15, 2) }),
    });
    return rows;
  }

  async function open(user: ReturnType<typeof userEvent.setup>) {
    // By keyboard: from the next cell, left, then Enter (a click on a conflict cell opens it too).
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Avellaneda, Producto 0:/ }));
    await user.keyboard('{ArrowLeft}{Enter}');
    return screen.findByRole('dialog', { name: 'Conflict in Depósito Palermo, Producto 0' });
  }

  it('shows base, mine and the marketplace value in words, and "keep my count" resolves with keep_mine', async () => {
    const { user, f } = renderStock(fakeStockroom(conflictRows()));
    const dialog = await open(user);
    const time = (ms: number) => new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit' }).format(ms);
    await waitFor(() =>
      expect(within(dialog).getByText(/^You counted/).textContent).toBe(
        `You counted 40 at ${time(Date.UTC(2026, 10, 21, 14, 58))} when it was 35. The marketplace now says 31 (changed at ${time(Date.UTC(2026, 10, 21, 15, 2))}).`,
      ),
    );
    expect(within(dialog).getByText('Before your count').nextElementSibling?.textContent).toBe('35');
    // Every choice changes stock: the dialog itself has focus, and a stray Enter (a scanner's) resolves nothing.
    expect(document.activeElement).toBe(dialog);
    await user.keyboard('{Enter}');
    expect(f.callsTo('stock.resolveConflict')).toEqual([]);
    expect(screen.getByRole('dialog')).toBe(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Keep my count (40)' }));
    await waitFor(() => expect(f.callsTo('stock.resolveConflict')).toEqual([{ entryId: 9, resolution: { action: 'keep_mine' } }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(cellOf('Depósito Palermo', 'Producto 0').getAttribute('data-state')).toBe('pending'));
  });

  it('"use marketplace" resolves with take_theirs and the cell shows the marketplace value', async () => {
    const { user, f } = renderStock(fakeStockroom(conflictRows()));
    const dialog = await open(user);
    await user.click(within(dialog).getByRole('button', { name: 'Use marketplace (31)' }));
    await waitFor(() => expect(f.callsTo('stock.resolveConflict')).toEqual([{ entryId: 9, resolution: { action: 'take_theirs' } }]));
    await waitFor(() => expect(cellOf('Depósito Palermo', 'Producto 0').getAttribute('aria-label')).toBe('Depósito Palermo, Producto 0: 31, synced'));
  });

  it('"enter a new count" asks for it, refuses an adjustment, and resolves with new_count; Esc closes without a choice', async () => {
    const { user, f } = renderStock(fakeStockroom(conflictRows()));
    await open(user);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(f.callsTo('stock.resolveConflict')).toEqual([]);
    const dialog = await open(user);
    await user.click(within(dialog).getByRole('button', { name: 'Enter a new count' }));
    const input = within(dialog).getByRole('textbox', { name: 'New count' });
    await user.type(input, '+3{Enter}');
    expect(within(dialog).getByRole('alert').textContent).toBe('A count cannot be negative.');
    await user.clear(input);
    await user.type(input, '38{Enter}');
    await waitFor(() => expect(f.callsTo('stock.resolveConflict')).toEqual([{ entryId: 9, resolution: { action: 'new_count', quantity: 38 } }]));
  });

  it('shows the core refusing a resolution in words, and keeps the dialog open', async () => {
    const f = fakeStockroom(conflictRows());
    f.answers['stock.resolveConflict'] = () => ({ ok: false, error: { code: 'conflict', message: 'Entry 9 is not in conflict', status: 409 } });
    const { user } = renderStock(f);
    const dialog = await open(user);
    await user.click(within(dialog).getByRole('button', { name: 'Keep my count (40)' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('Not resolved: Entry 9 is not in conflict'));
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});

describe('search, scanner, history, status bar', () => {
  it('a scan (fast keys ending in Enter) jumps to the row and focuses the cell of the store chosen for scans', async () => {
    const f = fakeStockroom(sampleRows(300));
    const { user, store } = renderStock(f);
    await screen.findByRole('grid');
    // Scans go to the store chosen on purpose; visiting another store's column does not change it.
    await runStockAction(user, 'Scans go to');
    const scanStore = screen.getByRole('combobox', { name: 'Scans go to' }) as HTMLSelectElement;
    expect(scanStore.value).toBe('64712');
    await user.selectOptions(scanStore, '64713');
    await user.click(cellOf('Depósito Palermo', 'Producto 0'));
    expect(store.getState().currentStore).toBe('64713');
    await user.click(screen.getByRole('searchbox', { name: 'Search or scan' }));
    await user.keyboard('MLA1400000251{Enter}');
    await waitFor(() => expect(f.callsTo('stock.locate')).toEqual([{ search: 'MLA1400000251', page: 50, near: 0 }]));
    await waitFor(() => expect(at()).toBe('252,3'));
    expect(focused().getAttribute('aria-label')).toBe('Depósito Avellaneda, Producto 250: 260, synced');
    expect(document.querySelector('.notice-line')!.textContent).toMatch(/^Scanned MLA1400000251: .+ · Depósito Avellaneda$/);
    // The box is empty for the next scan, and the grid was not narrowed.
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('');
    expect(f.callsTo('stock.grid').every((q) => (q as { search?: string }).search === undefined)).toBe(true);
    // Typed right away, a count goes into that cell.
    await user.keyboard('7{Enter}');
    await waitFor(() => expect(f.callsTo('stock.count')).toEqual([{ userProductId: id(250), type: 'seller_warehouse', storeId: '64713', quantity: 7 }]));
  });

  it('a scan of something unknown says so; Ctrl+F goes to the search box', async () => {
    const f = fakeStockroom();
    const { user } = renderStock(f);
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 0:/ }));
    await user.keyboard('{Control>}f{/Control}');
    expect(document.activeElement).toBe(screen.getByRole('searchbox'));
    await user.keyboard('MLA0000000000{Enter}');
    await waitFor(() => expect(document.querySelector('.notice-line')!.textContent).toBe('! No product has code MLA0000000000.'));
  });

  it('the history panel lists time, person or marketplace, kind and from → to for the focused cell', async () => {
    const f = fakeStockroom();
    const base = {
      cell: `${id(0)}|seller_warehouse|64712`,
      user_product_id: id(0),
      cell_type: 'seller_warehouse',
      store_key: '64712',
      entry_id: 1,
      ref: null,
      note: null,
    };
    f.history = [
      { ...base, id: 3, kind: 'synced', author: 'sync', at: Date.UTC(2026, 10, 21, 15, 0), from_quantity: 12, to_quantity: 17, delta: null },
      {
        ...base,
        id: 2,
        kind: 'adjustment',
        author: 'DEPOSITO_NORTE',
        at: Date.UTC(2026, 10, 21, 14, 0),
        from_quantity: 12,
        to_quantity: 17,
        delta: 5,
        reason: 'received',
      },
      {
        ...base,
        id: 1,
        kind: 'conflict_resolution',
        author: 'DEPOSITO_NORTE',
        at: Date.UTC(2026, 10, 21, 13, 0),
        from_quantity: 40,
        to_quantity: 31,
        delta: null,
      },
    ];
    const { user } = renderStock(f);
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 0:/ }));
    await runStockAction(user, 'History');
    const panel = await screen.findByRole('complementary', { name: 'History of Depósito Palermo, Producto 0' });
    const rows = await within(panel).findAllByRole('row');
    expect(rows.slice(1).map((r) => [...r.querySelectorAll('td')].slice(1).map((td) => td.textContent))).toEqual([
      ['marketplace', 'synced from the marketplace', '', '12 → 17'],
      // The reason column (issue 14 §6).
      ['DEPOSITO_NORTE', 'adjustment (+5)', 'received', '12 → 17'],
      ['DEPOSITO_NORTE', 'conflict resolution', '', '40 → 31'],
    ]);
    expect(f.callsTo('stock.history')).toContainEqual({ userProductId: id(0), type: 'seller_warehouse', storeId: '64712', limit: 50 });
  });

  it('filters by store and state, and the empty result offers to clear the filters', async () => {
    const f = fakeStockroom();
    const { user } = renderStock(f);
    await screen.findByRole('grid');
    await runStockAction(user, 'Store');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Store' }), '64713');
    await waitFor(() => expect(f.callsTo('stock.grid')).toContainEqual({ store: '64713', limit: PAGE_SIZE, offset: 0 }));
    // One store: its column only.
    await waitFor(() => expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Product', 'Depósito Avellanedastore 64713', 'Total']));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'conflict');
    await screen.findByText('No product matches these filters.');
    const before = f.calls.length;
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() =>
      expect(
        f.calls
          .slice(before)
          .filter((c) => c.channel === 'stock.grid')
          .map((c) => c.payload),
      ).toContainEqual({ limit: PAGE_SIZE, offset: 0 }),
    );
    await runStockAction(user, 'Low stock');
    await waitFor(() => expect(f.callsTo('stock.grid')).toContainEqual({ lowStock: 5, limit: PAGE_SIZE, offset: 0 }));
  });

  it('shows loading, then an error in words with a retry', async () => {
    const f = fakeStockroom();
    f.answers['stock.grid'] = () => ({ ok: false, error: { code: 'busy', message: 'The data is not open' } });
    const { user } = renderStock(f);
    await screen.findByText('The stock could not be loaded: The data is not open');
    delete f.answers['stock.grid'];
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('grid');
  });

  it('rows whose page is not read yet show one "loading" cell, not a row of empty cells; the focused row keeps its cells', async () => {
    const f = fakeStockroom(sampleRows(PAGE_SIZE * 4));
    const first = f.answers['stock.grid'];
    // Only the first page ever arrives (the others stay "loading").
    f.answers['stock.grid'] = (payload) => {
      const offset = (payload as { offset?: number }).offset ?? 0;
      if (offset === 0)
        return first ? first(payload) : { ok: true, value: { total: f.rows.length, columns: f.columns, rows: structuredClone(f.rows.slice(0, PAGE_SIZE)) } };
      return { ok: false, error: { code: 'busy', message: 'not now', status: 503 } };
    };
    const { user } = renderStock(f);
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 0:/ }));
    const grid = screen.getByRole('grid');
    await act(async () => {
      grid.scrollTop = 120 * ROW_HEIGHT;
      grid.dispatchEvent(new Event('scroll'));
    });
    const rowAt = (n: number) => screen.getAllByRole('row').find((r) => r.getAttribute('aria-rowindex') === String(n + 2));
    await waitFor(() => expect(rowAt(121)).toBeTruthy());
    const waiting = rowAt(121)!;
    expect(within(waiting).getByRole('rowheader').textContent).toBe('Loading rows…');
    expect(within(waiting).queryAllByRole('gridcell')).toHaveLength(0);
    // The focused row, far above, is still rendered with its cells, and still holds the focus.
    expect(within(rowAt(0)!).getAllByRole('gridcell').length).toBeGreaterThan(1);
    expect(focused().getAttribute('aria-label')).toMatch(/^Depósito Palermo, Producto 0:/);
  });

  it('the status bar shows import progress, and its conflicts count is a button', async () => {
    let shown = 0;
    const status = syncStatus({ pending: 2, blocked: 1, conflicts: 1 });
    render(<StatusBar status={status} i18n={i18nFor('en')} onShowConflicts={() => shown++} activity={{ label: 'importing 3/10', done: 3, total: 10 }} />);
    await userEvent.setup().click(screen.getByRole('button', { name: /1 conflict/ }));
    expect(shown).toBe(1);
    // An edit held behind the conflict is told apart from what will be sent on its own.
    expect(screen.getByText('2 pending')).toBeTruthy();
    expect(screen.getByText('1 waiting for you')).toBeTruthy();
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('value')).toBe('3');
    expect(screen.getByText(/importing 3\/10/)).toBeTruthy();
  });

  it('the status bar tells edits of unknown outcome apart from refused ones, in words', async () => {
    let shown = 0;
    render(<StatusBar status={syncStatus({ failed: 1, unknown: 2 })} i18n={i18nFor('en')} onShowFailed={() => shown++} />);
    expect(screen.getByText('1 failed')).toBeTruthy();
    const unknown = screen.getByRole('button', { name: /2 outcomes unknown/ });
    expect(unknown.getAttribute('title')).toMatch(/may already have them/);
    await userEvent.setup().click(unknown);
    expect(shown).toBe(1);
  });

  it('showConflicts filters the grid to conflicts', async () => {
    const { f, store, user } = renderStock();
    await screen.findByRole('grid');
    await act(async () => store.getState().showConflicts());
    await waitFor(() => expect(f.callsTo('stock.grid')).toContainEqual({ filter: 'conflict', limit: PAGE_SIZE, offset: 0 }));
    await runStockAction(user, 'Show');
    expect((screen.getByRole('combobox', { name: 'Show' }) as HTMLSelectElement).value).toBe('conflict');
  });

  it('reads a changed page again when the core says the stock changed', async () => {
    const { f } = renderStock();
    await screen.findByRole('grid');
    f.rows[0]!.cells['64712'] = { ...f.rows[0]!.cells['64712']!, shown: 99 };
    await act(async () => f.emit({ type: 'stock.changed', userProductIds: [id(0)] }));
    await waitFor(() => expect(cellOf('Depósito Palermo', 'Producto 0').textContent).toBe('99'));
  });
});

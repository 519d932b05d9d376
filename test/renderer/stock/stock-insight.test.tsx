// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GridRowView, StockInsightView } from '../../../common/contract/contract.js';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { ok } from '../../support/fake-api.js';
import { fakeStockroom, giveGridASize, id, sampleRows } from '../../support/fake-stock.js';

beforeAll(() => giveGridASize());
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => cleanup());

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 25, 12);

function renderStock(f = fakeStockroom()) {
  const store = createStockStore(f.api);
  render(<StockTab store={store} />);
  return { store, f, user: userEvent.setup() };
}
const cellOf = (column: string, product: string) => screen.getByRole('gridcell', { name: new RegExp(`^${column}, ${product}:`) });
/** A toggle of the toolbar's View menu (the History panel, Days of cover). */
async function viewToggle(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(screen.getByRole('button', { name: 'View' }));
  await user.click(await screen.findByRole('menuitemcheckbox', { name: new RegExp(`^${name}`) }));
}

describe('the history panel’s chart (plain SVG)', () => {
  it('is an image named by its title, described in words, with a legend and every figure in tables', async () => {
    const f = fakeStockroom();
    const insight: StockInsightView = {
      userProductId: id(0),
      since: NOW - 30 * DAY,
      now: NOW,
      stores: [
        {
          storeId: '64712',
          points: [
            { at: NOW - 30 * DAY, quantity: 13 },
            { at: NOW - 10 * DAY, quantity: 20 },
          ],
        },
        { storeId: '64713', points: [] },
      ],
      // 2 sold 8 days ago, 3 yesterday.
      sales: Array.from({ length: 30 }, (_, i) => ({ day: new Date(NOW - (29 - i) * DAY).toISOString().slice(0, 10), units: i === 28 ? 3 : i === 20 ? 2 : 0 })),
    };
    f.answers['stock.insight'] = () => ok(insight);
    const { user } = renderStock(f);
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 0:/ }));
    await viewToggle(user, 'History');
    const chart = await screen.findByRole('img', { name: 'Stock per store of Producto 0' });
    // The line ends where the grid stands now (Palermo shows 0, Avellaneda 10 in the sample rows).
    expect(chart.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(chart.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Lines: stock per store over the last 30 days (Depósito Palermo from 13 to 0; Depósito Avellaneda from 10 to 10). Bars: units sold per day, 5 in all.',
    );
    expect([...chart.querySelectorAll('path.chart-line')].map((p) => p.getAttribute('data-store'))).toEqual(['64712', '64713']);
    expect(chart.querySelectorAll('rect.chart-bar')).toHaveLength(2);
    const section = screen.getByRole('region', { name: 'Stock and sales, last 30 days' });
    expect(
      within(section)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.trim()),
    ).toEqual(['Depósito Palermo', 'Depósito Avellaneda', 'Units sold per day']);

    await user.click(within(section).getByText('Show as a table'));
    const stockTable = within(section).getByRole('table', { name: 'Stock per store of Producto 0' });
    const rows = within(stockTable)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent));
    expect(rows.map((r) => [r[1], r[2]])).toEqual([
      ['Depósito Palermo', '13'],
      ['Depósito Palermo', '20'],
      ['Depósito Palermo', '0'],
      ['Depósito Avellaneda', '10'],
      ['Depósito Avellaneda', '10'],
    ]);
    expect(rows.at(-1)![0]).toBe('now');
    const sales = within(section).getByRole('table', { name: 'Units sold per day' });
    expect(
      within(sales)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.querySelectorAll('td')[1]!.textContent),
    ).toEqual(['2', '3']);
    expect(f.callsTo('stock.insight')[0]).toMatchObject({ userProductId: id(0), days: 30 });
  });

  it('says when nothing sold', async () => {
    const f = fakeStockroom();
    f.answers['stock.insight'] = () =>
      ok({
        userProductId: id(0),
        since: NOW - 30 * DAY,
        now: NOW,
        stores: [{ storeId: '64712', points: [] }],
        sales: Array.from({ length: 30 }, (_, i) => ({ day: new Date(NOW - (29 - i) * DAY).toISOString().slice(0, 10), units: 0 })),
      } satisfies StockInsightView);
    const { user } = renderStock(f);
    await user.click(await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 0:/ }));
    await viewToggle(user, 'History');
    await screen.findByRole('img', { name: 'Stock per store of Producto 0' });
    expect(screen.getByText('No sales in the last 30 days.')).toBeTruthy();
  });
});

describe('days of cover in the grid', () => {
  it('is off until toggled; then each store cell shows its days with a colour scale and says them in its name; views keep it', async () => {
    const f = fakeStockroom(sampleRows(3));
    const covers: Record<string, Record<string, number | null>> = {
      [id(0)]: { '64712': 3.5, '64713': 14 },
      [id(1)]: { '64712': null, '64713': 30 },
      [id(2)]: {},
    };
    f.answers['stock.grid'] = (payload) => {
      const p = payload as { cover?: boolean; offset?: number; limit?: number };
      const rows: GridRowView[] = f.rows
        .slice(p.offset ?? 0, (p.offset ?? 0) + (p.limit ?? 100))
        .map((r) => (p.cover ? { ...r, cover: covers[r.userProductId]! } : r));
      return ok({ total: f.rows.length, columns: f.columns, rows: structuredClone(rows) });
    };
    const { user } = renderStock(f);
    await screen.findByRole('grid');
    expect(cellOf('Depósito Palermo', 'Producto 0').getAttribute('data-cover')).toBeNull();
    expect(cellOf('Depósito Palermo', 'Producto 0').getAttribute('aria-label')).not.toContain('cover');

    await viewToggle(user, 'Days of cover');
    await waitFor(() => expect(cellOf('Depósito Palermo', 'Producto 0').getAttribute('data-cover')).toBe('short'));
    expect(f.callsTo('stock.grid').at(-1)).toEqual({ cover: true, limit: 50, offset: 0 });
    const short = cellOf('Depósito Palermo', 'Producto 0');
    expect(short.getAttribute('aria-label')).toContain('3.5 days of cover (under a week)');
    expect(short.querySelector('.cell-cover')!.textContent).toBe('3.5 d');
    const low = cellOf('Depósito Avellaneda', 'Producto 0');
    expect(low.getAttribute('data-cover')).toBe('low');
    expect(low.getAttribute('aria-label')).toContain('14 days of cover (under three weeks)');
    const none = cellOf('Depósito Palermo', 'Producto 1');
    expect(none.getAttribute('data-cover')).toBe('none');
    expect(none.getAttribute('aria-label')).toContain('no sales in the last 30 days');
    expect(none.querySelector('.cell-cover')!.textContent).toBe('no sales');
    const enough = cellOf('Depósito Avellaneda', 'Producto 1');
    expect(enough.getAttribute('data-cover')).toBe('ok');
    expect(enough.getAttribute('aria-label')).toContain('30 days of cover');
    // Only store cells have a figure: the platform's and the selling address's show none.
    expect(document.querySelectorAll('[role="gridcell"][data-cover]')).toHaveLength(4);

    // Saved views are in the View options panel (View › Saved views).
    await user.click(screen.getByRole('button', { name: 'View' }));
    await user.click(await screen.findByRole('menuitem', { name: /^Saved views/ }));
    await user.type(await screen.findByRole('textbox', { name: 'Name of the view' }), 'Cover');
    await user.click(screen.getByRole('button', { name: 'Save view' }));
    await waitFor(() => expect(f.callsTo('stock.saveView')).toHaveLength(1));
    expect(f.callsTo('stock.saveView')[0]).toMatchObject({ name: 'Cover', query: { cover: true } });

    await user.keyboard('{Escape}');
    await viewToggle(user, 'Days of cover');
    await waitFor(() => expect(cellOf('Depósito Palermo', 'Producto 0').getAttribute('data-cover')).toBeNull());
  });
});

// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CountReviewView, CountSessionView } from '../../../../common/contract/contract.js';
import { useI18nStore } from '../../../../renderer/i18n/index.js';
import { CountStoreContext } from '../../../../renderer/stock/count/context.js';
import type { Beep } from '../../../../renderer/stock/count/sound.js';
import { createCountStore } from '../../../../renderer/stock/count/store.js';
import { StockTab, createStockStore } from '../../../../renderer/stock/StockTab.js';
import { ok } from '../../../support/fake-api.js';
import { fakeStockroom, giveGridASize } from '../../../support/fake-stock.js';
import { fakeTally } from '../../../support/fake-tally.js';

beforeAll(() => giveGridASize());
beforeEach(() => {
  // The mute toggle is kept in the window's storage: each test starts with sound on.
  localStorage.clear();
  act(() => useI18nStore.getState().setLanguage('en'));
});
afterEach(() => cleanup());

function renderCount(f = fakeStockroom(), tally = fakeTally(f)) {
  const sounds: Beep[] = [];
  const count = createCountStore(f.api, { sound: (k) => sounds.push(k) });
  const store = createStockStore(f.api);
  render(
    <CountStoreContext.Provider value={count}>
      <StockTab store={store} />
    </CountStoreContext.Provider>,
  );
  return { f, tally, count, sounds, user: userEvent.setup() };
}

const status = () => document.querySelector('.count-status')!.textContent;
const scanLines = () =>
  within(screen.getByRole('list', { name: 'Scans of this session' }))
    .queryAllByRole('listitem')
    .map((li) => li.textContent);

describe('scan-count mode', () => {
  it('tallies the scans per product (unknown codes kept, flagged), undoes the last, and applies one adjustment per product', async () => {
    const { f, tally, sounds, user } = renderCount();
    await screen.findByRole('grid', { name: 'Stock per store' });
    await user.click(screen.getByRole('button', { name: 'Count' }));
    const box = await screen.findByLabelText('Scan or type a code, then Enter');
    expect(document.activeElement).toBe(box);
    // Two stores: nothing is counted until one is chosen on purpose.
    await user.type(box, 'MLA1400000001{Enter}');
    await waitFor(() => expect(status()).toContain('Choose the store to count first.'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Store' }), 'Depósito Palermo');

    await user.click(box);
    await user.type(box, 'MLA1400000001{Enter}MLA1400000001{Enter}MLAU100000002{Enter}');
    await waitFor(() => expect(status()).toBe('+1 Producto 1: 1 in this count.'));
    // One line per product, oldest first (the list numbers them 1, 2, …); kept by the core per scan, nothing applied before Apply.
    expect(scanLines()).toEqual(['2 units (2 scans) Producto 0 MLA1400000001', '1 unit (1 scan) Producto 1 MLAU100000002']);
    expect(f.callsTo('tally.add')).toEqual([
      { storeId: '64712', code: 'MLA1400000001', quantity: 1 },
      { storeId: '64712', code: 'MLA1400000001', quantity: 1 },
      { storeId: '64712', code: 'MLAU100000002', quantity: 1 },
    ]);
    expect(tally.applied).toEqual([]);
    expect(document.querySelector('.count-status')!.getAttribute('role')).toBe('status');
    expect(sounds.filter((s) => s === 'ok')).toHaveLength(3);
    expect(document.activeElement).toBe(box);

    // Unknown: its own sound and words, kept in the list flagged, never applied.
    await user.type(box, 'NOPE00000{Enter}');
    await waitFor(() => expect(status()).toBe('! Nothing matches the code NOPE00000. Nothing was changed.'));
    expect(sounds.at(-1)).toBe('error');
    expect(scanLines()[2]).toBe('1 unit (1 scan) NOPE00000 NOPE00000 Unknown code: not counted');

    // Undo takes the newest scan out (the unknown one), then the one before.
    await user.click(screen.getByRole('button', { name: 'Undo last scan' }));
    await waitFor(() => expect(scanLines()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Undo last scan' }));
    await waitFor(() => expect(status()).toBe('Scan taken out: 1 Producto 1.'));
    expect(scanLines()).toEqual(['2 units (2 scans) Producto 0 MLA1400000001']);
    expect(sounds.at(-1)).toBe('undo');
    expect(document.activeElement).toBe(box);

    // Units per scan typed once; muted: no sound.
    const perScan = screen.getByRole('spinbutton', { name: 'Units per scan' });
    await user.clear(perScan);
    await user.type(perScan, '6{Enter}');
    expect(document.activeElement).toBe(box);
    await user.click(screen.getByRole('checkbox', { name: 'Sound' }));
    const heard = sounds.length;
    await user.click(box);
    await user.type(box, 'MLA1400000003{Enter}');
    await waitFor(() => expect(status()).toBe('+6 Producto 2: 6 in this count.'));
    expect(sounds).toHaveLength(heard);
    expect(screen.getByText('2 products, 8 units')).toBeTruthy();

    // Apply: one adjustment per product with its total, and the list starts again.
    await user.click(screen.getByRole('button', { name: 'Apply 8 units to Depósito Palermo' }));
    await waitFor(() => expect(status()).toBe('Applied: 2 products, 8 units.'));
    expect(f.callsTo('tally.apply')).toEqual([{ storeId: '64712' }]);
    expect(tally.applied).toEqual([
      { userProductId: 'MLAU100000001', storeId: '64712', delta: 2, ref: 'scan MLA1400000001 x2' },
      { userProductId: 'MLAU100000003', storeId: '64712', delta: 6, ref: 'scan MLA1400000003 x1' },
    ]);
    expect(scanLines()).toEqual([]);
  });

  it('a product stocked only at another store has its own sound and flag, and is not applied', async () => {
    const f = fakeStockroom();
    // Producto 4 has no cell at Depósito Palermo, only at Avellaneda.
    const row = f.rows[4]!;
    const { ['64712']: _palermo, ...rest } = row.cells;
    row.cells = rest;
    const { sounds, user } = renderCount(f);
    await screen.findByRole('grid', { name: 'Stock per store' });
    await user.click(screen.getByRole('button', { name: 'Count' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Store' }), 'Depósito Palermo');
    const box = screen.getByLabelText('Scan or type a code, then Enter');
    await user.click(box);
    await user.type(box, 'MLA1400000005{Enter}');
    await waitFor(() => expect(status()).toBe('! Producto 4 is stocked at another store, not this one: not counted.'));
    expect(sounds).toEqual(['other']);
    expect(scanLines()).toEqual(["1 unit (1 scan) Producto 4 MLA1400000005 Another store's product: not counted"]);
    expect(screen.getByRole('button', { name: 'Nothing to apply' })).toHaveProperty('disabled', true);
  });

  it('the scan station: full screen with the store, the product and its big running count; undo; Esc leaves', async () => {
    const { tally, sounds, user } = renderCount();
    await screen.findByRole('grid', { name: 'Stock per store' });
    await user.click(screen.getByRole('button', { name: 'Count' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Store' }), 'Depósito Avellaneda');
    await user.click(screen.getByRole('button', { name: 'Scan station (full screen)' }));
    const station = await screen.findByRole('dialog', { name: 'Counting into Depósito Avellaneda' });
    const box = within(station).getByLabelText('Scan or type a code, then Enter');
    expect(document.activeElement).toBe(box);
    await user.type(box, 'MLA1400000002{Enter}MLA1400000002{Enter}MLA1400000002{Enter}');
    await waitFor(() => expect(within(station).getByLabelText('3 units counted').textContent).toBe('3'));
    expect(within(station).getByText('Producto 1')).toBeTruthy();
    expect(within(station).getByText('Counted')).toBeTruthy();
    expect(station.querySelector('.station-last')!.getAttribute('data-outcome')).toBe('ok');
    // The words are read out too (the colour is not the only signal).
    expect(within(station).getByRole('status').textContent).toBe('+1 Producto 1: 3 in this count.');

    await user.type(box, 'NOPE00000{Enter}');
    await waitFor(() => expect(station.querySelector('.station-last')!.getAttribute('data-outcome')).toBe('unknown'));
    expect(within(station).getByText('Unknown code: not counted')).toBeTruthy();
    expect(sounds).toEqual(['ok', 'ok', 'ok', 'error']);

    await user.click(within(station).getByRole('button', { name: 'Undo last scan' }));
    await user.click(within(station).getByRole('button', { name: 'Undo last scan' }));
    await waitFor(() => expect(within(station).getByLabelText('2 units counted').textContent).toBe('2'));
    expect(document.activeElement).toBe(box);
    expect(tally.applied).toEqual([]);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Back in the Count area (not the grid), the tally kept.
    expect(scanLines()).toEqual(['2 units (2 scans) Producto 1 MLA1400000002']);
  });

  it('a window opened again (a reload) shows the tally the core kept, in the list and the station', async () => {
    const f = fakeStockroom();
    const tally = fakeTally(f);
    f.scanStore = '64712';
    expect((await f.api.tally.add({ storeId: '64712', code: 'MLA1400000002', quantity: 3 })).ok).toBe(true);
    expect((await f.api.tally.add({ storeId: '64712', code: 'MLA1400000002', quantity: 3 })).ok).toBe(true);
    // A new store of the screens over the same core: what a reload starts with.
    const { user } = renderCount(f, tally);
    await screen.findByRole('grid', { name: 'Stock per store' });
    await user.click(screen.getByRole('button', { name: 'Count' }));
    await waitFor(() => expect(scanLines()).toEqual(['6 units (2 scans) Producto 1 MLA1400000002']));
    expect(screen.getByRole('button', { name: 'Apply 6 units to Depósito Palermo' })).toHaveProperty('disabled', false);
    await user.click(screen.getByRole('button', { name: 'Scan station (full screen)' }));
    const station = await screen.findByRole('dialog', { name: 'Counting into Depósito Palermo' });
    expect(within(station).getByLabelText('6 units counted').textContent).toBe('6');
    expect(within(station).getByText('Producto 1')).toBeTruthy();
  });

  it('a refused Apply applies nothing and keeps the tally, saying why', async () => {
    const f = fakeStockroom();
    const tally = fakeTally(f);
    tally.refuse = 'MLAU100000002';
    const { user } = renderCount(f, tally);
    await screen.findByRole('grid', { name: 'Stock per store' });
    await user.click(screen.getByRole('button', { name: 'Count' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Store' }), 'Depósito Palermo');
    const box = screen.getByLabelText('Scan or type a code, then Enter');
    await user.click(box);
    await user.type(box, 'MLA1400000001{Enter}MLA1400000002{Enter}');
    await waitFor(() => expect(scanLines()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Apply 2 units to Depósito Palermo' }));
    await waitFor(() => expect(status()).toContain('Nothing was applied; the tally is kept.'));
    expect(tally.applied).toEqual([]);
    expect(scanLines()).toEqual(['1 unit (1 scan) Producto 0 MLA1400000001', '1 unit (1 scan) Producto 1 MLA1400000002']);
  });

  it('closes back to the grid with Escape and opens again with Alt+Shift+C', async () => {
    const { user } = renderCount();
    await screen.findByRole('grid', { name: 'Stock per store' });
    await user.keyboard('{Alt>}{Shift>}C{/Shift}{/Alt}');
    const box = await screen.findByLabelText('Scan or type a code, then Enter');
    expect(document.activeElement).toBe(box);
    await user.keyboard('{Escape}');
    await screen.findByRole('grid', { name: 'Stock per store' });
    expect(screen.queryByLabelText('Scan or type a code, then Enter')).toBeNull();
  });
});

describe('count sessions', () => {
  it('a blind session hides the expected column; the review shows the variances before Apply', async () => {
    const f = fakeStockroom();
    const session: CountSessionView = {
      id: 3,
      storeId: '64712',
      storeLabel: 'Depósito Palermo',
      filter: null,
      blind: true,
      state: 'open',
      author: 'me',
      createdAt: 0,
      updatedAt: 0,
      appliedAt: null,
      lines: 1,
      counted: 0,
    };
    let counted: number | null = null;
    const review = (): CountReviewView => ({
      session: { ...session, counted: counted === null ? 0 : 1 },
      lines:
        counted === null
          ? []
          : [
              {
                userProductId: 'MLAU100000001',
                title: 'Producto 0',
                counted,
                expected: 4,
                difference: counted - 4,
                current: 4,
                before: null,
                moved: false,
                outcome: null,
                result: null,
              },
            ],
      uncounted: counted === null ? 1 : 0,
      totals: { over: 0, under: 1, matched: 0, moved: 0 },
    });
    f.on({
      counts: {
        list: () => ok([session]),
        start: () => ok(session),
        get: () =>
          ok({
            session,
            total: 1,
            lines: [{ userProductId: 'MLAU100000001', title: 'Producto 0', position: 0, counted, expected: null, countedAt: null, outcome: null }],
          }),
        set: (p) => {
          counted = p.counted;
          return ok({ userProductId: 'MLAU100000001', title: 'Producto 0', position: 0, counted, expected: null, countedAt: 1, outcome: null });
        },
        review: () => ok(review()),
        apply: () => ok(review()),
      },
    });
    const { user } = renderCount(f);
    await screen.findByRole('grid', { name: 'Stock per store' });
    await user.click(screen.getByRole('button', { name: 'Count' }));
    await user.click(screen.getByRole('tab', { name: 'Count sessions' }));
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Store' }), 'Depósito Palermo');
    await user.click(screen.getByRole('checkbox', { name: 'Blind count (hide the expected quantities)' }));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(f.callsTo('counts.start')).toEqual([{ storeId: '64712', blind: true }]);
    const table = await screen.findByRole('table', { name: 'Products to count in Depósito Palermo' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Product', 'Counted']);
    await user.type(screen.getByRole('textbox', { name: 'Counted: Producto 0' }), '3{Enter}');
    await waitFor(() => expect(f.callsTo('counts.set')).toEqual([{ sessionId: 3, userProductId: 'MLAU100000001', counted: 3 }]));
    await user.click(screen.getByRole('button', { name: 'Review the differences' }));
    const variances = await screen.findByRole('table', { name: 'Counted, expected and difference' });
    expect(within(variances).getAllByRole('row')[1]!.textContent).toBe('Producto 0'.concat('3', '4', '-1'));
    expect(f.callsTo('counts.apply')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Apply 1 difference' }));
    await waitFor(() => expect(f.callsTo('counts.apply')).toEqual([{ sessionId: 3 }]));
  });
});

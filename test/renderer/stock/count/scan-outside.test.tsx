// @vitest-environment jsdom
/**
 * A count session's scan of a product the session does not list (issue 27): nothing is counted
 * until the person chooses "Add … and count it" (the scan again, with addOutside) or "Leave it out".
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CountLineView, CountSessionView } from '../../../../common/contract/contract.js';
import { useI18nStore } from '../../../../renderer/i18n/index.js';
import { CountStoreContext } from '../../../../renderer/stock/count/context.js';
import type { Beep } from '../../../../renderer/stock/count/sound.js';
import { createCountStore } from '../../../../renderer/stock/count/store.js';
import { StockTab, createStockStore } from '../../../../renderer/stock/StockTab.js';
import { ok } from '../../../support/fake-api.js';
import { fakeStockroom, giveGridASize } from '../../../support/fake-stock.js';

beforeAll(() => giveGridASize());
beforeEach(() => {
  localStorage.clear();
  act(() => useI18nStore.getState().setLanguage('en'));
});
afterEach(() => cleanup());

const session: CountSessionView = {
  id: 5,
  storeId: '64712',
  storeLabel: 'Depósito Palermo',
  filter: { search: 'Producto 0' },
  blind: false,
  state: 'open',
  author: 'me',
  createdAt: 0,
  updatedAt: 0,
  appliedAt: null,
  lines: 1,
  counted: 0,
};

/** A session of one listed product; Producto 3 is kept elsewhere, Producto 4 is left out by the filter. */
function sessionFake() {
  const f = fakeStockroom();
  const lines: CountLineView[] = [
    { userProductId: 'MLAU100000000', title: 'Producto 0', position: 0, counted: null, expected: 4, countedAt: null, outcome: null },
  ];
  const outside: Record<string, { userProductId: string; title: string; why: 'not_in_store' | 'filtered_out' }> = {
    MLAU100000003: { userProductId: 'MLAU100000003', title: 'Producto 3', why: 'not_in_store' },
    MLAU100000004: { userProductId: 'MLAU100000004', title: 'Producto 4', why: 'filtered_out' },
  };
  const page = () => ok({ session: { ...session, lines: lines.length, counted: lines.filter((l) => l.counted !== null).length }, total: lines.length, lines });
  f.on({
    counts: {
      list: () => ok([session]),
      start: () => ok(session),
      get: () => page(),
      scan: (p) => {
        let line = lines.find((l) => l.userProductId === p.code);
        const away = outside[p.code];
        if (!line && away && !p.addOutside) return ok({ outside: away });
        if (!line && away) {
          line = { userProductId: away.userProductId, title: away.title, position: lines.length, counted: null, expected: 0, countedAt: null, outcome: null };
          lines.push(line);
        }
        if (!line) return { ok: false, error: { code: 'not_found', message: 'no such code', status: 404 } };
        const previous = line.counted;
        line.counted = (line.counted ?? 0) + (p.quantity ?? 1);
        return ok({ line: { ...line }, added: previous === null && line.position > 0, previous });
      },
    },
  });
  return { f, lines };
}

async function startSession(f: ReturnType<typeof fakeStockroom>) {
  const count = createCountStore(f.api, { sound: (_k: Beep) => undefined });
  const store = createStockStore(f.api);
  render(
    <CountStoreContext.Provider value={count}>
      <StockTab store={store} />
    </CountStoreContext.Provider>,
  );
  const user = userEvent.setup();
  await screen.findByRole('grid', { name: 'Stock per store' });
  await user.click(screen.getByRole('button', { name: 'Count' }));
  await user.click(screen.getByRole('tab', { name: 'Count sessions' }));
  await user.selectOptions(await screen.findByRole('combobox', { name: 'Store' }), 'Depósito Palermo');
  await user.click(screen.getByRole('button', { name: 'Start' }));
  await screen.findByRole('table', { name: 'Products to count in Depósito Palermo' });
  const box = document.getElementById('count-session-scan');
  if (!(box instanceof HTMLInputElement)) throw new Error('no scan box in the session');
  return { user, box };
}

const status = () => document.querySelector('.count-session .count-status')!.textContent;

describe('a scan outside the count session', () => {
  it('counts nothing until "Add … and count it", which scans it again with addOutside and counts it', async () => {
    const { f, lines } = sessionFake();
    const { user, box } = await startSession(f);
    await user.type(box, 'MLAU100000003{Enter}');
    const choice = await screen.findByRole('group', { name: 'A product outside this count' });
    expect(status()).toBe("! Producto 3 is not kept in this count's store. Nothing was counted: add it to this count?");
    expect(f.callsTo('counts.scan')).toEqual([{ sessionId: 5, code: 'MLAU100000003', quantity: 1 }]);
    expect(lines.map((l) => l.userProductId)).toEqual(['MLAU100000000']);

    await user.click(screen.getByRole('button', { name: 'Add Producto 3 and count it' }));
    await waitFor(() => expect(status()).toBe('Producto 3: 1 counted.'));
    expect(f.callsTo('counts.scan')[1]).toEqual({ sessionId: 5, code: 'MLAU100000003', quantity: 1, addOutside: true });
    expect(lines.find((l) => l.userProductId === 'MLAU100000003')?.counted).toBe(1);
    expect(choice.isConnected).toBe(false);
    // Focus is back in the scan box for the next scan.
    expect(document.activeElement).toBe(box);
  });

  it('"Leave it out" counts nothing, says so, and a later scan of a listed product counts as usual', async () => {
    const { f, lines } = sessionFake();
    const { user, box } = await startSession(f);
    await user.type(box, 'MLAU100000004{Enter}');
    await screen.findByRole('group', { name: 'A product outside this count' });
    expect(status()).toBe("! Producto 4 is outside this count's filter. Nothing was counted: add it to this count?");

    await user.click(screen.getByRole('button', { name: 'Leave it out' }));
    await waitFor(() => expect(status()).toBe('Producto 4 left out of this count.'));
    expect(screen.queryByRole('group', { name: 'A product outside this count' })).toBeNull();
    expect(f.callsTo('counts.scan')).toEqual([{ sessionId: 5, code: 'MLAU100000004', quantity: 1 }]);
    expect(lines.map((l) => [l.userProductId, l.counted])).toEqual([['MLAU100000000', null]]);
    expect(document.activeElement).toBe(box);

    await user.type(box, 'MLAU100000000{Enter}');
    await waitFor(() => expect(status()).toBe('Producto 0: 1 counted.'));
    expect(lines.map((l) => [l.userProductId, l.counted])).toEqual([['MLAU100000000', 1]]);
  });
});

/**
 * Keys at a scanner's and at a person's speed in jsdom, for the stock screen's component tests.
 * The keys' times are the feature (renderer/stock/scanner.ts tells a scan by them), and jsdom stamps
 * an event with Date.now(): so Date is ours. It stands still while a "scanner" types (0 ms apart)
 * and moves PERSON_GAP_MS before each key of a "person" and before a scan begins.
 */
import { act, cleanup, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { fakeStockroom, giveGridASize, sampleRows } from '../../support/fake-stock.js';

export const PERSON_GAP_MS = 150;

/** For every test of the file that calls it: a sized grid, Date faked (timers real), the screens in English. */
export function setUpKeyClock(): void {
  beforeAll(() => giveGridASize());
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    act(() => useI18nStore.getState().setLanguage('en'));
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });
}

const later = () => vi.setSystemTime(Date.now() + PERSON_GAP_MS);

/** The stock tab over `rows` sample products, with a scanner and a person at the keyboard. */
export function renderStockAtKeyboard(rows: number) {
  const f = fakeStockroom(sampleRows(rows));
  const store = createStockStore(f.api);
  render(<StockTab store={store} />);
  const user = userEvent.setup();
  return {
    f,
    store,
    user,
    /** Keys at a scanner's speed (user-event's keyboard syntax), e.g. `7790001234565{Enter}`. */
    async scan(keys: string) {
      later();
      await user.keyboard(keys);
    },
    /** Keys at a person's speed, one at a time. */
    async type(keys: string[]) {
      for (const k of keys) {
        later();
        await user.keyboard(k);
      }
    },
  };
}

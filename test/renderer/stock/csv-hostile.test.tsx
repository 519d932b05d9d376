// @vitest-environment jsdom
import userEvent from '@testing-library/user-event';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, planImport } from '../../../renderer/stock/csv.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { fakeStockroom, giveGridASize, id } from '../../support/fake-stock.js';
import { runStockAction } from '../../support/stock-actions.js';

/**
 * Hostile files on the CSV side of the import (issue 25, the class of the .xlsx bombs): a file over
 * the size cap is refused before it is read into the renderer; a row bomb stops being parsed past
 * the row limit; one huge cell is refused with its line.
 */
beforeAll(() => giveGridASize());
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => cleanup());

describe('a hostile CSV', () => {
  it('a row bomb is parsed only as far as the limit', () => {
    const lines = ['user_product_id,store,count', ...Array.from({ length: 200_000 }, (_, i) => `${id(i % 5)},64712,${i}`)];
    expect(planImport(lines.join('\n'))).toEqual({ error: { key: 'csv.err.tooMany', vars: { max: MAX_IMPORT_ROWS } } });
  });

  it('one cell longer than 10,000 characters is refused with its line', () => {
    const text = ['user_product_id,store,count', `${id(0)},64712,1`, `${id(1)},${'x'.repeat(2_000_000)},2`].join('\n');
    expect(planImport(text)).toEqual({ error: { key: 'csv.err.cellTooLong', vars: { line: 3, max: 10_000 } } });
  });

  it('a file over 20 MB is refused before it is read, CSV or .xlsx', async () => {
    const f = fakeStockroom();
    const store = createStockStore(f.api);
    const user = userEvent.setup();
    render(<StockTab store={store} />);
    await screen.findByRole('grid');
    await runStockAction(user, 'Import CSV / Excel');
    const dialog = screen.getByRole('dialog', { name: 'Import counts or adjustments' });
    for (const name of ['big.csv', 'big.xlsx']) {
      const file = new File([new Uint8Array(MAX_IMPORT_BYTES + 1)], name);
      // Reading it would be the failure: the dialog must refuse from its size alone.
      file.text = () => Promise.reject(new Error('read'));
      file.arrayBuffer = () => Promise.reject(new Error('read'));
      await user.upload(within(dialog).getByLabelText('Choose a CSV or .xlsx file'), file);
      await within(dialog).findByText('The file is bigger than 20 MB.');
    }
    expect(f.callsTo('stock.readWorkbook')).toEqual([]);
  });
});

// @vitest-environment jsdom
import { createHash } from 'node:crypto';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { fakeStockroom, giveGridASize, id } from '../../support/fake-stock.js';
import { runStockAction } from '../../support/stock-actions.js';

beforeAll(() => giveGridASize());
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => cleanup());

const text = `user_product_id,store,count\n${id(0)},64712,40\n${id(1)},64713,7`;

/**
 * Import's Apply (issue 27): the file's digest goes with it; a file the core says was applied
 * before is asked about (when, by whom) and applied again only on the person's word; focus stays in
 * the dialog through Apply, and Esc still closes it.
 */
describe('Import: a file applied before, and focus through Apply', () => {
  it('sends the file digest, asks before applying it again, keeps focus in the dialog and closes on Esc', async () => {
    const f = fakeStockroom();
    const applyOnce = f.api.stock.importApply;
    let calls = 0;
    // The core's answer to a file it has a fingerprint of (main/desktop/import.ts), for the first call.
    f.answers['stock.importApply'] = async (payload) => {
      if (calls++ > 0) {
        delete f.answers['stock.importApply'];
        return applyOnce(payload as Parameters<typeof applyOnce>[0]);
      }
      return {
        ok: false,
        error: {
          code: 'conflict',
          status: 409,
          message: 'conteo.csv was already applied',
          cause: [{ code: 'imported_before', name: 'conteo.csv', appliedAt: Date.UTC(2026, 10, 20, 15, 0), author: 'vendedor', operator: 'Ana', changes: 2 }],
        },
      };
    };
    const store = createStockStore(f.api);
    const user = userEvent.setup();
    render(<StockTab store={store} />);
    await screen.findByRole('grid');
    await runStockAction(user, 'Import CSV / Excel');
    const dialog = screen.getByRole('dialog', { name: 'Import counts or adjustments' });
    await user.upload(within(dialog).getByLabelText('Choose a CSV or .xlsx file'), new File([text], 'conteo.csv', { type: 'text/csv' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Apply 2 changes' }));

    const question = await within(dialog).findByRole('alert');
    expect(question.textContent).toMatch(/^conteo\.csv was already applied on .+ by Ana \(2 changes\)\. Nothing was applied now\./);
    // A stray Enter (a scanner's) answers nothing: focus is on the dialog, not on "Apply it again".
    expect(document.activeElement).toBe(dialog);
    expect(f.rows[0]!.cells['64712']!.shown).not.toBe(40);
    const digest = createHash('sha256').update(text).digest('hex');
    expect(f.callsTo('stock.importApply')[0]).toMatchObject({ name: 'conteo.csv', fileDigest: digest });
    expect(f.callsTo('stock.importApply')[0]).not.toHaveProperty('again');

    await user.click(within(dialog).getByRole('button', { name: 'Apply it again (2 changes)' }));
    await within(dialog).findByText('Applied 2 changes.');
    expect(f.callsTo('stock.importApply')[1]).toMatchObject({ fileDigest: digest, again: true });
    expect(f.rows[0]!.cells['64712']!.shown).toBe(40);
    // The Apply button is gone: focus went to Close, not to the page, so Esc still closes the dialog.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close' })));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

/**
 * The count report after Apply, end to end (issue 27): real headless Chromium, the browser mode's
 * server and the real core, online against a second real server playing the marketplace, on the
 * demo data. The report says what became of each line (sent, or a conflict because the cell moved
 * between the count and Apply); only the cell that really moved is flagged, on screen and in the CSV.
 */
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { waitFor } from '../support/wait.js';
import { connectAsDemoSeller, remoteMarketplaceAndApp, remoteTermoQuantity } from './support/remote.js';

const TERMO = 'Termo acero inoxidable 1L';

describe('the count report of a session applied online', () => {
  const online = remoteMarketplaceAndApp({ engine: { pollIntervalMs: 0 } });
  const cell = (storeId: string) => online.app.core.api.stock.cell({ userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId });

  async function countSession(page: Page, store: string, counted: string) {
    await page.getByRole('tab', { name: 'Count sessions' }).click();
    await page.getByRole('combobox', { name: 'Store' }).selectOption({ label: store });
    await page.getByRole('button', { name: 'Start' }).click();
    const input = page.getByRole('textbox', { name: `Counted: ${TERMO}` });
    await input.fill(counted);
    await input.press('Enter');
    await waitFor(async () => (await page.getByText(/1 of 1 product counted/).count()) > 0, 'the line counted');
  }
  const reportRow = (page: Page) => page.getByRole('table', { name: 'Counted, expected and difference' }).getByRole('row').nth(1);
  async function reportCsv(page: Page): Promise<Record<string, string>[]> {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export the report (CSV)' }).click()]);
    return Papa.parse<Record<string, string>>(readFileSync((await file.path())!, 'utf8').replace(/^\ufeff/, ''), { header: true, skipEmptyLines: true }).data;
  }

  it('an untouched cell is reported sent and not moved; only the cell another workstation changed before Apply is a conflict; the CSV agrees', async () => {
    const { page } = online.app;
    await connectAsDemoSeller(online.app, online.remote.url);
    await waitFor(async () => {
      const c = await cell(demo.stores.avellaneda);
      return c.ok && c.value.shown === 30 && c.value.state === 'synced';
    }, 'the replica pulled');
    await page.getByRole('tab', { name: 'Stock' }).click();
    await page.getByRole('button', { name: 'Count', exact: true }).click();

    // Avellaneda: 28 counted where 30 are expected; nothing moves before Apply.
    await countSession(page, 'Depósito Avellaneda', '28');
    await page.getByRole('button', { name: 'Review the differences' }).click();
    await page.getByRole('button', { name: 'Apply 1 difference' }).click();
    await page.getByRole('heading', { name: 'Count report' }).waitFor();
    await waitFor(async () => (await remoteTermoQuantity(online.remote, demo.stores.avellaneda)) === 28, 'the count on the remote');
    // Opened again once sent: the line says so, and never "changed since it was counted".
    await page.getByRole('button', { name: 'All counts' }).click();
    await page.getByRole('button', { name: /^Count \d+ · Depósito Avellaneda$/ }).click();
    await waitFor(async () => (await reportRow(page).textContent()) === `${TERMO}2830-2sent to the marketplace`, 'the sent row');
    expect(await page.getByText(/changed between/).count()).toBe(0);
    expect(await reportCsv(page)).toEqual([
      expect.objectContaining({ counted: '28', expected: '30', difference: '-2', before_apply: '30', changed_since_counted: 'no', outcome: 'sent' }),
    ]);

    // Palermo: counted 9 (12 expected), then another workstation sells one (12 → 11) and the pull brings it.
    await page.getByRole('button', { name: 'All counts' }).click();
    await countSession(page, 'Depósito Palermo', '9');
    const read = await online.remote.as(demo.seller.token).get(`/user-products/${demo.userProducts.termo}/stock`);
    const put = await online.remote
      .as(demo.seller.token)
      .put(
        `/user-products/${demo.userProducts.termo}/stock/type/seller_warehouse`,
        { locations: [{ store_id: demo.stores.palermo, quantity: 11 }] },
        { 'x-version': read.headers.get('x-version')! },
      );
    expect(put.status).toBe(200);
    expect((await online.app.core.api.sync.pullNow()).ok).toBe(true);
    await waitFor(async () => {
      const c = await cell(demo.stores.palermo);
      return c.ok && c.value.shown === 11;
    }, 'the pulled sale');
    await page.getByRole('button', { name: 'Review the differences' }).click();
    await page.getByRole('button', { name: 'Apply 1 difference' }).click();
    await waitFor(
      async () =>
        (await reportRow(page).textContent()) ===
        `${TERMO}912-3conflict: the cell changed since it was counted; resolve it in the grid · it showed 11 just before Apply`,
      'the conflict row',
    );
    await page.getByText('1 product had changed between its count and Apply: its count is a conflict to resolve.', { exact: false }).waitFor();
    expect(await reportCsv(page)).toEqual([
      expect.objectContaining({ counted: '9', expected: '12', before_apply: '11', changed_since_counted: 'yes', outcome: 'conflict' }),
    ]);
    await online.app.screenshot('count-report-conflict');
  });
});

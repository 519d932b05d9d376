/**
 * Counting end to end (issue 14 §3, §4): real headless Chromium, the browser mode's server and the
 * real desktop core. Scan-count mode on the local demo data (codes typed at scanner speed into the
 * scan box); a count session against a second real server playing the marketplace, its variances
 * reviewed and applied, checked in the cells, the outbox and on the remote.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { waitFor } from '../support/wait.js';
import { type BrowserApp, startBrowserApp } from './support/browser.js';
import { connectAsDemoSeller, remoteMarketplaceAndApp, remoteTermoQuantity } from './support/remote.js';
import { scan } from './support/scanner.js';

const TERMO = 'Termo acero inoxidable 1L';
const termoCell = (app: BrowserApp, storeId: string) => app.core.api.stock.cell({ userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId });
const shown = async (app: BrowserApp, storeId: string) => {
  const r = await termoCell(app, storeId);
  return r.ok ? r.value.shown : null;
};
const status = (page: Page) => page.locator('.count-area [role=status]').first();

describe('scan-count mode on the local demo data', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  }, 120_000);
  afterAll(() => app?.close());

  it('scans tally per product; an unknown code is kept flagged; undo takes the last out; Apply writes one adjustment', async () => {
    const { page } = app;
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    const before = await shown(app, demo.stores.palermo);
    await page.getByRole('button', { name: 'Count', exact: true }).click();
    await page.getByRole('combobox', { name: 'Store' }).selectOption({ label: 'Depósito Palermo' });
    const box = page.getByLabel('Scan or type a code, then Enter');
    await box.focus();

    for (let i = 0; i < 3; i++) await scan(page, demo.items.termo);
    const lines = page.getByRole('list', { name: 'Scans of this session' }).getByRole('listitem');
    await waitFor(async () => (await status(page).textContent()) === `+1 ${TERMO}: 3 in this count.`, 'the last confirmation');
    expect(await lines.allTextContents()).toEqual([`3 units (3 scans) ${TERMO} ${demo.items.termo}`]);
    // Nothing is written before Apply.
    expect(await shown(app, demo.stores.palermo)).toBe(before);
    expect(await page.evaluate(`document.activeElement?.id`)).toBe('count-scan-input');
    await app.screenshot('count-scan');

    await scan(page, '0000000000000');
    await waitFor(async () => (await status(page).textContent())?.includes('Nothing matches the code 0000000000000'), 'the unknown code message');
    await waitFor(async () => (await lines.count()) === 2, 'the unknown code kept in the list');
    expect(await lines.nth(1).textContent()).toContain('Unknown code: not counted');

    await page.getByRole('button', { name: 'Undo last scan' }).click();
    await page.getByRole('button', { name: 'Undo last scan' }).click();
    await waitFor(async () => (await lines.allTextContents()).join('|') === `2 units (2 scans) ${TERMO} ${demo.items.termo}`, 'two scans left');
    await waitFor(async () => (await page.evaluate(`document.activeElement?.id`)) === 'count-scan-input', 'focus back in the scan box');

    await page.getByRole('button', { name: 'Apply 2 units to Depósito Palermo' }).click();
    await waitFor(async () => (await shown(app, demo.stores.palermo)) === before! + 2, 'the applied units on the cell');
    // One history row for the product, with its total.
    const history = await app.core.api.stock.history({
      userProductId: demo.userProducts.termo,
      type: 'seller_warehouse',
      storeId: demo.stores.palermo,
      limit: 50,
    });
    expect(history.ok && history.value.filter((h) => h.ref?.startsWith('scan ')).map((h) => [h.delta, h.ref, h.reason])).toEqual([
      [2, `scan ${demo.items.termo} x2`, 'received'],
    ]);
    expect(app.errors).toEqual([]);
  });
});

describe('a count session against a remote marketplace', () => {
  const online = remoteMarketplaceAndApp({ engine: { pollIntervalMs: 0 } });

  const remoteQuantity = (storeId: string) => remoteTermoQuantity(online.remote, storeId);

  async function countSession(page: Page, store: string, counted: string) {
    await page.getByRole('tab', { name: 'Count sessions' }).click();
    await page.getByRole('combobox', { name: 'Store' }).selectOption({ label: store });
    await page.getByRole('button', { name: 'Start' }).click();
    const input = page.getByRole('textbox', { name: `Counted: ${TERMO}` });
    await input.fill(counted);
    await input.press('Enter');
    await waitFor(async () => (await page.getByText(/1 of 1 product counted/).count()) > 0, 'the line counted');
  }

  it('reviews the variances, then applies them as counts at their bases: one synced, one a conflict because the cell moved', async () => {
    const { page } = online.app;
    const api = online.app.core.api;
    await connectAsDemoSeller(online.app, online.remote.url);
    await waitFor(async () => {
      const c = await termoCell(online.app, demo.stores.avellaneda);
      return c.ok && c.value.shown === 30 && c.value.state === 'synced';
    }, 'the replica pulled');
    await page.getByRole('tab', { name: 'Stock' }).click();
    await page.getByRole('button', { name: 'Count', exact: true }).click();

    // Avellaneda: 28 counted where 30 are expected.
    await countSession(page, 'Depósito Avellaneda', '28');
    await page.getByRole('button', { name: 'Review the differences' }).click();
    const variances = page.getByRole('table', { name: 'Counted, expected and difference' });
    await waitFor(async () => (await variances.getByRole('row').nth(1).textContent()) === `${TERMO}2830-2`, 'the variance row');
    // Nothing is queued before the apply.
    const before = await api.outbox.list();
    expect(before.ok && before.value.total).toBe(0);
    await online.app.screenshot('count-review');
    await page.getByRole('button', { name: 'Apply 1 difference' }).click();
    await waitFor(async () => (await remoteQuantity(demo.stores.avellaneda)) === 28, 'the count on the remote');
    await waitFor(async () => (await termoCell(online.app, demo.stores.avellaneda)).ok && (await shown(online.app, demo.stores.avellaneda)) === 28, 'the cell');
    await page.getByRole('heading', { name: 'Count report' }).waitFor();

    // Palermo: counted 9 (12 expected), then another workstation sells one (12 → 11) and the pull brings it.
    await page.getByRole('button', { name: 'All counts' }).click();
    await countSession(page, 'Depósito Palermo', '9');
    const read = await online.remote.as(demo.seller.token).get(`/user-products/${demo.userProducts.termo}/stock`);
    const put = await online.remote.as(demo.seller.token).put(
      `/user-products/${demo.userProducts.termo}/stock/type/seller_warehouse`,
      {
        locations: [
          { store_id: demo.stores.palermo, quantity: 11 },
          { store_id: demo.stores.avellaneda, quantity: 28 },
        ],
      },
      { 'x-version': read.headers.get('x-version')! },
    );
    expect(put.status).toBe(200);
    expect((await api.sync.pullNow()).ok).toBe(true);
    await waitFor(async () => (await shown(online.app, demo.stores.palermo)) === 11, 'the pulled sale');
    await page.getByRole('button', { name: 'Review the differences' }).click();
    await waitFor(async () => (await variances.getByRole('row').nth(1).textContent()) === `${TERMO}912-3changed since counted (now 11) `, 'the moved row');
    await page.getByRole('button', { name: 'Apply 1 difference' }).click();

    // Counted against 12: the marketplace's 11 does not match, so the count waits as a conflict for the person.
    await waitFor(async () => {
      const c = await termoCell(online.app, demo.stores.palermo);
      return c.ok && c.value.state === 'conflict' ? c.value : null;
    }, 'the conflict').then((c) => expect(c.conflict).toMatchObject({ base: { quantity: 12 }, local: 9, remote: { quantity: 11 } }));
    const conflicts = await api.outbox.list({ state: 'conflict' });
    expect(conflicts.ok && conflicts.value.entries.map((e) => e.stock)).toEqual([expect.objectContaining({ op: 'count', quantity: 9 })]);
    expect(await remoteQuantity(demo.stores.palermo)).toBe(11);
    await online.app.screenshot('count-conflict');
  });
});

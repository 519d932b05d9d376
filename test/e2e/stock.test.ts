/**
 * The stock screens end to end: real headless Chromium, the browser mode's server, the real
 * desktop core and embedded service over SQLite; for the online flow a second real server plays
 * the remote marketplace. Screenshots of each screen go to test-output/screenshots/.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { waitFor } from '../support/wait.js';
import { type BrowserApp, startBrowserApp } from './support/browser.js';
import { runAction, selectInView, viewPanel } from './support/actions.js';
import { remoteMarketplaceAndApp, remoteTermoQuantity } from './support/remote.js';

const TERMO = 'Termo acero inoxidable 1L';
const cell = (page: Page, column: string, product = TERMO) => page.getByRole('gridcell', { name: new RegExp(`^${column}, ${product}:`) });
const notice = (page: Page) => page.locator('.notice-line');

describe('stock screens on the local demo data', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  }, 120_000);
  afterAll(() => app?.close());

  it('shows the grid, edits with the keyboard, says why a cell is locked, and keeps the history', async () => {
    const { page } = app;
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    await expect(cell(page, 'Depósito Palermo').getAttribute('aria-label')).resolves.toBe(`Depósito Palermo, ${TERMO}: 12, synced`);
    await app.screenshot('stock-grid');

    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.type('+5');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await cell(page, 'Depósito Palermo').getAttribute('aria-label'))?.includes(': 17, synced'), 'the adjustment on screen');
    // Enter moved down; Escape leaves an edit without a change.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.type('99');
    await page.keyboard.press('Escape');
    await expect(cell(page, 'Depósito Palermo').getAttribute('aria-label')).resolves.toContain(': 17, synced');
    await page.keyboard.type('20');
    await page.keyboard.press('Tab');
    await waitFor(async () => (await cell(page, 'Depósito Palermo').getAttribute('aria-label'))?.includes(': 20, synced'), 'the count on screen');

    // A locked cell says why (SPEC 7.3 for the selling address without inventory id).
    const bombilla = cell(page, 'Selling address', 'Bombilla alpaca');
    await expect(bombilla.textContent()).resolves.toContain('no inventory id');
    await bombilla.click();
    await page.keyboard.press('Enter');
    await waitFor(
      async () => (await notice(page).textContent())?.includes('Not editable: Selling address stock cannot be changed: the item has no inventory id.'),
      'the lock reason',
    );
    await app.screenshot('stock-locked-cell');

    // History of the termo's Palermo cell: the count and the adjustment, newest first.
    await cell(page, 'Depósito Palermo').click();
    await runAction(page, 'History');
    const panel = page.getByRole('complementary', { name: `History of Depósito Palermo, ${TERMO}` });
    await panel.getByRole('row').nth(2).waitFor();
    const rows = await panel.getByRole('row').allTextContents();
    expect(rows[1]).toMatch(/DEPOSITO_NORTE\s*count\s*17 → 20$/);
    expect(rows[2]).toMatch(/DEPOSITO_NORTE\s*adjustment \(\+5\)\s*correction\s*12 → 17$/);
    await app.screenshot('stock-history');
    await page.getByRole('button', { name: 'Hide history' }).first().click();
  });

  it('a barcode scan jumps to the row and focuses the current store cell', async () => {
    const { page } = app;
    // The store a scan goes to is chosen on purpose, not the last column touched.
    await selectInView(page, 'Scans go to', { label: 'Depósito Avellaneda' });
    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.press('Control+f');
    await page.keyboard.type('MLA1400000005');
    await page.keyboard.press('Enter');
    await waitFor(
      async () =>
        (await page.evaluate(`document.activeElement?.getAttribute('aria-label')`)) ===
        // The cell's visible words ('— selling address') come first in its name (issue 28).
        'Depósito Avellaneda, Canasta matera: — selling address, locked: This product keeps its stock at the selling address: a product has stores or a selling address, not both.',
      'focus on the scanned row',
    );
    await app.screenshot('stock-scan');
  });

  it('exports the grid as CSV, and imports counts with a preview before anything is queued', async () => {
    const { page } = app;
    const [download] = await Promise.all([page.waitForEvent('download'), runAction(page, 'Export CSV')]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe(
      '\ufeffuser_product_id,sku,title,item_ids,Depósito Palermo [64712],Depósito Avellaneda [64713],Selling address [selling_address],Platform fulfillment [platform_facility],total,Pending,Last change',
    );
    // The last column lists queued edits with their reasons (none here: the demo writes at once).
    expect(csv).toContain(`MLAU100000001,TERM-1L,${TERMO},MLA1400000001,20,30,,8,58,`);

    await runAction(page, 'Import CSV / Excel');
    const dialog = page.getByRole('dialog', { name: 'Import counts or adjustments' });
    const file = [
      'user_product_id,store,count,adjustment',
      'MLAU100000001,64713,25,',
      'MLA1400000002,selling_address,,+2',
      'MLAU100000004,selling_address,3,',
      'MLAU999,64712,1,',
    ].join('\n');
    await dialog.getByLabel('Choose a CSV or .xlsx file').setInputFiles({ name: 'conteo.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    const preview = dialog.getByRole('table', { name: 'Changes to apply' });
    await preview.waitFor();
    expect(await preview.getByRole('row').allTextContents()).toEqual([
      'LineProductStoreOldNewKind',
      `2${TERMO} MLAU100000001Depósito Avellaneda3025count`,
      '3Mate de calabaza con bombilla MLAU100000002Selling address57adjustment +2',
    ]);
    const rejected = await dialog.getByRole('table', { name: 'Rows not imported' }).getByRole('row').allTextContents();
    expect(rejected.slice(1)).toEqual([
      '4MLAU100000004selling_addressnot editable: Selling address stock cannot be changed: the item has no inventory id.',
      '5MLAU99964712unknown product MLAU999',
    ]);
    await app.screenshot('stock-import-preview');
    // Nothing changed yet.
    await expect(cell(page, 'Depósito Avellaneda').getAttribute('aria-label')).resolves.toContain(': 30, synced');
    await dialog.getByRole('button', { name: 'Apply 2 changes' }).click();
    await dialog.getByText('Applied 2 changes.', { exact: false }).first().waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await waitFor(async () => (await cell(page, 'Depósito Avellaneda').getAttribute('aria-label'))?.includes(': 25, synced'), 'the imported count');
    await waitFor(
      async () => (await cell(page, 'Selling address', 'Mate de calabaza con bombilla').getAttribute('aria-label'))?.includes(': 7, synced'),
      'the imported adjustment',
    );
  });

  it('creates a listing with stock per store, showing the errors beside the fields', async () => {
    const { page } = app;
    await runAction(page, 'New listing');
    const dialog = page.getByRole('dialog', { name: 'New listing with stock per store' });
    await dialog.getByRole('checkbox', { name: /Depósito Palermo/ }).waitFor();
    await dialog.getByRole('button', { name: 'Create listing' }).click();
    await dialog.getByText('! Type a title.').waitFor();
    await dialog.getByText('! Pick at least one store.').waitFor();
    await app.screenshot('stock-listing-errors');
    await dialog.getByLabel('Title').fill('Termo 500 ml');
    await dialog.getByLabel('Category id').fill('MLA1902');
    await dialog.getByLabel('Price').fill('19999');
    await dialog.getByRole('checkbox', { name: /Depósito Palermo/ }).check();
    await dialog.getByRole('textbox', { name: 'Quantity in Depósito Palermo' }).fill('14');
    await app.screenshot('stock-listing-form');
    await dialog.getByRole('button', { name: 'Create listing' }).click();
    await waitFor(async () => (await notice(page).textContent())?.match(/Listing MLA\d+ created/), 'the listing');
    await waitFor(async () => (await page.getByRole('grid').getAttribute('aria-rowcount')) === '7', 'the new row');
    await waitFor(async () => (await cell(page, 'Depósito Palermo', 'Termo 500 ml').getAttribute('aria-label'))?.includes(': 14, synced'), 'its stock');
    expect(app.errors).toEqual([]);
  });
});

describe('stock screens against a remote marketplace', () => {
  const online = remoteMarketplaceAndApp({ engine: { pollIntervalMs: 0 } });

  const remoteQuantity = () => remoteTermoQuantity(online.remote, demo.stores.palermo);
  const label = (page: Page) => cell(page, 'Depósito Palermo').getAttribute('aria-label');

  /** Settings → a mode, saved, then back to the Stock tab. */
  async function chooseMode(page: Page, mode: RegExp) {
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: mode }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Settings saved.').waitFor({ timeout: 20_000 });
    await page.getByRole('tab', { name: 'Stock' }).click();
  }

  it('an edit made offline is pending, then synced on the remote once online; a conflict is resolved in the dialog', async () => {
    const { page } = online.app;
    // Settings → online with the remote's base URL, a fixture token and its user id (main/desktop/settings.ts).
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('textbox', { name: 'Marketplace address' }).fill(online.remote.url);
    await page.getByRole('textbox', { name: 'Application id' }).fill(String(demo.app));
    await page.getByRole('textbox', { name: 'Your user id' }).fill(String(demo.seller.id));
    await page.getByLabel('Access token').fill(demo.seller.token);
    await page.getByRole('radio', { name: /Online/ }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Settings saved.').waitFor({ timeout: 20_000 });
    await page.getByRole('tab', { name: 'Stock' }).click();
    await waitFor(async () => (await label(page)) === `Depósito Palermo, ${TERMO}: 12, synced`, 'the replica in the grid');

    // Offline: the edit is queued and says so.
    await chooseMode(page, /^Offline/);
    await page.locator('.status-bar').getByText('Working offline').waitFor();
    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.type('+5');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await label(page)) === `Depósito Palermo, ${TERMO}: 17, queued`, 'the pending cell');
    await expect(cell(page, 'Depósito Palermo').textContent()).resolves.toBe('17~ queued');
    await page.locator('.status-bar').getByText('1 pending').waitFor();
    expect(await remoteQuantity()).toBe(12);
    await online.app.screenshot('stock-pending');

    // Online: pushed to the remote, the cell turns synced.
    await chooseMode(page, /^Online/);
    await waitFor(async () => (await remoteQuantity()) === 17, 'the adjustment on the remote');
    await waitFor(async () => (await label(page)) === `Depósito Palermo, ${TERMO}: 17, synced`, 'the synced cell');
    await online.app.screenshot('stock-synced');

    // A count made offline while the marketplace changed the same cell underneath.
    await chooseMode(page, /^Offline/);
    await page.locator('.status-bar').getByText('Working offline').waitFor();
    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.type('40');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await label(page)) === `Depósito Palermo, ${TERMO}: 40, queued`, 'the pending count');
    const read = await online.remote.as(demo.seller.token).get(`/user-products/${demo.userProducts.termo}/stock`);
    const put = await online.remote
      .as(demo.seller.token)
      .put(
        `/user-products/${demo.userProducts.termo}/stock/type/seller_warehouse`,
        { locations: [{ store_id: demo.stores.palermo, quantity: 31 }] },
        { 'x-version': read.headers.get('x-version')! },
      );
    expect(put.status).toBe(200);
    await chooseMode(page, /^Online/);
    await waitFor(async () => (await label(page))?.startsWith(`Depósito Palermo, ${TERMO}: 40, conflict`), 'the conflict');
    await expect(cell(page, 'Depósito Palermo').textContent()).resolves.toBe('40! conflict');
    await online.app.screenshot('stock-conflict');

    // The status bar's conflicts count filters the grid to conflicts.
    await page
      .locator('.status-bar')
      .getByRole('button', { name: /1 conflict/ })
      .click();
    await waitFor(async () => (await page.getByRole('grid').getAttribute('aria-rowcount')) === '2', 'the grid filtered to conflicts');
    await runAction(page, 'Show');
    await expect(page.getByRole('combobox', { name: 'Show' }).inputValue()).resolves.toBe('conflict');
    await page.keyboard.press('Escape');
    await viewPanel(page).waitFor({ state: 'detached' });

    await cell(page, 'Depósito Palermo').click();
    const dialog = page.getByRole('dialog', { name: `Conflict in Depósito Palermo, ${TERMO}` });
    await dialog.waitFor();
    await waitFor(
      async () =>
        (await dialog.locator('#conflict-text').textContent())?.match(
          /^You counted 40 at .+ when it was 17\. The marketplace now says 31 \(changed at .+\)\.$/,
        ),
      'the conflict in words',
    );
    await online.app.screenshot('stock-conflict-dialog');
    await dialog.getByRole('button', { name: 'Keep my count (40)' }).click();
    await waitFor(async () => (await remoteQuantity()) === 40, 'my count on the remote');
    await selectInView(page, 'Show', 'all');
    await waitFor(async () => (await label(page)) === `Depósito Palermo, ${TERMO}: 40, synced`, 'the resolved cell');
    await runAction(page, 'History');
    await cell(page, 'Depósito Palermo').click();
    const panel = page.getByRole('complementary', { name: `History of Depósito Palermo, ${TERMO}` });
    await panel.getByText('conflict resolution').waitFor();
    await panel.getByText('synced from the marketplace').first().waitFor();
    await online.app.screenshot('stock-history-remote');
    expect(online.app.errors).toEqual([]);
  });
});

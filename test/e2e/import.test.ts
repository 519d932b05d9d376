/**
 * Bulk files end to end (issue 14 §8, §9): real Chromium, the browser mode's server, the real core
 * over SQLite. An import of 200 rows is all or nothing across a page reload during Apply; the grid
 * exports an .xlsx; a column header sorts the grid.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../main/desktop/xlsx.js';
import { warehouseFixtures } from '../support/fixtures.js';
import { waitFor } from '../support/wait.js';
import { type BrowserApp, startBrowserApp } from './support/browser.js';
import { runAction } from './support/actions.js';

const PRODUCTS = 200;
const fixtures = warehouseFixtures({ products: PRODUCTS, stores: 2, quantity: 10 });
const [store1, store2] = fixtures.stores!.map((s) => s.id);
const ids = fixtures.user_products!.map((p) => p.id);
const cell = (page: Page, column: string, product: string) => page.getByRole('gridcell', { name: new RegExp(`^${column}, ${product}:`) });

describe('bulk files and the grid around them', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-import-e2e-'));
    const file = join(dir, 'fixtures.json');
    writeFileSync(file, JSON.stringify(fixtures));
    app = await startBrowserApp({ core: { fixturesFile: file } });
  }, 120_000);
  afterAll(() => app?.close());

  /** How many of the 200 products show the import's +1 in store 1 (read from the core, not the page). */
  const applied = async () => {
    const r = await app.core.api.stock.grid({ limit: PRODUCTS, store: store1 });
    if (!r.ok) throw new Error(r.error.message);
    return r.value.rows.filter((row) => row.cells[store1!]?.shown === 11).length;
  };

  it('an import of 200 rows applies all or nothing across a page reload during Apply', async () => {
    const { page } = app;
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    const csv = ['user_product_id;store;adjustment', ...ids.map((id) => `${id};${store1};+1`)].join('\n');
    await runAction(page, 'Import CSV / Excel');
    const dialog = page.getByRole('dialog', { name: 'Import counts or adjustments' });
    await dialog.getByLabel('Choose a CSV or .xlsx file').setInputFiles({ name: 'recibido.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const apply = dialog.getByRole('button', { name: `Apply ${PRODUCTS} changes` });
    await apply.waitFor();
    expect(await applied()).toBe(0);
    // Apply, and reload the page while the call may be on its way, in the core, or answered.
    await apply.click();
    await page.reload();
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    // Every read sees all of it or none of it: one transaction.
    const seen = [await applied(), await applied(), await applied()];
    for (const n of seen) expect([0, PRODUCTS]).toContain(n);
    // Done again without a reload: it lands whole. When the first one landed, the same file is
    // asked about first (test/e2e/import-again.test.ts) and applied again on the person's word.
    const before = seen.at(-1)!;
    await runAction(page, 'Import CSV / Excel');
    await dialog.getByLabel('Choose a CSV or .xlsx file').setInputFiles({ name: 'recibido.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: `Apply ${PRODUCTS} changes` }).click();
    if (before !== 0) await dialog.getByRole('button', { name: `Apply it again (${PRODUCTS} changes)` }).click();
    await dialog.getByText(`Applied ${PRODUCTS} changes.`).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    const after = await app.core.api.stock.grid({ limit: PRODUCTS, store: store1 });
    if (!after.ok) throw new Error(after.error.message);
    expect(new Set(after.value.rows.map((r) => r.cells[store1!]?.shown))).toEqual(new Set([before === 0 ? 11 : 12]));
    await app.screenshot('import-applied');
  });

  it('a refused line applies nothing and is named', async () => {
    const { page } = app;
    // The preview allows +1 on 999,999; by Apply the cell is at the limit, so the core refuses line 3.
    await app.core.api.stock.count({ userProductId: ids[0]!, type: 'seller_warehouse', storeId: store2!, quantity: 999_999 });
    const csv = ['user_product_id,store,adjustment', `${ids[1]},${store2},+5`, `${ids[0]},${store2},+1`].join('\n');
    await runAction(page, 'Import CSV / Excel');
    const dialog = page.getByRole('dialog', { name: 'Import counts or adjustments' });
    await dialog.getByLabel('Choose a CSV or .xlsx file').setInputFiles({ name: 'mal.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: 'Apply 2 changes' }).waitFor();
    // Another workstation's count moves the cell to the limit between the preview and Apply.
    await app.core.api.stock.count({ userProductId: ids[0]!, type: 'seller_warehouse', storeId: store2!, quantity: 1_000_000 });
    await dialog.getByRole('button', { name: 'Apply 2 changes' }).click();
    await waitFor(async () => (await dialog.getByRole('alert').textContent())?.startsWith('Nothing was applied: Line 3'), 'the refusal naming line 3');
    // Line 2 was fine, and is not applied either.
    const r = await app.core.api.stock.cell({ userProductId: ids[1]!, type: 'seller_warehouse', storeId: store2! });
    expect(r.ok && r.value.shown).toBe(10);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('exports the grid as an .xlsx in the bulk editor layout', async () => {
    const { page } = app;
    const [download] = await Promise.all([page.waitForEvent('download'), runAction(page, 'Export Excel')]);
    expect(download.suggestedFilename()).toMatch(/^stock-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const rows = await readWorkbook(new Uint8Array(readFileSync((await download.path())!)));
    expect(rows[0]).toEqual([
      'Item ID',
      'User product ID',
      'SKU',
      'Title',
      `Depósito 1 [${store1}]`,
      `Depósito 2 [${store2}]`,
      'Total',
      'Pending',
      'Last change',
    ]);
    expect(rows).toHaveLength(PRODUCTS + 1);
  });

  it('sorts by a column from its header (aria-sort says how)', async () => {
    const { page } = app;
    const target = ids[57]!;
    await app.core.api.stock.count({ userProductId: target, type: 'seller_warehouse', storeId: store1!, quantity: 500 });
    const header = page.getByRole('columnheader', { name: /Depósito 1/ });
    const button = page.getByRole('button', { name: 'Sort by Depósito 1' });
    await button.click();
    await waitFor(async () => (await header.getAttribute('aria-sort')) === 'ascending', 'ascending');
    await button.click();
    await waitFor(async () => (await header.getAttribute('aria-sort')) === 'descending', 'descending');
    // The first row is the product with the most in store 1.
    const firstRow = page.locator('[role=row][aria-rowindex="2"] [role=rowheader]');
    await waitFor(async () => (await firstRow.textContent())?.includes(target), `${target} first`);
    await expect(cell(page, 'Depósito 1', target).getAttribute('aria-label')).resolves.toContain(': 500,');
    await app.screenshot('grid-sorted');
  });
});

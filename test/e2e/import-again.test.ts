/**
 * Import's Apply end to end (issue 27): real Chromium, the browser mode's server, the real core
 * over SQLite on the demo data. The same file imported twice is asked about before the second
 * Apply; focus stays in the dialog through Apply and Esc closes it; the CSV and .xlsx exports
 * carry each product's SKU.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../main/desktop/xlsx.js';
import { demo } from '../support/fixtures.js';
import { waitFor } from '../support/wait.js';
import { type BrowserApp, startBrowserApp } from './support/browser.js';
import { runAction } from './support/actions.js';

const termo = demo.userProducts.termo;
const palermo = { userProductId: termo, type: 'seller_warehouse' as const, storeId: demo.stores.palermo };

describe('importing a file twice, and the exports with SKUs', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  }, 120_000);
  afterAll(() => app?.close());

  const shown = async () => {
    const r = await app.core.api.stock.cell(palermo);
    if (!r.ok) throw new Error(r.error.message);
    return r.value.shown;
  };
  const focusedLabel = () => app.page.evaluate<string>("document.activeElement?.textContent ?? document.activeElement?.getAttribute('aria-label') ?? ''");
  const focusInDialog = () => app.page.evaluate<boolean>(`document.activeElement?.closest('[role="dialog"]') !== null`);

  it('asks before applying the same file again; Apply keeps focus in the dialog and Esc closes it', async () => {
    const { page } = app;
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    const csv = Buffer.from(['user_product_id,store,adjustment', `${termo},${demo.stores.palermo},+3`].join('\n'));
    const start = await shown();
    const dialog = page.getByRole('dialog', { name: 'Import counts or adjustments' });

    await runAction(page, 'Import CSV / Excel');
    await dialog.getByLabel('Choose a CSV or .xlsx file').setInputFiles({ name: 'recibido.csv', mimeType: 'text/csv', buffer: csv });
    await dialog.getByRole('button', { name: 'Apply 1 change' }).click();
    await dialog.getByText('Applied 1 change.').waitFor();
    expect(await shown()).toBe(start + 3);
    // The Apply button is gone; focus is on Close, in the dialog, not on the page.
    await waitFor(async () => (await focusedLabel()) === 'Close', 'focus on Close after Apply');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The same file again: asked, with when and by whom; nothing applied until the person says so.
    await runAction(page, 'Import CSV / Excel');
    await dialog.getByLabel('Choose a CSV or .xlsx file').setInputFiles({ name: 'recibido.csv', mimeType: 'text/csv', buffer: csv });
    await dialog.getByRole('button', { name: 'Apply 1 change' }).click();
    const question = dialog.getByRole('alert');
    await question.waitFor();
    expect(await question.textContent()).toMatch(/^recibido\.csv was already applied on .+ by .+ \(1 change\)\. Nothing was applied now\./);
    expect(await shown()).toBe(start + 3);
    expect(await focusInDialog()).toBe(true);
    await app.screenshot('import-again-asked');
    await dialog.getByRole('button', { name: 'Apply it again (1 change)' }).click();
    await dialog.getByText('Applied 1 change.').waitFor();
    expect(await shown()).toBe(start + 6);
    expect(await focusInDialog()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('the CSV and .xlsx exports carry each product’s SKU (SELLER_SKU, else seller_custom_field)', async () => {
    const { page } = app;
    const [csvFile] = await Promise.all([page.waitForEvent('download'), runAction(page, 'Export CSV')]);
    const lines = readFileSync((await csvFile.path())!, 'utf8').split('\r\n');
    expect(
      lines[0]!
        .replace(/^\ufeff/, '')
        .split(',')
        .slice(0, 2),
    ).toEqual(['user_product_id', 'sku']);
    expect(lines.find((l) => l.startsWith(`${termo},`))!.split(',')[1]).toBe('TERM-1L');
    expect(lines.find((l) => l.startsWith(`${demo.userProducts.canasta},`))!.split(',')[1]).toBe('NORTE-CANASTA');

    const [xlsxFile] = await Promise.all([page.waitForEvent('download'), runAction(page, 'Export Excel')]);
    const rows = await readWorkbook(readFileSync((await xlsxFile.path())!));
    expect(rows[0]!.slice(0, 3)).toEqual(['Item ID', 'User product ID', 'SKU']);
    expect(rows.find((r) => r[1] === termo)![2]).toBe('TERM-1L');
    expect(rows.find((r) => r[1] === demo.userProducts.canasta)![2]).toBe('NORTE-CANASTA');
  });
});

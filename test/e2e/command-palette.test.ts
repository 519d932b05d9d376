/**
 * The calmer stock toolbar (issue 28) in real Chromium at 1440×900: the command palette (Ctrl+K)
 * reaches every toolbar action by name and each does what its button did; the File, View and
 * Edit menus hold the rest; the grid spans the window's width.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait.js';
import { type BrowserApp, startBrowserApp } from './support/browser.js';
import { openPalette, palette, runAction, viewPanel } from './support/actions.js';

const TERMO = 'Termo acero inoxidable 1L';
const cell = (page: Page, column: string, product = TERMO) => page.getByRole('gridcell', { name: new RegExp(`^${column}, ${product}:`) });
const activeName = (page: Page) =>
  page.evaluate<string>(
    `(() => { const a = document.activeElement; return (a?.getAttribute('aria-label') ?? a?.closest('label')?.textContent ?? a?.textContent ?? '').trim(); })()`,
  );

describe('the command palette and the menus', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp({ viewport: { width: 1440, height: 900 } });
  }, 120_000);
  afterAll(() => app?.close());

  it('the grid spans the window width at 1440×900; the toolbar is search, Count and three menus', async () => {
    const { page } = app;
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    const box = await page.locator('.grid-scroll').boundingBox();
    const canvas = await page.locator('.grid-canvas').boundingBox();
    const body = await page.locator('.stock-body').boundingBox();
    expect(box && body).toBeTruthy();
    // The grid and its columns fill the stock screen's width (borders aside), which fills the window's.
    expect(box!.width).toBeGreaterThanOrEqual(body!.width - 2);
    expect(body!.width).toBeGreaterThan(1440 * 0.9);
    expect(canvas!.width).toBeGreaterThanOrEqual(box!.width - 20);
    const toolbar = page.locator('.stock-toolbar');
    expect(await toolbar.getByRole('button').allTextContents()).toEqual(['Count', 'File', 'View', 'Edit', 'CommandsCtrl+K']);
    await app.screenshot('stock-toolbar-1440');
  });

  it('lists every toolbar action by name, with its shortcut, filters as you type, and Esc returns focus', async () => {
    const { page } = app;
    await cell(page, 'Depósito Palermo').click();
    await openPalette(page);
    const names = await page.evaluate<string[]>(
      `[...document.querySelectorAll('[role=option]')].map((o) => o.querySelector('.ui-palette-label').textContent + '|' + (o.getAttribute('aria-keyshortcuts') ?? ''))`,
    );
    expect(names).toEqual([
      'Search or scan|Control+F',
      'Count|Alt+Shift+C',
      'Export CSV|',
      'Export Excel|',
      'Import CSV / Excel|',
      'New listing|',
      'History|',
      'Store|',
      'Show|',
      'Low stock|',
      'Below reorder point|',
      'Days of cover|',
      'Saved views|',
      'Columns|',
      'Reorder point|',
      'Scans go to|',
      'Transfer…|Control+M',
      'Undo last edit|Control+Z',
      'Reason for + / − adjustments: received|',
      'Reason for + / − adjustments: damaged|',
      'Reason for + / − adjustments: returned|',
      'Reason for + / − adjustments: sold elsewhere|',
      'Reason for + / − adjustments: correction|',
    ]);
    await app.screenshot('command-palette');
    await page.keyboard.type('expo');
    expect(await palette(page).getByRole('option').allTextContents()).toEqual(['Export CSVFile', 'Export ExcelFile']);
    await page.keyboard.press('Escape');
    await palette(page).waitFor({ state: 'detached' });
    await waitFor(async () => (await activeName(page)).startsWith('Depósito Palermo, Termo'), 'focus back on the cell');
  });

  it('reaches each action: files, dialogs, filters, views, columns, history, transfer, undo, reason, Count', async () => {
    const { page } = app;
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();

    const [csv] = await Promise.all([page.waitForEvent('download'), runAction(page, 'Export CSV')]);
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    const [xlsx] = await Promise.all([page.waitForEvent('download'), runAction(page, 'Export Excel')]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);

    await runAction(page, 'Import CSV / Excel');
    const importDialog = page.getByRole('dialog', { name: 'Import counts or adjustments' });
    await importDialog.waitFor();
    await importDialog.getByRole('button', { name: 'Cancel' }).click();
    await importDialog.waitFor({ state: 'detached' });

    await runAction(page, 'New listing');
    const listing = page.getByRole('dialog', { name: 'New listing with stock per store' });
    await listing.waitFor();
    await page.keyboard.press('Escape');
    await listing.waitFor({ state: 'detached' });

    // History opens and closes the panel.
    await cell(page, 'Depósito Palermo').click();
    await runAction(page, 'History');
    await page.getByRole('complementary', { name: `History of Depósito Palermo, ${TERMO}` }).waitFor();
    await runAction(page, 'History');
    await page.getByRole('complementary', { name: /History of/ }).waitFor({ state: 'detached' });

    // View's controls open the View options panel focused on the control.
    for (const [name, focused] of [
      ['Store', 'Store'],
      ['Show', 'Show'],
      ['Saved views', 'Saved views'],
      ['Columns', 'Columns'],
      ['Scans go to', 'Scans go to'],
      ['Reorder point', `Reorder point of ${TERMO} in Depósito Palermo`],
    ] as const) {
      await runAction(page, name);
      await viewPanel(page).waitFor();
      await waitFor(async () => (await activeName(page)).startsWith(focused), `focus on ${focused}`);
    }
    await page.getByRole('combobox', { name: 'Show' }).selectOption('conflict');
    await waitFor(async () => (await page.getByRole('grid').count()) === 0, 'no conflicts: the grid is empty');
    await page.getByRole('combobox', { name: 'Show' }).selectOption('all');
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    await page.keyboard.press('Escape');
    await viewPanel(page).waitFor({ state: 'detached' });

    // Toggles: Low stock and Below reorder point narrow the grid, again widens it.
    // Read at once, never waited for: with no row to show the grid leaves the page (its empty state instead).
    const rows = () => page.evaluate<string | null>(`document.querySelector('[role="grid"]')?.getAttribute('aria-rowcount') ?? null`);
    const all = await rows();
    await runAction(page, 'Low stock');
    await waitFor(async () => (await rows()) !== all, 'the low-stock filter');
    await runAction(page, 'Low stock');
    await waitFor(async () => (await rows()) === all, 'all rows again');
    await runAction(page, 'Below reorder point');
    await waitFor(async () => (await rows()) !== all, 'below reorder point');
    await runAction(page, 'Below reorder point');
    await waitFor(async () => (await rows()) === all, 'all rows again');

    // Edit: the reason, then a +1 with it, undo, transfer.
    await runAction(page, 'Reason for + / − adjustments: damaged');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('menuitemradio', { name: 'damaged' }).waitFor();
    expect(await page.getByRole('menuitemradio', { name: 'damaged' }).getAttribute('aria-checked')).toBe('true');
    await page.keyboard.press('Escape');
    await cell(page, 'Depósito Palermo').click();
    const before = await cell(page, 'Depósito Palermo').getAttribute('aria-label');
    await page.keyboard.type('+1');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await cell(page, 'Depósito Palermo').getAttribute('aria-label')) !== before, 'the +1');
    await runAction(page, 'Undo last edit');
    await waitFor(async () => (await cell(page, 'Depósito Palermo').getAttribute('aria-label')) === before, 'undone');
    await cell(page, 'Depósito Palermo').click();
    await runAction(page, 'Transfer…');
    const transfer = page.getByRole('dialog', { name: `Transfer ${TERMO}` });
    await transfer.waitFor();
    await page.keyboard.press('Escape');
    await transfer.waitFor({ state: 'detached' });

    await runAction(page, 'Count');
    await page.getByRole('button', { name: 'Back to the grid' }).waitFor();
    await runAction(page, 'Count');
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();

    await runAction(page, 'Search or scan');
    await waitFor(async () => (await page.evaluate<string>('document.activeElement?.id ?? ""')) === 'stock-search', 'focus in the search box');
  });

  it('the menus hold the same actions: File › Import opens the import dialog', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'File' }).click();
    const items = await page.getByRole('menu').getByRole('menuitem').allTextContents();
    expect(items).toEqual(['Export CSV', 'Export Excel', 'Import CSV / Excel', 'New listing']);
    await page.getByRole('menuitem', { name: 'Import CSV / Excel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import counts or adjustments' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = await page.getByRole('menu').getByRole('menuitem').allTextContents();
    expect(edit).toEqual(['Transfer…Ctrl+M', 'Undo last editCtrl+Z']);
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    // Radix gives focus back on the tick after the menu leaves the page.
    await waitFor(async () => (await page.evaluate<string>('document.activeElement?.textContent ?? ""')) === 'Edit', 'focus back on Edit');
  });
});

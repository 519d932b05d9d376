/**
 * Stock you can see (issue 28) in real Chromium through the browser mode, on the demo data: a
 * product's history panel draws its stock per store (an edit moves the line) and its recent sales
 * (the demo's termo sold 1 on Nov 18, 2026), with the figures as a table; the View menu's Days of
 * cover shows each store cell's days (stock ÷ average daily units over 30 days) in words.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait.js';
import { type BrowserApp, startBrowserApp } from './support/browser.js';

const TERMO = 'Termo acero inoxidable 1L';
const cell = (page: Page, column: string, product = TERMO) => page.getByRole('gridcell', { name: new RegExp(`^${column}, ${product}:`) });

/** A toggle of the toolbar's View menu. */
async function viewToggle(page: Page, name: string) {
  await page.getByRole('button', { name: 'View', exact: true }).click();
  await page.getByRole('menuitemcheckbox', { name: new RegExp(`^${name}`) }).click();
}

let app: BrowserApp;
beforeAll(async () => {
  app = await startBrowserApp();
}, 120_000);
afterAll(() => app?.close());

describe('stock insight in Chromium', () => {
  it('opens a product’s history with its chart: a line per store, its sales, every figure as a table', async () => {
    const { page } = app;
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.type('15');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await cell(page, 'Depósito Palermo').getAttribute('aria-label'))?.includes(': 15, synced'), 'the count on screen');
    await cell(page, 'Depósito Palermo').click();

    await viewToggle(page, 'History');
    const chart = page.getByRole('img', { name: `Stock per store of ${TERMO}` });
    await chart.waitFor();
    const description = async () => {
      const id = await chart.getAttribute('aria-describedby');
      return id ? page.locator(`[id="${id}"]`).textContent() : null;
    };
    // The count moved Palermo from 12 to 15; Avellaneda kept 30; the demo sold one termo on Nov 18.
    await waitFor(async () => (await description())?.includes('Depósito Palermo from 12 to 15'), 'the chart described with the edit');
    expect(await description()).toContain('Depósito Avellaneda from 30 to 30');
    expect(await description()).toContain('1 in all');
    expect(await chart.locator('path.chart-line').count()).toBe(2);
    expect(await chart.locator('rect.chart-bar').count()).toBe(1);

    const insight = page.getByRole('region', { name: 'Stock and sales, last 30 days' });
    await insight.getByText('Show as a table').click();
    const table = insight.getByRole('table', { name: `Stock per store of ${TERMO}` });
    await table.waitFor();
    const quantities = await table.locator('tbody tr td:nth-child(3)').allTextContents();
    expect(quantities).toEqual(['12', '15', '15', '30', '30']);
    expect(await insight.getByRole('table', { name: 'Units sold per day' }).locator('tbody tr td:nth-child(2)').allTextContents()).toEqual(['1']);
    await app.screenshot('stock-insight-chart');
  });

  it('toggles days of cover from the View menu: each store cell says its days', async () => {
    const { page } = app;
    await viewToggle(page, 'Days of cover');
    // 1 unit in 30 days: 15 last 450 days, 30 last 900.
    await waitFor(async () => (await cell(page, 'Depósito Palermo').getAttribute('aria-label'))?.includes('450 days of cover'), 'Palermo’s cover');
    expect(await cell(page, 'Depósito Avellaneda').getAttribute('aria-label')).toContain('900 days of cover');
    expect(await cell(page, 'Depósito Palermo').getAttribute('data-cover')).toBe('ok');
    expect(await cell(page, 'Depósito Palermo').locator('.cell-cover').textContent()).toBe('450 d');
    await app.screenshot('stock-insight-cover');
    await viewToggle(page, 'Days of cover');
    await waitFor(async () => !(await cell(page, 'Depósito Palermo').getAttribute('aria-label'))?.includes('days of cover'), 'the cover gone');
  });
});

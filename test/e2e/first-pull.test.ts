/**
 * A first pull in real Chromium (issue 29): the app connected to a second real server through the
 * fault proxy, which holds every stock answer until the test releases them. The grid has its rows
 * with "not read yet" cells before any stock is read, an edit there is refused with the reason,
 * and the status bar says "Stock read for 0 of 5 products"; once released the cells fill in.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Hold } from '../support/fault-proxy.js';
import { waitFor } from '../support/wait.js';
import { remoteMarketplaceAndApp } from './support/remote.js';

const TERMO = 'Termo acero inoxidable 1L';
/** The demo seller's user products (test/support/fixtures.ts): every one's stock is read once. */
const PRODUCTS = 5;
const cell = (page: Page) => page.getByRole('gridcell', { name: new RegExp(`^Depósito Palermo, ${TERMO}:`) });
const label = (page: Page) => cell(page).getAttribute('aria-label');
const bar = async (page: Page) => ((await page.locator('.status-bar').textContent()) ?? '').replace(/\s+/g, ' ');
const isStockGet = (method: string, path: string) => method === 'GET' && /^\/user-products\/[^/?]+\/stock$/.test(path.split('?')[0]!);

let held: Hold;
// Every stock answer waits at the proxy: the first pull lists the products and stops there.
const online = remoteMarketplaceAndApp({
  engine: { pollIntervalMs: 0 },
  throughProxy: (proxy) => {
    held = proxy.hold(isStockGet, PRODUCTS);
  },
  connectAsDemoSeller: {},
});

describe('a first pull on screen', () => {
  it('rows with "not read yet" cells that refuse an edit and the status bar’s count before any stock is read; filled in once read', async () => {
    const { app, proxy } = online;
    const { page } = app;
    await held.arrived;
    await waitFor(async () => (await label(page))?.includes('not read yet') ?? false, 'the termo’s cell “not read yet” in the grid');
    expect(await label(page)).toMatch(new RegExp(`^Depósito Palermo, ${TERMO}: — not read yet`));
    expect(await page.getByRole('gridcell', { name: /not read yet/ }).count()).toBeGreaterThanOrEqual(PRODUCTS);
    await waitFor(async () => (await bar(page)).includes(`Stock read for 0 of ${PRODUCTS} products`), 'the status bar’s stock-read count');

    // An edit of a cell not read yet: refused with the reason, and nothing queued.
    await cell(page).click();
    await page.keyboard.type('7');
    await page.keyboard.press('Enter');
    await waitFor(
      async () =>
        ((await page.locator('.notice-line').textContent()) ?? '').includes('Stock not read yet from the marketplace: it can be changed once it is read.'),
      'the refusal’s reason in the notice line',
    );
    expect(app.core.status()).toMatchObject({ pending: 0, inFlight: 0 });
    expect(proxy.log.filter((l) => l.method === 'PUT')).toEqual([]);

    // The answers go: the cells fill in and the count leaves the status bar.
    held.release();
    await waitFor(async () => (await label(page)) === `Depósito Palermo, ${TERMO}: 12, synced`, 'the termo’s stock read into its cell');
    await waitFor(async () => (await page.getByRole('gridcell', { name: /not read yet/ }).count()) === 0, 'every cell read');
    await waitFor(async () => !(await bar(page)).includes('Stock read for'), 'the stock-read count gone from the status bar');
    await app.screenshot('first-pull-read');
  });
});

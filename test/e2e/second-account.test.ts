/**
 * A second account added from Settings (issue 27), in real Chromium on the browser mode against a
 * second real server playing the marketplace: the app is open on the demo seller's account; Settings
 * → "Connect an account" signs in through the "system browser" (browserThatApproves) as the brand
 * account MARCA_AURORA. The app then shows that account's Stock screen, and Settings name it by its
 * nickname, never "seller 1780493261", beside the first account; opening the first one again from
 * Settings' list brings back its name in the frame and its stock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { browserThatApproves } from '../support/oauth.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { FAST_RETRY } from '../support/sync-harness.js';
import { waitFor } from '../support/wait.js';
import { type BrowserApp, startBrowserApp } from './support/browser.js';
import { connectAsDemoSeller } from './support/remote.js';

let remote: TestServer;
let app: BrowserApp;
const opened: string[] = [];

beforeAll(async () => {
  remote = await startTestServer();
  app = await startBrowserApp({
    core: {
      engine: { retry: FAST_RETRY, pollIntervalMs: 0 },
      host: { shell: 'browser', openExternal: browserThatApproves('MARCA_AURORA', opened) },
    },
  });
  await connectAsDemoSeller(app, remote.url, { start: 'account' });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await remote?.close();
});

describe('a second account from Settings in Chromium', () => {
  it('signs in, opens the new account’s Stock screen, Settings name it by its nickname, and the first account opens again', async () => {
    const page = app.page;
    const first = page.locator(`.account-badge[data-account="${demo.seller.id}"]`);
    await waitFor(async () => ((await first.textContent()) ?? '').includes('DEPOSITO_NORTE'), 'the first account named in the frame');

    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Connect an account' }).click();
    await page.getByRole('combobox', { name: 'Country' }).selectOption({ label: 'Argentina' });
    await page.getByText('Advanced', { exact: true }).click();
    await page.getByRole('textbox', { name: 'Marketplace address' }).fill(remote.url);
    await page.getByRole('button', { name: 'Sign in through the browser' }).click();

    // The frame is the new account's, on its Stock screen.
    const badge = page.locator(`.account-badge[data-account="${demo.brand.id}"]`);
    await waitFor(async () => ((await badge.textContent()) ?? '').includes('MARCA_AURORA'), 'the new account named in the frame', 30_000);
    expect(opened[0]).toMatch(new RegExp(`^${remote.url}/authorization\\?`));
    await page.getByRole('tab', { name: 'Stock', selected: true }).waitFor({ timeout: 20_000 });
    // Its own products, not the first account's.
    const grid = page.getByRole('grid');
    await grid.getByText('Zapatillas Aurora Run').first().waitFor({ timeout: 20_000 });
    expect(await grid.getByText('Termo acero inoxidable 1L').count()).toBe(0);
    await app.screenshot('second-account-stock');

    // Settings: the open account and the list name both by nickname.
    await page.getByRole('tab', { name: 'Settings' }).click();
    const accounts = page.locator('.settings-accounts');
    await accounts.getByText(/^Open now: MARCA_AURORA · Argentina/).waitFor({ timeout: 15_000 });
    const list = accounts.locator('ul.accounts li');
    await waitFor(async () => (await list.allTextContents()).some((t) => t.includes('DEPOSITO_NORTE')), 'the first account listed by nickname');
    await waitFor(async () => (await list.allTextContents()).some((t) => t.includes('MARCA_AURORA')), 'the new account listed by nickname');
    expect(await accounts.textContent()).not.toContain(`seller ${demo.brand.id}`);
    await app.screenshot('second-account-settings');

    // Back to the first account from the list: the frame and Settings name it, its stock shows.
    await list.filter({ hasText: 'DEPOSITO_NORTE' }).getByRole('button', { name: 'Open' }).click();
    await accounts.getByText(/^Open now: DEPOSITO_NORTE · Argentina/).waitFor({ timeout: 15_000 });
    await waitFor(async () => ((await first.textContent()) ?? '').includes('DEPOSITO_NORTE'), 'the first account named in the frame again');
    expect(await list.filter({ hasText: 'MARCA_AURORA' }).getByRole('button', { name: 'Open' }).count()).toBe(1);
    await page.getByRole('tab', { name: 'Stock' }).click();
    await grid.getByText('Termo acero inoxidable 1L').first().waitFor({ timeout: 20_000 });
    expect(await grid.getByText('Zapatillas Aurora Run').count()).toBe(0);
    expect(app.errors).toEqual([]);
  });
});

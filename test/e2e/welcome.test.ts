/**
 * The first run in real Chromium on the browser mode: the welcome names the app and offers the
 * demo data or an account. The demo path opens the frame labelled as demo and is not asked again;
 * the connect path chooses the country, signs in through the "system browser" (the browser mode's
 * openExternal, played by browserThatApproves on the URL the app opens) on a second real server,
 * and shows the first pull's progress (held at the orders step by the fault proxy) before the
 * frame opens on that account.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { browserThatApproves } from '../support/oauth.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { FAST_RETRY } from '../support/sync-harness.js';
import { waitFor } from '../support/wait.js';
import { type BrowserApp, startBrowserApp } from './support/browser.js';

let remote: TestServer;
let proxy: FaultProxy;

beforeAll(async () => {
  remote = await startTestServer();
  proxy = await startFaultProxy(remote.url);
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await remote?.close();
});

describe('the welcome in Chromium', () => {
  it('names the app, and "Try the demo data" opens the frame labelled as demo, once for good', async () => {
    const app: BrowserApp = await startBrowserApp({ core: { welcome: true }, waitForFrame: false });
    try {
      const page = app.page;
      await page.getByRole('heading', { name: 'Stockroom', level: 1 }).waitFor({ timeout: 15_000 });
      expect(await page.getByRole('tablist').count()).toBe(0);
      await app.screenshot('welcome-first-run');
      await page.getByRole('button', { name: 'Try the demo data' }).click();
      await page.getByRole('tablist').waitFor({ timeout: 15_000 });
      const badge = page.locator('.account-badge[data-account="demo"]');
      await badge.waitFor();
      expect(await badge.textContent()).toContain('Demo');
      expect(await page.locator('.status-bar').textContent()).toContain('demo data');
      await app.screenshot('welcome-demo-frame');
      expect(JSON.parse(readFileSync(join(app.dataDir, 'settings.json'), 'utf8'))).toMatchObject({ start: 'demo', mode: 'local-only' });
      // The choice is kept: a reload opens the frame, not the welcome.
      await page.reload();
      await page.getByRole('tablist').waitFor({ timeout: 15_000 });
      expect(await page.getByRole('button', { name: 'Try the demo data' }).count()).toBe(0);
      expect(app.errors).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('"Connect my account": country, sign-in through the browser, the first pull step by step, then the account’s frame', async () => {
    const opened: string[] = [];
    const app: BrowserApp = await startBrowserApp({
      core: {
        welcome: true,
        engine: { retry: FAST_RETRY, pollIntervalMs: 0 },
        host: { shell: 'browser', openExternal: browserThatApproves('DEPOSITO_NORTE', opened) },
      },
      waitForFrame: false,
    });
    // The first pull waits at its orders step until the test has seen the progress.
    const orders = proxy.hold((method, path) => method === 'GET' && path.startsWith('/orders/search'));
    try {
      const page = app.page;
      await page.getByRole('button', { name: 'Connect my account' }).click();
      await page.getByRole('combobox', { name: 'Country' }).selectOption({ label: 'Argentina' });
      // On a computer without a keychain (the browser mode stores as is) the person is told so.
      expect(await page.getByRole('note').textContent()).toContain('stored without a keychain');
      await page.getByText('Advanced', { exact: true }).click();
      const address = page.getByRole('textbox', { name: 'Marketplace address' });
      expect(await address.inputValue()).toMatch(/^https:\/\//);
      expect(await page.getByRole('textbox', { name: 'Application id' }).inputValue()).toBe(String(demo.app));
      await address.fill(proxy.url);
      await page.getByRole('button', { name: 'Sign in through the browser' }).click();

      await orders.arrived;
      const progress = page.locator('.pull-progress[data-phase="orders"]');
      await progress.waitFor({ timeout: 20_000 });
      // Six steps: a first pull reads the stock behind them (issue 29, docs/desktop.md).
      expect(await progress.textContent()).toContain('Step 5 of 6: your orders');
      expect(await page.locator('.pull-progress progress').count()).toBe(1);
      await app.screenshot('welcome-first-pull');
      expect(opened[0]).toMatch(new RegExp(`^${proxy.url}/authorization\\?`));
      orders.release();

      await page.getByRole('tablist').waitFor({ timeout: 20_000 });
      const badge = page.locator(`.account-badge[data-account="${demo.seller.id}"]`);
      await waitFor(async () => ((await badge.textContent()) ?? '').includes('DEPOSITO_NORTE · Argentina'), 'the account named in the frame');
      await waitFor(async () => (await page.title()).includes('DEPOSITO_NORTE'), 'the account in the window title');
      await app.screenshot('welcome-connected-frame');

      // Settings name the open account and keep the address under Advanced.
      await page.getByRole('tab', { name: 'Settings' }).click();
      await page.getByText('Open now: DEPOSITO_NORTE · Argentina').waitFor({ timeout: 15_000 });
      expect(JSON.parse(readFileSync(join(app.dataDir, 'settings.json'), 'utf8'))).toMatchObject({
        start: 'account',
        mode: 'online',
        userId: demo.seller.id,
        siteId: 'MLA',
      });
      expect(existsSync(join(app.dataDir, 'remote'))).toBe(true);
      expect(app.errors).toEqual([]);
    } finally {
      orders.release();
      await app.close();
    }
  });
});

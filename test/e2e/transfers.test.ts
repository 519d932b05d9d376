/**
 * Transfers, reasons, undo and failed edits end to end (issue 14 §5, §6, §7): real headless
 * Chromium on the browser mode, the real desktop core, and a second real server playing the
 * remote marketplace behind the logging proxy (which counts the requests that reach it).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { demo } from '../support/fixtures.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { FAST_RETRY } from '../support/sync-harness.js';
import { waitFor } from '../support/wait.js';
import { type BrowserApp, startBrowserApp } from './support/browser.js';
import { runAction, selectInView } from './support/actions.js';

const TERMO = 'Termo acero inoxidable 1L';
const cell = (page: Page, column: string, product = TERMO) => page.getByRole('gridcell', { name: new RegExp(`^${column}, ${product}:`) });
const label = (page: Page, column: string) => cell(page, column).getAttribute('aria-label');
const notice = (page: Page) => page.locator('.notice-line');

let remote: TestServer;
let proxy: FaultProxy;
let app: BrowserApp;

beforeAll(async () => {
  remote = await startTestServer();
  proxy = await startFaultProxy(remote.url);
  app = await startBrowserApp({ core: { engine: { pollIntervalMs: 0, retry: FAST_RETRY } } });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await proxy?.close();
  await remote?.close();
});

const remoteStock = async () => {
  const res = await remote.as(demo.seller.token).get(`/user-products/${demo.userProducts.termo}/stock`);
  const body = res.body as { locations: { store_id?: string; quantity: number }[] };
  const q = (store: string) => body.locations.find((l) => l.store_id === store)!.quantity;
  return { palermo: q(demo.stores.palermo), avellaneda: q(demo.stores.avellaneda), version: res.headers.get('x-version') };
};
const stockPuts = () => proxy.log.filter((l) => l.method === 'PUT' && l.path.includes('/stock/type/seller_warehouse'));
/** The body the remote stored for a PUT's idempotency key (what it applied). */
const appliedBody = (key: string) => {
  const row = remote.db.prepare<[string], { body: string }>('SELECT body FROM idempotency_keys WHERE key = ?').get(key);
  return (JSON.parse(row!.body) as { locations: { store_id: string; quantity: number }[] }).locations.map((l) => [l.store_id, l.quantity]);
};

describe('transfers, reasons, undo and failed edits in Chromium', () => {
  it('connects to the marketplace', async () => {
    const { page } = app;
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('textbox', { name: 'Marketplace address' }).fill(proxy.url);
    await page.getByRole('textbox', { name: 'Application id' }).fill(String(demo.app));
    await page.getByRole('textbox', { name: 'Your user id' }).fill(String(demo.seller.id));
    await page.getByLabel('Access token').fill(demo.seller.token);
    await page.getByRole('radio', { name: /Online/ }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Settings saved.').waitFor({ timeout: 20_000 });
    await page.getByRole('tab', { name: 'Stock' }).click();
    await waitFor(async () => (await label(page, 'Depósito Palermo')) === `Depósito Palermo, ${TERMO}: 12, synced`, 'the replica in the grid');
  });

  it('an adjustment carries the reason picked; a transfer from the keyboard reaches the remote as ONE PUT with both stores', async () => {
    const { page } = app;
    await runAction(page, 'Reason for + / − adjustments: damaged');
    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.type('-2');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await remoteStock()).palermo === 10, 'the adjustment on the remote');
    await waitFor(async () => (await label(page, 'Depósito Palermo'))?.includes(': 10, synced'), 'the synced adjustment');
    const before = stockPuts().length;

    // Ctrl+M on the cell opens the transfer dialog: 5 units to Avellaneda, Enter saves.
    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.press('Control+m');
    const dialog = page.getByRole('dialog', { name: `Transfer ${TERMO}` });
    await dialog.waitFor();
    await dialog.getByText('From Depósito Palermo (has 10)').waitFor();
    await page.keyboard.type('5');
    await dialog.getByRole('combobox', { name: 'To store' }).selectOption({ label: 'Depósito Avellaneda' });
    await app.screenshot('stock-transfer-dialog');
    await dialog.getByRole('textbox', { name: 'Units to move' }).press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await waitFor(async () => {
      const s = await remoteStock();
      return s.palermo === 5 && s.avellaneda === 35;
    }, 'the transfer on the remote');
    await waitFor(async () => (await label(page, 'Depósito Avellaneda'))?.includes(': 35, synced'), 'the destination synced');
    await waitFor(async () => (await label(page, 'Depósito Palermo'))?.includes(': 5, synced'), 'the source synced');
    // One request carried both stores, applied under one version.
    const transferPuts = stockPuts().slice(before);
    expect(transferPuts.map((p) => p.status)).toEqual([200]);
    expect(appliedBody(transferPuts[0]!.key!)).toEqual(
      expect.arrayContaining([
        [demo.stores.palermo, 5],
        [demo.stores.avellaneda, 35],
      ]),
    );

    // The history says why: a transfer and the damaged units on Palermo, the transfer on Avellaneda.
    await cell(page, 'Depósito Palermo').click();
    await runAction(page, 'History');
    const panel = page.getByRole('complementary', { name: `History of Depósito Palermo, ${TERMO}` });
    await panel.getByRole('row').filter({ hasText: 'transfer' }).first().waitFor();
    await panel.getByRole('row').filter({ hasText: 'damaged' }).waitFor();
    await expect(panel.getByRole('row').filter({ hasText: 'transfer' }).first().textContent()).resolves.toContain('→ Depósito Avellaneda');
    await app.screenshot('stock-history-reasons');
    await cell(page, 'Depósito Avellaneda').click();
    await page
      .getByRole('complementary', { name: `History of Depósito Avellaneda, ${TERMO}` })
      .getByRole('row')
      .filter({ hasText: '← Depósito Palermo' })
      .waitFor();
    await page.getByRole('button', { name: 'Hide history' }).first().click();
  });

  it('Ctrl+Z undoes the synced transfer by transferring the units back (one more PUT)', async () => {
    const { page } = app;
    const before = stockPuts().length;
    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.press('Control+z');
    await notice(page).getByText('Last edit undone: a correction was queued.').waitFor();
    await waitFor(async () => {
      const s = await remoteStock();
      return s.palermo === 10 && s.avellaneda === 30;
    }, 'the transfer taken back on the remote');
    expect(stockPuts().length - before).toBe(1);
    await waitFor(async () => (await label(page, 'Depósito Palermo'))?.includes(': 10, synced'), 'the cell back to 10');
  });

  it('a refused edit is not counted in the cell, and leads to its reason with Retry / Discard / Edit', async () => {
    const { page } = app;
    // Someone empties Palermo on the marketplace; the replica does not know yet.
    const cur = await remoteStock();
    const put = await remote
      .as(demo.seller.token)
      .put(
        `/user-products/${demo.userProducts.termo}/stock/type/seller_warehouse`,
        { locations: [{ store_id: demo.stores.palermo, quantity: 0 }] },
        { 'x-version': cur.version! },
      );
    expect(put.status).toBe(200);
    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.type('-3');
    await page.keyboard.press('Enter');
    // 409, re-read: 0 − 3 is refused. The cell shows the marketplace's 0, not −3.
    await waitFor(async () => (await label(page, 'Depósito Palermo'))?.includes(': 0, failed'), 'the failed cell');
    await expect(cell(page, 'Depósito Palermo').textContent()).resolves.toContain('0');
    await expect(cell(page, 'Depósito Palermo').textContent()).resolves.not.toContain('-3');

    // The status bar's "1 failed" leads to the entry and its reason in words.
    await page
      .locator('.status-bar')
      .getByRole('button', { name: /1 failed/ })
      .click();
    const dialog = page.getByRole('dialog', { name: `Not applied: Depósito Palermo, ${TERMO}` });
    await dialog.getByText(/The adjustment of -3 would take the stock below 0: the marketplace has 0/).waitFor();
    await dialog.getByText('Your edit: -3 (damaged)').waitFor();
    await app.screenshot('stock-failed-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Enter on the failed cell opens the same dialog, not the count editor; Discard drops the edit.
    await selectInView(page, 'Show', 'all');
    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await expect(page.locator('.cell-editor').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await dialog.waitFor({ state: 'detached' });
    await waitFor(async () => (await label(page, 'Depósito Palermo'))?.includes(': 0, synced'), 'the discarded edit');
    await page
      .locator('.status-bar')
      .getByRole('button', { name: /failed/ })
      .waitFor({ state: 'detached' });
    expect((await remoteStock()).palermo).toBe(0);
    expect(app.errors).toEqual([]);
  });
});

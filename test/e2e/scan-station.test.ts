/**
 * Scan stations and scanner safety end to end (issue 27): real headless Chromium, the browser
 * mode's server and the real desktop core on the demo data, codes typed with a scanner's own key
 * timing (support/scanner.ts: Enter or Tab at the end, 5 ms between keys, or 40 ms for a slow
 * scanner the app must not take for one).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { waitFor } from '../support/wait.js';
import { type BrowserApp, startBrowserApp } from './support/browser.js';
import { runAction, selectInView, viewPanel } from './support/actions.js';
import { scan } from './support/scanner.js';

const TERMO = 'Termo acero inoxidable 1L';
/** A person's keys: well over the scan detector's 35 ms apart. */
const PERSON_DELAY_MS = 90;

const cell = (page: Page, column: string, product = TERMO) => page.getByRole('gridcell', { name: new RegExp(`^${column}, ${product}:`) });
const focusedLabel = (page: Page) => page.evaluate<string | null>(`document.activeElement?.getAttribute('aria-label') ?? null`);
const notice = (page: Page) => page.locator('.notice-line').textContent();
const termoShown = async (app: BrowserApp, storeId: string) => {
  const r = await app.core.api.stock.cell({ userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.shown;
};
const history = async (app: BrowserApp, userProductId: string, storeId: string) => {
  const r = await app.core.api.stock.history({ userProductId, type: 'seller_warehouse', storeId, limit: 500 });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('scanning safety on the local demo data', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  }, 120_000);
  afterAll(() => app?.close());

  it('the chosen "Scans go to" store survives a reload, and scans land there', async () => {
    const { page } = app;
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    await selectInView(page, 'Scans go to', { label: 'Depósito Avellaneda' });
    // Kept by the core before the reload.
    await waitFor(async () => {
      const r = await app.core.api.stock.scanStore();
      return r.ok && r.value.store === demo.stores.avellaneda;
    }, 'the choice kept');
    await page.reload();
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    await runAction(page, 'Scans go to');
    await waitFor(
      async () => (await page.getByRole('combobox', { name: 'Scans go to' }).inputValue()) === demo.stores.avellaneda,
      'Avellaneda chosen again after the reload',
    );
    await page.keyboard.press('Escape');
    await viewPanel(page).waitFor({ state: 'detached' });
    await cell(page, 'Depósito Palermo').click();
    await scan(page, 'TERM0001');
    await waitFor(async () => (await notice(page)) === `Scanned TERM0001: ${TERMO} (MLAU100000001) · Depósito Avellaneda`, 'the scan in Avellaneda');
    await waitFor(async () => new RegExp(`^Depósito Avellaneda, ${TERMO}:`).test((await focusedLabel(page)) ?? ''), 'focus on the Avellaneda cell');
    // Back to Palermo for the flows below.
    await selectInView(page, 'Scans go to', { label: 'Depósito Palermo' });
  });

  it('a Tab-terminated scan is a scan: the grid goes to the product, nothing saved, focus not moved by the Tab', async () => {
    const { page } = app;
    const before = await termoShown(app, demo.stores.palermo);
    await cell(page, 'Depósito Avellaneda').click();
    await scan(page, '00123457', { end: 'Tab' });
    await waitFor(async () => (await notice(page)) === 'Scanned 00123457: Bombilla alpaca (MLAU100000004) · Depósito Palermo', 'the Tab scan found');
    await waitFor(async () => /^Depósito Palermo, Bombilla alpaca:/.test((await focusedLabel(page)) ?? ''), 'focus on the Bombilla cell');
    expect(await page.locator('.cell-editor').count()).toBe(0);
    expect(await termoShown(app, demo.stores.palermo)).toBe(before);
  });

  it('a scan on the Inbox tab shows a visible notice naming the code', async () => {
    const { page } = app;
    await page.getByRole('tab', { name: /^Inbox/ }).click();
    await page.locator('#panel-inbox, .kept-screen:not([hidden])').first().waitFor();
    await scan(page, 'TERM0001');
    const away = page.locator('.away-scan');
    await waitFor(async () => (await away.textContent())?.includes('Scanned TERM0001 here: nothing was done with it.'), 'the notice on the Inbox');
    expect(await away.isVisible()).toBe(true);
    await app.screenshot('scan-on-inbox');
    await page.getByRole('button', { name: 'Show it in Stock' }).click();
    await waitFor(async () => (await notice(page)) === `Scanned TERM0001: ${TERMO} (MLAU100000001) · Depósito Palermo`, 'shown in Stock');
  });

  it('a slow scanner (40 ms a key) reading an EAN-8 into a focused cell is offered as a code, never saved as 123,457', async () => {
    const { page } = app;
    const before = await termoShown(app, demo.stores.palermo);
    const rows = (await history(app, demo.userProducts.termo, demo.stores.palermo)).length;
    await cell(page, 'Depósito Palermo').click();
    await scan(page, '00123457', { gapMs: 40 });
    const ask = page.getByRole('alertdialog');
    await ask.waitFor();
    expect(await ask.textContent()).toContain('00123457 looks like a barcode, not a count. Nothing was saved.');
    await app.screenshot('slow-scanner-code');
    expect(await termoShown(app, demo.stores.palermo)).toBe(before);
    await ask.getByRole('button', { name: 'Find the product' }).click();
    await waitFor(async () => (await notice(page)) === 'Scanned 00123457: Bombilla alpaca (MLAU100000004) · Depósito Palermo', 'the product found');
    expect(await termoShown(app, demo.stores.palermo)).toBe(before);
    expect(await history(app, demo.userProducts.termo, demo.stores.palermo)).toHaveLength(rows);
  });

  it('a huge typed jump asks to confirm; no keeps the quantity, yes saves it', async () => {
    const { page } = app;
    const before = await termoShown(app, demo.stores.palermo);
    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.type('5000', { delay: PERSON_DELAY_MS });
    await page.keyboard.press('Enter');
    const ask = page.getByRole('alertdialog');
    await ask.waitFor();
    expect(await ask.textContent()).toContain(`Save a count of 5,000? This cell has ${before} now`);
    await ask.getByRole('button', { name: 'No, keep editing' }).click();
    await waitFor(async () => (await page.getByRole('alertdialog').count()) === 0, 'the question gone');
    expect(await termoShown(app, demo.stores.palermo)).toBe(before);

    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.type('5000', { delay: PERSON_DELAY_MS });
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, save it' }).click();
    await waitFor(async () => (await termoShown(app, demo.stores.palermo)) === 5000, 'the confirmed count saved');
    expect(app.errors).toEqual([]);
  });
});

describe('the scan station and the tally', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  }, 120_000);
  afterAll(() => app?.close());

  it('station mode shows the store, the product and a big count; undo of the last scan works; Esc leaves', async () => {
    const { page } = app;
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    await page.getByRole('button', { name: 'Count', exact: true }).click();
    await page.getByRole('combobox', { name: 'Store' }).selectOption({ label: 'Depósito Palermo' });
    await page.getByRole('button', { name: 'Scan station (full screen)' }).click();
    const station = page.getByRole('dialog', { name: 'Counting into Depósito Palermo' });
    await station.waitFor();
    for (let i = 0; i < 3; i++) await scan(page, demo.items.termo);
    const count = station.locator('.station-count');
    await waitFor(async () => (await count.textContent()) === '3', 'the big count at 3');
    expect(await station.locator('.station-product').textContent()).toBe(TERMO);
    expect(await station.locator('.station-last').getAttribute('data-outcome')).toBe('ok');
    // Readable from 2 m: the count is big on screen.
    const box = await count.boundingBox();
    expect(box && box.height).toBeGreaterThan(100);
    await app.screenshot('scan-station');

    await scan(page, '0000000000000');
    await waitFor(async () => (await station.locator('.station-last').getAttribute('data-outcome')) === 'unknown', 'the unknown outcome');
    expect(await station.getByRole('status').textContent()).toContain('Nothing matches the code 0000000000000');

    await station.getByRole('button', { name: 'Undo last scan' }).click();
    await station.getByRole('button', { name: 'Undo last scan' }).click();
    await waitFor(async () => (await count.textContent()) === '2', 'the big count back to 2');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the station left');
    const lines = page.getByRole('list', { name: 'Scans of this session' }).getByRole('listitem');
    expect(await lines.allTextContents()).toEqual([`2 units (2 scans) ${TERMO} ${demo.items.termo}`]);
    await page.getByRole('button', { name: 'Undo last scan' }).click();
    await page.getByRole('button', { name: 'Undo last scan' }).click();
    await waitFor(async () => (await lines.count()) === 0, 'the tally empty');
  });

  it('5 units scanned are still there after a reload, in the list and the station, and Apply makes one history row', async () => {
    const { page } = app;
    const before = await termoShown(app, demo.stores.palermo);
    const rowsBefore = (await history(app, demo.userProducts.termo, demo.stores.palermo)).length;
    await page.getByLabel('Scan or type a code, then Enter').focus();
    for (let i = 0; i < 5; i++) await scan(page, demo.items.termo);
    const lines = page.getByRole('list', { name: 'Scans of this session' }).getByRole('listitem');
    const five = `5 units (5 scans) ${TERMO} ${demo.items.termo}`;
    await waitFor(async () => (await lines.allTextContents()).join('|') === five, 'one line of 5');

    // The core kept every scan: a reload (or a crash of the window) loses none.
    await page.reload();
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    await page.getByRole('button', { name: 'Count', exact: true }).click();
    await waitFor(async () => (await lines.allTextContents()).join('|') === five, 'the line of 5 after the reload');
    expect(await page.getByRole('combobox', { name: 'Store' }).inputValue()).toBe(demo.stores.palermo);
    await page.getByRole('button', { name: 'Scan station (full screen)' }).click();
    const station = page.getByRole('dialog', { name: 'Counting into Depósito Palermo' });
    await waitFor(async () => (await station.locator('.station-count').textContent()) === '5', 'the station at 5 after the reload');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the station left');
    expect(await termoShown(app, demo.stores.palermo)).toBe(before);

    await page.getByRole('button', { name: 'Apply 5 units to Depósito Palermo' }).click();
    await waitFor(async () => (await termoShown(app, demo.stores.palermo)) === before + 5, 'the 5 units on the cell');
    await waitFor(async () => (await lines.count()) === 0, 'the tally empty');
    const rows = await history(app, demo.userProducts.termo, demo.stores.palermo);
    expect(rows).toHaveLength(rowsBefore + 1);
    expect([rows[0]!.delta, rows[0]!.ref, rows[0]!.reason]).toEqual([5, `scan ${demo.items.termo} x5`, 'received']);
    expect(app.errors).toEqual([]);
  }, 120_000);

  it('200 scans of one product make one line and, applied, one history row of 200', async () => {
    const { page } = app;
    const before = await termoShown(app, demo.stores.palermo);
    const rowsBefore = (await history(app, demo.userProducts.termo, demo.stores.palermo)).length;
    await page.getByLabel('Scan or type a code, then Enter').focus();
    for (let i = 0; i < 200; i++) await scan(page, demo.items.termo);
    const lines = page.getByRole('list', { name: 'Scans of this session' }).getByRole('listitem');
    await waitFor(async () => (await lines.allTextContents()).join('|') === `200 units (200 scans) ${TERMO} ${demo.items.termo}`, 'one line of 200', 120_000);
    await page.getByRole('button', { name: 'Apply 200 units to Depósito Palermo' }).click();
    await waitFor(async () => (await termoShown(app, demo.stores.palermo)) === before + 200, 'the 200 units on the cell');
    const rows = await history(app, demo.userProducts.termo, demo.stores.palermo);
    expect(rows).toHaveLength(rowsBefore + 1);
    expect([rows[0]!.delta, rows[0]!.ref, rows[0]!.reason]).toEqual([200, `scan ${demo.items.termo} x200`, 'received']);
    expect(app.errors).toEqual([]);
  }, 300_000);
});

/**
 * What a manager must be able to trust (issue 27 §3), end to end: real headless Chromium, the
 * browser mode's server and the real core over SQLite on the local demo data.
 * - A count session scoped to one store asks about a scanned product outside it: leaving it out
 *   counts nothing, adding it counts it.
 * - The exports' "Last change" notes are in the writer's local time with its offset, never UTC:
 *   the CSV is written by the page (Buenos Aires, -03:00), the .xlsx by the core (this process).
 * - A transfer the source cannot cover is refused in a transfer's words, never an adjustment's.
 * - Local-only, Undo and the count report after Apply say applied, never queued.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../main/desktop/xlsx.js';
import { demo } from '../support/fixtures.js';
import { waitFor } from '../support/wait.js';
import { type BrowserApp, startBrowserApp } from './support/browser.js';
import { runAction } from './support/actions.js';
import { scan } from './support/scanner.js';

// The core runs in this test's own process (vitest's forks pool: one process per file), so the
// .xlsx note follows this zone; Node applies a TZ set at run time. +05:30 differs from the page's
// -03:00 and from UTC, so a note in the wrong zone cannot pass.
process.env.TZ = 'Asia/Kolkata';

const TERMO = 'Termo acero inoxidable 1L';
const YERBA = 'Yerba mate 1kg';
const cell = (page: Page, column: string, product = TERMO) => page.getByRole('gridcell', { name: new RegExp(`^${column}, ${product}:`) });
const notice = (page: Page) => page.locator('.notice-line');
const countStatus = (page: Page) => page.locator('.count-area [role=status]').first();

/** `at` as the wall clock `offset` minutes east of UTC, written independently of the app: `2026-11-23 11:02 -03:00`. */
function wallClock(at: number, offset: number): string {
  const iso = new Date(at + offset * 60_000).toISOString();
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0');
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} ${offset < 0 ? '-' : '+'}${hours}:${minutes}`;
}

describe('what a manager can trust, in Chromium on the demo data (issue 27 §3)', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  }, 120_000);
  afterAll(() => app?.close());

  const shown = async (storeId: string, userProductId: string = demo.userProducts.termo) => {
    const r = await app.core.api.stock.cell({ userProductId, type: 'seller_warehouse', storeId });
    return r.ok ? r.value.shown : null;
  };

  it('the export notes say when in local time with the offset: the CSV in the page’s zone, the .xlsx in the core’s, never UTC', async () => {
    const { page } = app;
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    const before = await shown(demo.stores.avellaneda);
    await cell(page, 'Depósito Avellaneda').click();
    await page.keyboard.type('+3');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await shown(demo.stores.avellaneda)) === before! + 3, 'the adjustment');
    const history = await app.core.api.stock.history({
      userProductId: demo.userProducts.termo,
      type: 'seller_warehouse',
      storeId: demo.stores.avellaneda,
      limit: 1,
    });
    if (!history.ok) throw new Error(history.error.message);
    const [edit] = history.value;
    expect(edit).toMatchObject({ delta: 3 });
    const what = `Depósito Avellaneda: +3 ${edit!.reason!.replace(/_/g, ' ')}`;

    const [csvFile] = await Promise.all([page.waitForEvent('download'), runAction(page, 'Export CSV')]);
    const csv = readFileSync((await csvFile.path())!, 'utf8');
    const termoLine = csv.split('\r\n').find((l) => l.startsWith(`${demo.userProducts.termo},`));
    // The page runs in America/Argentina/Buenos_Aires (-03:00 all year).
    expect(termoLine).toContain(`${what}, ${wallClock(edit!.at, -180)}`);

    const [xlsxFile] = await Promise.all([page.waitForEvent('download'), runAction(page, 'Export Excel')]);
    const sheet = await readWorkbook(readFileSync((await xlsxFile.path())!));
    const lastChange = sheet[0]!.indexOf('Last change');
    const termoRow = sheet.find((r) => r.includes(demo.userProducts.termo))!;
    expect(-new Date(edit!.at).getTimezoneOffset()).toBe(330);
    expect(termoRow[lastChange]).toContain(`${what}, ${wallClock(edit!.at, 330)}`);
    for (const note of [termoLine!, termoRow[lastChange]!]) expect(note).not.toMatch(/\d\d:\d\dZ|\+00:00|UTC/);
  });

  it('a transfer the source cannot cover is refused in the transfer’s own words, never as an adjustment', async () => {
    const { page } = app;
    const palermo = await shown(demo.stores.palermo);
    expect(palermo).toBeLessThan(500);
    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.press('Control+m');
    const dialog = page.getByRole('dialog', { name: `Transfer ${TERMO}` });
    await dialog.getByText(`From Depósito Palermo (has ${palermo})`).waitFor();
    await dialog.getByRole('textbox', { name: 'Units to move' }).fill('500');
    await dialog.getByRole('combobox', { name: 'To store' }).selectOption({ label: 'Depósito Avellaneda' });
    await dialog.getByRole('textbox', { name: 'Units to move' }).press('Enter');
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(`The transfer of 500 would take the source store below 0 (it has ${palermo})`);
    expect(await dialog.textContent()).not.toMatch(/adjustment/i);
    // Nothing moved.
    expect(await shown(demo.stores.palermo)).toBe(palermo);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('Undo on the local data says the correction was applied, never queued', async () => {
    const { page } = app;
    const before = await shown(demo.stores.palermo);
    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.type('-2');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await shown(demo.stores.palermo)) === before! - 2, 'the adjustment');
    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.press('Control+z');
    await notice(page).getByText('Last edit undone: a correction was applied.').waitFor();
    await waitFor(async () => (await shown(demo.stores.palermo)) === before, 'the cell back');
    expect(await notice(page).textContent()).not.toMatch(/queued/i);
  });

  it('a count of one store asks about a product outside it: Leave it out counts nothing, Add counts it; the report after Apply says applied', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Count', exact: true }).click();
    await page.getByRole('tab', { name: 'Count sessions' }).click();
    await page.getByRole('combobox', { name: 'Store' }).selectOption({ label: 'Depósito Palermo' });
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByText('0 of 1 product counted').waitFor();
    const box = page.getByLabel('Scan or type a code, then Enter');
    const choice = page.getByRole('group', { name: 'A product outside this count' });

    // Yerba keeps no stock in Palermo: scanned, nothing is counted until the person chooses.
    await box.focus();
    await scan(page, demo.items.yerba);
    await choice.waitFor();
    expect(await countStatus(page).textContent()).toBe(`! ${YERBA} is not kept in this count's store. Nothing was counted: add it to this count?`);
    await choice.getByRole('button', { name: `Add ${YERBA} and count it` }).waitFor();
    await choice.getByRole('button', { name: 'Leave it out' }).click();
    await choice.waitFor({ state: 'detached' });
    expect(await countStatus(page).textContent()).toBe(`${YERBA} left out of this count.`);
    await page.getByText('0 of 1 product counted').waitFor();
    const lines = page.getByRole('table', { name: 'Products to count in Depósito Palermo' }).getByRole('row');
    expect(await lines.allTextContents()).toEqual(['ProductExpectedCounted', `${TERMO} ${demo.userProducts.termo}${await shown(demo.stores.palermo)}`]);

    // Scanned again and added: it is counted (one scan, one unit), a line of the count.
    await box.focus();
    await scan(page, demo.items.yerba);
    await choice.getByRole('button', { name: `Add ${YERBA} and count it` }).click();
    await waitFor(async () => (await countStatus(page).textContent()) === `${YERBA}: 1 counted.`, 'the added product counted');
    await page.getByText('1 of 2 products counted').waitFor();
    await page.getByRole('textbox', { name: `Counted: ${YERBA}` }).waitFor();
    expect(await page.getByRole('textbox', { name: `Counted: ${YERBA}` }).inputValue()).toBe('1');

    // Termo counted too; Apply on the local data: the counts are applied at once, nothing queued.
    const termoExpected = await shown(demo.stores.palermo);
    const termo = page.getByRole('textbox', { name: `Counted: ${TERMO}` });
    await termo.fill(String(termoExpected! - 1));
    await termo.press('Enter');
    await page.getByText('2 of 2 products counted').waitFor();
    await page.getByRole('button', { name: 'Review the differences' }).click();
    await page.getByRole('button', { name: 'Apply 2 differences' }).click();
    await page.getByRole('heading', { name: 'Count report' }).waitFor();
    await waitFor(async () => (await countStatus(page).textContent()) === 'Applied: 2 counts.', 'the applied notice');
    const report = page.getByRole('table', { name: 'Counted, expected and difference' });
    await waitFor(async () => (await report.getByRole('row').count()) === 3, 'the report rows');
    const rows = await report.getByRole('row').allTextContents();
    expect(rows.slice(1).sort()).toEqual([`${TERMO}${termoExpected! - 1}${termoExpected}-1applied`, `${YERBA}10+1applied`].sort());
    expect(await page.locator('.count-area').textContent()).not.toMatch(/queued/i);
    await waitFor(async () => (await shown(demo.stores.palermo)) === termoExpected! - 1, 'the count in the cell');
    expect(await shown(demo.stores.palermo, demo.userProducts.yerba)).toBe(1);
    expect(app.errors).toEqual([]);
  });
});

/**
 * The desktop app in real Electron on the demo data: the window opens on the stock grid, and an
 * edit made there is still there after the app quits and starts again on the same data folder
 * (the main process closes the database on quit; the next start reads it).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait.js';
import { type RunningApp, launchApp, screenshot, tempDataDir } from './support/electron.js';
import { TERMO, cell, label } from './support/pages.js';

describe('the desktop app in Electron', () => {
  const data = tempDataDir();
  let app: RunningApp | undefined;
  afterAll(async () => {
    await app?.close();
    data.remove();
  });

  it('opens on the demo data, showing the stock grid', async () => {
    app = await launchApp(data.dir);
    const { page } = app;
    await page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    expect(await label(page, 'Depósito Palermo')).toBe(`Depósito Palermo, ${TERMO}: 12, synced`);
    expect(await page.getByRole('tab', { name: 'Stock' }).getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'stock-grid');
    expect(app.errors).toEqual([]);
  });

  it('keeps an edit across a restart', async () => {
    const { page } = app!;
    await cell(page, 'Depósito Palermo').click();
    await page.keyboard.type('20');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await label(page, 'Depósito Palermo')) === `Depósito Palermo, ${TERMO}: 20, synced`, 'the count on screen');
    expect(app!.errors).toEqual([]);
    await app!.close();
    app = undefined;

    app = await launchApp(data.dir);
    await app.page.getByRole('grid', { name: 'Stock per store' }).waitFor();
    await waitFor(async () => (await label(app!.page, 'Depósito Palermo'))?.includes(': 20, synced'), 'the count after the restart');
    expect(await label(app.page, 'Depósito Avellaneda')).toBe(`Depósito Avellaneda, ${TERMO}: 30, synced`);
    await screenshot(app.page, 'stock-after-restart');
    expect(app.errors).toEqual([]);
  });
});

/**
 * What a notification click and the window title do, in Chromium on the real core (browser mode):
 * the shell (main/app.ts) turns a click into `core.reveal(...)`; here the test calls it directly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserApp, startBrowserApp } from './support/browser.js';
import { runAction } from './support/actions.js';

let app: BrowserApp;

beforeAll(async () => {
  app = await startBrowserApp();
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('attention in Chromium', () => {
  it('names the app and the demo data in the title', async () => {
    // Polled from here: a string predicate for waitForFunction is eval'd in the page, which the CSP refuses.
    await expect.poll(() => app.page.title(), { timeout: 30_000 }).toBe('Stockroom — Demo data');
  });

  it('a clicked message notification opens its conversation, from any screen', async () => {
    const page = app.page;
    await page.getByRole('tab', { name: /Brands/ }).click();
    app.core.reveal({ screen: 'conversation', packId: 2000003000001 });
    await page.getByRole('heading', { name: 'Conversation with Martín Gómez' }).waitFor();
    expect(await page.getByRole('tab', { name: /Inbox/ }).getAttribute('aria-selected')).toBe('true');
  });

  it('a clicked conflict notification shows the grid filtered to conflicts', async () => {
    const page = app.page;
    app.core.reveal({ screen: 'conflicts', cell: null });
    await page.locator('#tab-stock[aria-selected="true"]').waitFor();
    // The grid's filter shows conflicts (the demo has none: the empty state says so).
    await runAction(page, 'Show');
    await page.getByRole('combobox', { name: 'Show', exact: true }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Show', exact: true }).inputValue()).toBe('conflict');
    expect(app.errors).toEqual([]);
  });
});

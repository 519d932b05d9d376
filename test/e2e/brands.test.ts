/**
 * Brands end to end: real Chromium, the browser mode, the real core on the demo data. The demo
 * seller has no brands (the marketplace's 404 B00001, shown as a state); the demo brand account
 * (MARCA_AURORA) has two. Links go through the core's openExternal allow-list: the host records
 * what it was asked to open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserApp, startBrowserApp } from './support/browser.js';

const BRAND_ACCOUNT = 'Aurora Oficial (MARCA_AURORA)';
let app: BrowserApp;
const opened: string[] = [];

beforeAll(async () => {
  // The demo brands link to example.com, which the app ships no longer trusting (issue 25): this
  // install adds it, as a deployment adds its marketplace's web domain.
  process.env.STOCKROOM_LINK_HOSTS = 'example.com';
  app = await startBrowserApp({ core: { host: { shell: 'browser', openExternal: async (url: string) => void opened.push(url) } } });
  await app.page.getByRole('tab', { name: 'Brands' }).click();
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('brands in Chromium', () => {
  it('says the seller has no linked brands, then lists the brand account’s brands', async () => {
    const page = app.page;
    await page.getByText('This account has no linked brands (official stores).').waitFor();
    // Not an empty tab (issue 28): the demo's brand account's brands are listed under it.
    const shown = page.getByRole('region', { name: `Brands of ${BRAND_ACCOUNT}, a brand account you can see` });
    await shown.getByRole('button', { name: 'Open the profile of Aurora Kids' }).waitFor();
    expect(await shown.getByRole('button', { name: /Open the profile of/ }).count()).toBe(2);
    // The brand account is picked by name (issue 15 §4), not typed in as a user id.
    await page.getByRole('combobox', { name: 'Account' }).selectOption({ label: `${BRAND_ACCOUNT} · brand account` });
    await page.getByRole('heading', { name: `Brands of ${BRAND_ACCOUNT}` }).waitFor();
    const cards = page.getByRole('button', { name: /Open the profile of/ });
    await cards.first().waitFor();
    expect(await cards.count()).toBe(2);
    expect(await page.locator('.brand-card', { has: page.getByRole('button', { name: 'Open the profile of Aurora', exact: true }) }).textContent()).toContain(
      'Top brand',
    );
    // No network here: the logo cannot load, the initials stand in.
    await page
      .locator('.brand-card', { has: page.getByRole('button', { name: 'Open the profile of Aurora Kids' }) })
      .getByRole('img', { name: 'Logo of Aurora Kids' })
      .getByText('AK')
      .waitFor();
    await app.screenshot('brands-list');
  });

  it('opens a brand profile with the keyboard and shows its facts and links', async () => {
    const page = app.page;
    await page.getByRole('button', { name: 'Open the profile of Aurora', exact: true }).focus();
    await page.keyboard.press('Enter');
    const profile = page.getByRole('region', { name: 'Brand profile' });
    await profile.getByRole('heading', { level: 2, name: 'Aurora' }).waitFor();
    const text = (await profile.textContent()) ?? '';
    for (const expected of [
      'Aurora Deportes',
      'Official store 4021',
      'Top brand',
      'Active',
      'No. 3',
      'Deportes y Fitness (main)',
      'Zapatillas',
      'On since Sep 30, 2026',
      'May 14, 2018',
      'Oct 2, 2026',
    ]) {
      expect(text).toContain(expected);
    }
    await app.screenshot('brands-profile');
    await profile.getByRole('button', { name: /Store page/ }).click();
    await page.getByRole('status').getByText('Opened in your browser.').waitFor();
    expect(opened).toEqual(['https://example.com/aurora']);
    await page.keyboard.press('Escape');
    await page
      .getByRole('button', { name: /Open the profile of/ })
      .first()
      .waitFor();
    // The logos' host (example.com) is not one the page's CSP allows: never asked for, so no refusal either.
    expect(app.errors).toEqual([]);
  });
});

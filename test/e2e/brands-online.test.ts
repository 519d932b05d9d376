/**
 * Brands online end to end (issue 15 §4): real Chromium on the browser mode, and a second real
 * server playing the remote marketplace. The seller shares one official store with the demo brand
 * account (MARCA_AURORA), so the pull mirrors that store and its linked users; the brand account's
 * other stores, and a brand account nobody here is linked to, exist only on the remote. Before the
 * fix these lookups answered "U00002 - The user '…' was not found" from the mirror.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { FixtureFile } from '../../main/fixtures/schema.js';
import { addBrandSeller, brandEntry, demo, demoFixtures } from '../support/fixtures.js';
import { remoteMarketplaceAndApp } from './support/remote.js';

const SHARED_STORE = 4030;
let stranger: { id: number; officialStoreIds: number[] };

function fixtures(): FixtureFile {
  const f = demoFixtures();
  f.brands = [...(f.brands ?? []), brandEntry(SHARED_STORE, [demo.seller.id, demo.brand.id], { fantasy_name: 'Norte y Aurora', categories_ids: ['MLA1403'] })];
  stranger = addBrandSeller(f, { officialStores: 1 });
  return f;
}

const online = remoteMarketplaceAndApp({ fixtures, connectAsDemoSeller: { start: 'account' } });
beforeAll(async () => {
  await online.app.page.reload();
  await online.app.page.getByRole('tab', { name: 'Brands' }).click();
});

describe('brands in Chromium, online', () => {
  it('lists the seller’s own store, and offers the linked accounts by name', async () => {
    const page = online.app.page;
    await page.getByRole('button', { name: 'Open the profile of Norte y Aurora' }).waitFor({ timeout: 30_000 });
    const picker = page.getByRole('combobox', { name: 'Account' });
    await picker.getByRole('option', { name: 'Aurora Oficial (MARCA_AURORA) · brand account' }).waitFor({ state: 'attached', timeout: 20_000 });
    const options = await picker.getByRole('option').allTextContents();
    expect(options[0]).toBe('Lucia Fernández (DEPOSITO_NORTE) (you)');
    expect(options).toContain('Another account…');
    expect(options.join(' ')).not.toMatch(/\d{6,}/);
  });

  it('picking the brand account reads its brands from the marketplace, profile included', async () => {
    const page = online.app.page;
    await page.getByRole('combobox', { name: 'Account' }).selectOption({ label: 'Aurora Oficial (MARCA_AURORA) · brand account' });
    await page.getByRole('heading', { name: 'Brands of Aurora Oficial (MARCA_AURORA)' }).waitFor();
    // 4021 and 4022 are not in the replica: only the marketplace knows them.
    await page.getByRole('button', { name: 'Open the profile of Aurora Kids' }).waitFor();
    expect(await page.getByRole('button', { name: /Open the profile of/ }).count()).toBe(3);
    await page.getByRole('button', { name: 'Open the profile of Aurora Kids' }).click();
    const profile = page.getByRole('region', { name: 'Brand profile' });
    await profile.getByRole('heading', { level: 2, name: 'Aurora Kids' }).waitFor();
    await profile.getByText('Aurora Oficial (MARCA_AURORA) · brand account').waitFor();
    const text = (await profile.textContent()) ?? '';
    expect(text).toContain('Bebés (main)');
    expect(text).not.toMatch(/MLA1384|1780493261/);
    await online.app.screenshot('brands-online-profile');
    await profile.getByRole('button', { name: /Back to the brands/ }).click();
  });

  it('another account, typed in, is looked up on the marketplace and then reads as a name', async () => {
    const page = online.app.page;
    await page.getByRole('combobox', { name: 'Account' }).selectOption({ label: 'Another account…' });
    await page.getByRole('textbox', { name: 'Account (user id)' }).fill(String(stranger.id));
    await page.getByRole('button', { name: 'Show brands' }).click();
    await page.getByRole('heading', { name: /^Brands of Brand Seller \d+ \(BRAND_SELLER_\d+\)$/ }).waitFor();
    expect(await page.getByRole('button', { name: /Open the profile of/ }).count()).toBe(1);
    expect(await page.getByText(/U00002/).count()).toBe(0);
    // The logos are on a host the page's CSP does not allow: never asked for (their initials stand in).
    expect(online.app.errors).toEqual([]);
  });

  it('offline, the mirror answers what it holds', async () => {
    const r = await online.app.core.api.settings.update({ mode: 'offline' });
    expect(r.ok).toBe(true);
    const list = await online.app.core.api.brands.list({ userId: demo.brand.id });
    expect(list.ok && list.value.list?.brands.map((b) => b.official_store_id)).toEqual([SHARED_STORE]);
  });
});

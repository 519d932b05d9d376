// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BrandAccountView, BrandDetailView, BrandListEntryView } from '../../../common/contract/contract.js';
import { BrandsScreen } from '../../../renderer/brands/BrandsScreen.js';
import { categoryName } from '../../../renderer/brands/categories.js';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { AURORA_ENTRY } from '../../support/brand-views.js';
import { type Handlers, fakeApi, ok } from '../../support/fake-api.js';
import { syncStatus } from '../../support/sync-status.js';

/** Issue 15 §4: accounts are picked by name, categories and linked accounts read as names. */
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(cleanup);

const SELLER = 1780493260;
const BRAND_USER = 1780493261;
const STRANGER = 1780493299;

const accounts: BrandAccountView[] = [
  { userId: SELLER, nickname: 'DEPOSITO_NORTE', firstName: 'Lucia', lastName: 'Fernández', self: true, brand: false },
  { userId: BRAND_USER, nickname: 'MARCA_AURORA', firstName: 'Aurora', lastName: 'Oficial', self: false, brand: true },
];
const aurora: BrandListEntryView = { ...AURORA_ENTRY, categories_ids: ['MLA1276', 'MLA109027', 'MLA999999'], main_categories: [{ id: 'MLA1276' }] };
const detail: BrandDetailView = {
  tags: aurora.tags,
  official_store_id: aurora.official_store_id,
  categories_ids: aurora.categories_ids,
  fantasy_name: aurora.fantasy_name,
  users: [
    { cust_id: BRAND_USER, tags: ['brand'], site_id: 'MLA', user_type: 'brand' },
    { cust_id: STRANGER, tags: [], site_id: 'MLA', user_type: 'seller' },
  ],
  site_id: 'MLA',
  status: 'active',
  name: aurora.name,
  date_created: aurora.date_created,
  pictures: [],
  boost: { is_active: false, last_update: null },
  relevance_position: 3,
};
const listOf = (userId: number) => ({ status: 'LINKED', cust_id: userId, site_id: 'MLA', user_type: 'brand', brands: [aurora], tags: [] });

function setup(extra: Handlers['brands'] = {}) {
  const fake = fakeApi({
    brands: {
      list: (q) => ok({ userId: q?.userId ?? SELLER, list: q?.userId ? listOf(q.userId) : null }),
      detail: () => ok(detail),
      accounts: (q) =>
        ok(
          q?.include
            ? q.include.flatMap((id) =>
                id === STRANGER ? [{ userId: STRANGER, nickname: 'OTRA_TIENDA', firstName: '', lastName: '', self: false, brand: false }] : [],
              )
            : accounts,
        ),
      ...extra,
    },
  });
  render(<BrandsScreen api={fake.api} />);
  return fake;
}

describe('brands: the account picker', () => {
  it('offers the linked accounts by name (no id to type); picking one shows its brands under its name', async () => {
    const fake = setup();
    const select = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Account' });
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Lucia Fernández (DEPOSITO_NORTE) (you)', 'Aurora Oficial (MARCA_AURORA) · brand account', 'Another account…']),
    );
    expect(screen.queryByRole('textbox')).toBeNull();
    fireEvent.change(select, { target: { value: String(BRAND_USER) } });
    expect(await screen.findByRole('heading', { name: 'Brands of Aurora Oficial (MARCA_AURORA)' })).toBeTruthy();
    expect(fake.callsTo('brands.list').at(-1)).toEqual({ userId: BRAND_USER });
    // Back to the seller's own account.
    fireEvent.change(select, { target: { value: String(SELLER) } });
    expect(await screen.findByText('This account has no linked brands (official stores).')).toBeTruthy();
    expect(fake.callsTo('brands.list').at(-1)).toBeUndefined();
  });

  it('"Another account…" still takes a user id, and names the account once it is known', async () => {
    const fake = setup();
    const select = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Account' });
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(3));
    fireEvent.change(select, { target: { value: 'other' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Account (user id)' }), { target: { value: String(STRANGER) } });
    fireEvent.click(screen.getByRole('button', { name: 'Show brands' }));
    expect(await screen.findByRole('heading', { name: 'Brands of OTRA_TIENDA' })).toBeTruthy();
    expect(fake.callsTo('brands.accounts').at(-1)).toEqual({ include: [STRANGER] });
  });
});

describe('brands: read again when a pull ends', () => {
  it('the linked accounts the first pull brings appear in the picker without leaving the screen', async () => {
    // Opened before the account's first pull ended: only the seller is in the replica yet.
    let pulled = false;
    const fake = setup({ accounts: () => ok(pulled ? accounts : accounts.slice(0, 1)) });
    const select = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Account' });
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(2));
    pulled = true;
    await act(async () => fake.emit({ type: 'sync.status', status: syncStatus({ lastPullAt: 1_800_000_000_000 }) }));
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toContain('Aurora Oficial (MARCA_AURORA) · brand account'),
    );
    // The list was read again without showing "loading" in between.
    expect(screen.queryByText(/Loading/)).toBeNull();
  });
});

describe('brands: names instead of codes', () => {
  it('categories by name (an unknown one as "Another category"), linked accounts by name and kind', async () => {
    setup();
    const select = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Account' });
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(3));
    fireEvent.change(select, { target: { value: String(BRAND_USER) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Open the profile of Aurora' }));
    const profile = await screen.findByRole('region', { name: 'Brand profile' });
    await within(profile).findByText(/OTRA_TIENDA/);
    const categories = Array.from(profile.querySelectorAll('ul.categories li')).map((li) => li.textContent);
    expect(categories).toEqual(['Deportes y Fitness (main)', 'Zapatillas', 'Another category']);
    const users = Array.from(profile.querySelectorAll('li[data-user]')).map((li) => li.textContent);
    expect(users).toEqual(['Aurora Oficial (MARCA_AURORA) · brand account', 'OTRA_TIENDA · account']);
    expect(profile.textContent).not.toMatch(/1780493261|MLA1276/);
  });

  it('knows the names of the sites’ top categories', () => {
    expect(categoryName('MLA1384')).toBe('Bebés');
    expect(categoryName('MLB1276')).toBe('Esportes e Fitness');
    expect(categoryName('MLA0')).toBeNull();
  });
});

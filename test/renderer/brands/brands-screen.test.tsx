// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BrandDetailView, BrandListEntryView } from '../../../common/contract/contract.js';
import { BrandsScreen } from '../../../renderer/brands/BrandsScreen.js';
import { initials, pictureUrl } from '../../../renderer/brands/pictures.js';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { AURORA_ENTRY } from '../../support/brand-views.js';
import { type Handlers, fail, fakeApi, ok } from '../../support/fake-api.js';

beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(cleanup);

const BRAND_USER = 1780493261;

const aurora = AURORA_ENTRY;
const kids: BrandListEntryView = {
  ...aurora,
  official_store_id: 4022,
  name: 'Aurora Kids  Ñandú',
  fantasy_name: 'Aurora Kids',
  relevance_position: 11,
  tags: [],
  pictures: [],
  categories_ids: ['MLA1384'],
  main_categories: [],
};

const detailOf = (b: BrandListEntryView): BrandDetailView => ({
  tags: b.tags,
  official_store_id: b.official_store_id,
  categories_ids: b.categories_ids,
  fantasy_name: b.fantasy_name,
  users: [{ cust_id: BRAND_USER, tags: ['brand'], site_id: 'MLA', user_type: 'brand' }],
  site_id: b.site_id,
  status: b.status,
  name: b.name,
  date_created: b.date_created,
  pictures: b.pictures,
  boost: b.official_store_id === 4021 ? { is_active: true, last_update: '2026-09-30T10:00:00Z' } : { is_active: false, last_update: null },
  relevance_position: b.relevance_position,
});

const listOf = (brands: BrandListEntryView[]) => ({ status: 'LINKED', cust_id: BRAND_USER, site_id: 'MLA', user_type: 'brand', brands, tags: [] });

function setup(handlers: Handlers) {
  const fake = fakeApi(handlers);
  render(<BrandsScreen api={fake.api} />);
  return fake;
}

/** The page's picture hosts (app.info): the fixtures' logos are on example.com. */
const info = (pictureHosts: string[]) => () =>
  ok({ name: 'Stockroom', version: '0.0.0', shell: 'browser' as const, platform: 'linux', dataDir: '/tmp/x', pictureHosts });
const appInfo = info(['https://example.com']);

const withBrands: Handlers = {
  app: { info: appInfo },
  brands: {
    list: (q) => ok({ userId: q?.userId ?? BRAND_USER, list: listOf([aurora, kids]) }),
    detail: (q) =>
      q.officialStoreId === 4021
        ? ok(detailOf(aurora))
        : q.officialStoreId === 4022
          ? ok(detailOf(kids))
          : fail('B00001', 'B00001 - The brand was not found', 404),
  },
};

describe('brands: list', () => {
  it('shows a card per brand with its logo by picture name, or initials, and TOP_BRAND as a badge', async () => {
    setup(withBrands);
    const buttons = await screen.findAllByRole('button', { name: /Open the profile of/ });
    expect(buttons).toHaveLength(2);
    // The button is the card's name; the card around it shows the rest.
    const cards = buttons.map((b) => b.closest<HTMLElement>('.brand-card'));
    // The picture is asked for once the page's picture hosts are known (app.info).
    await waitFor(() => expect(cards[0]!.querySelector('img')?.src).toBe('https://example.com/img/aurora-logo.png'));
    expect(within(cards[0]!).getByRole<HTMLImageElement>('img', { name: 'Logo of Aurora' }).tagName).toBe('IMG');
    expect(cards[0]!.textContent).toContain('Top brand');
    expect(cards[0]!.textContent).toContain('Active');
    expect(cards[0]!.textContent).toContain('No. 3');
    // The card's name is what it does; what else it shows is its description (issue 28: the words read are the words seen).
    expect(document.getElementById(buttons[0]!.getAttribute('aria-describedby') ?? '')?.textContent).toContain('Top brand');
    const kidsLogo = within(cards[1]!).getByRole('img', { name: 'Logo of Aurora Kids' });
    expect(kidsLogo.tagName).toBe('SPAN');
    expect(kidsLogo.textContent).toBe('AK');
    expect(screen.getByText('2 brands')).toBeTruthy();
  });

  it('never asks for a logo on a host the page may not load: the initials stand in', async () => {
    const fake = setup({ ...withBrands, app: { info: info(['https://http2.mlstatic.com']) } });
    const logo = await screen.findByRole('img', { name: 'Logo of Aurora' });
    await waitFor(() => expect(fake.callsTo('app.info')).toHaveLength(1));
    // The answer is applied (its promise settles inside act) and still nothing is asked for.
    await act(async () => {});
    expect(logo.tagName).toBe('SPAN');
    expect(logo.textContent).toBe('A');
    expect(document.querySelector('img')).toBeNull();
  });

  it('falls back to initials when a logo does not load', async () => {
    setup(withBrands);
    const img = await waitFor(() => {
      const el = screen.getByRole('img', { name: 'Logo of Aurora' });
      expect(el.tagName).toBe('IMG');
      return el;
    });
    fireEvent.error(img);
    const fallback = await screen.findByRole('img', { name: 'Logo of Aurora' });
    expect(fallback.tagName).toBe('SPAN');
    expect(fallback.textContent).toBe('A');
  });

  it('says clearly when the account has no brands (B00001), and can look up another account', async () => {
    const fake = setup({ brands: { list: (q) => ok({ userId: q?.userId ?? 1780493260, list: q?.userId ? listOf([aurora]) : null }) } });
    expect(await screen.findByText('This account has no linked brands (official stores).')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Account (user id)' }), { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show brands' }));
    expect(screen.getByText('Enter a whole number greater than 0.')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Account (user id)' }), { target: { value: String(BRAND_USER) } });
    fireEvent.click(screen.getByRole('button', { name: 'Show brands' }));
    expect(await screen.findByRole('heading', { name: `Brands of user ${BRAND_USER}` })).toBeTruthy();
    expect(fake.callsTo('brands.list').at(-1)).toEqual({ userId: BRAND_USER });
  });

  it('shows loading, then an error in words with a retry', async () => {
    let n = 0;
    setup({ brands: { list: () => (++n === 1 ? fail('internal_error', 'Something went wrong in the app', 500) : ok({ userId: 1, list: listOf([aurora]) })) } });
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    fireEvent.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('1 brand')).toBeTruthy();
  });
});

describe('brands: profile', () => {
  it('shows the profile: names, status, relevance, tags, categories, boost with its date, dates, links', async () => {
    const fake = setup({ ...withBrands, app: { info: appInfo, openExternal: () => ok({ opened: true }) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Open the profile of Aurora' }));
    const profile = await screen.findByRole('region', { name: 'Brand profile' });
    expect(within(profile).getByRole('heading', { level: 2, name: 'Aurora' })).toBeTruthy();
    const text = profile.textContent!;
    expect(text).toContain('Aurora Deportes');
    expect(text).toContain('Official store 4021');
    expect(text).toContain('Top brand');
    expect(text).toContain('No. 3');
    expect(text).toContain('Deportes y Fitness (main)');
    expect(text).not.toContain('MLA1276');
    expect(text).toContain('On since Sep 30, 2026');
    expect(text).toContain('May 14, 2018');
    expect(text).toContain('Oct 2, 2026');
    // The background has only an http address: not loaded (the page allows https images only).
    expect(within(profile).queryByRole('img', { name: 'Background of Aurora' })).toBeNull();
    fireEvent.click(within(profile).getByRole('button', { name: /Store page/ }));
    await waitFor(() => expect(fake.callsTo('app.openExternal')).toEqual([{ url: 'https://example.com/aurora' }]));
    expect((await screen.findByRole('status')).textContent).toContain('Opened in your browser.');
    expect(fake.callsTo('brands.detail')).toEqual([{ officialStoreId: 4021, userId: BRAND_USER }]);
  });

  it('says when a link is not on the allow-list, and goes back with Escape', async () => {
    setup({ ...withBrands, app: { info: appInfo, openExternal: () => fail('forbidden_url', 'This link is not on the list of sites the app opens', 403) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Open the profile of Aurora Kids' }));
    const profile = await screen.findByRole('region', { name: 'Brand profile' });
    await within(profile).findByRole('heading', { level: 2, name: 'Aurora Kids' });
    expect(profile.textContent).toContain('This brand has no pictures.');
    expect(profile.textContent).toContain('Off');
    fireEvent.click(within(profile).getByRole('button', { name: /Landing page/ }));
    expect((await screen.findByRole('alert')).textContent).toContain('This link cannot be opened from the app.');
    fireEvent.keyDown(profile, { key: 'Escape' });
    expect(await screen.findAllByRole('button', { name: /Open the profile of/ })).toHaveLength(2);
  });

  it('shows a clear state for a brand that no longer exists (B00001), not a broken page', async () => {
    setup({
      brands: {
        list: () => ok({ userId: BRAND_USER, list: listOf([{ ...aurora, official_store_id: 4999 }]) }),
        detail: () => fail('B00001', "B00001 - The brand '4999' was not found", 404),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Open the profile of Aurora' }));
    expect((await screen.findByRole('alert')).textContent).toContain('This brand no longer exists or is no longer linked to this account.');
    fireEvent.click(screen.getByRole('button', { name: /Back to the brands/ }));
    expect(await screen.findByRole('button', { name: 'Open the profile of Aurora' })).toBeTruthy();
  });
});

describe('brand pictures (pure helpers)', () => {
  it('use https addresses only and make initials from the first two words', () => {
    expect(pictureUrl({ id: 1, name: 'logo', secure_url: null, url: 'http://x/y.png', size: '' })).toBeNull();
    expect(pictureUrl({ id: 1, name: 'logo', secure_url: null, url: 'https://x/y.png', size: '' })).toBe('https://x/y.png');
    expect(initials('Aurora Kids  Ñandú')).toBe('AK');
    expect(initials('ñandú')).toBe('Ñ');
    expect(initials('  ')).toBe('?');
  });
});

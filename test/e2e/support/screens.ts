/**
 * The main screens of the app in Chromium, opened the way a person does, and the system's light or
 * dark setting (issue 28). Shared by the accessibility audit (test/e2e/a11y.test.ts) and
 * `npm run screenshots` (scripts/screenshots.ts).
 */
import type { Page } from 'playwright-core';
import { waitFor } from '../../support/wait.js';

export type FrameScreen = 'stock' | 'inbox' | 'brands' | 'settings';
export const FRAME_SCREENS: readonly FrameScreen[] = ['stock', 'inbox', 'brands', 'settings'];
export type SchemeName = 'light' | 'dark';
export const SCHEMES: readonly SchemeName[] = ['light', 'dark'];
/** The size of the screens the app is audited and shown at. */
export const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
] as const;
/** The brand account of the demo data (main/fixtures/demo.json): the Brands screen with its cards. */
export const BRAND_ACCOUNT = 'Aurora Oficial (MARCA_AURORA)';

/** --color-bg of renderer/theme/tokens.css in each theme, as the page computes it. */
const BACKGROUND: Record<SchemeName, string> = { light: 'rgb(244, 245, 242)', dark: 'rgb(19, 24, 22)' };

/** The page's background colour, as computed. */
export const pageBackground = (page: Page) => page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');

/** Emulates the system's colour scheme and waits until the page paints in it (the theme follows the system). */
export async function useScheme(page: Page, scheme: SchemeName): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
  await paintedIn(page, scheme);
}

/** Waits until the page paints in the given theme's background. */
export async function paintedIn(page: Page, scheme: SchemeName): Promise<void> {
  await waitFor(async () => (await pageBackground(page)) === BACKGROUND[scheme], `the page in the ${scheme} theme (background ${BACKGROUND[scheme]})`);
}

/** Opens a screen of the frame from its tab and waits for its content (the demo data's). */
export async function openScreen(page: Page, screen: FrameScreen): Promise<void> {
  const tab = { stock: 'Stock', inbox: /^Inbox/, brands: 'Brands', settings: 'Settings' }[screen];
  await page.getByRole('tab', { name: tab }).click();
  if (screen === 'stock') await page.getByRole('gridcell').first().waitFor();
  else if (screen === 'inbox') {
    await page
      .getByRole('navigation', { name: 'Conversations' })
      .getByText(/conversations/)
      .waitFor();
    await page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /Order / })
      .first()
      .click();
    await page.getByRole('list', { name: 'Messages' }).waitFor();
  } else if (screen === 'brands') {
    const account = page.getByRole('combobox', { name: 'Account' });
    await account.waitFor();
    if ((await account.inputValue()) === '' || !(await page.getByRole('heading', { name: `Brands of ${BRAND_ACCOUNT}` }).count())) {
      await account.selectOption({ label: `${BRAND_ACCOUNT} · brand account` });
    }
    await page
      .getByRole('button', { name: /Open the profile of/ })
      .first()
      .waitFor();
  } else await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
}

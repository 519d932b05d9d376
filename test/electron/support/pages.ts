/**
 * Locators of the app's screens, the same roles and names the browser tests (test/e2e) use: the
 * renderer is the same in Electron and in the browser mode.
 */
import type { Locator, Page } from 'playwright-core';

export const TERMO = 'Termo acero inoxidable 1L';

/** A cell of the stock grid by its column (store) and product, as its accessible name starts. */
export const cell = (page: Page, column: string, product = TERMO): Locator => page.getByRole('gridcell', { name: new RegExp(`^${column}, ${product}:`) });

/** The accessible name of a cell ("Depósito Palermo, Termo...: 12, synced"). */
export const label = (page: Page, column: string, product = TERMO): Promise<string | null> => cell(page, column, product).getAttribute('aria-label');

/** A conversation of the inbox's list by its order number. */
export const conversation = (page: Page, order: string): Locator =>
  page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: new RegExp(`Order ${order}`) });

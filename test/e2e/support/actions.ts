/**
 * The stock toolbar's actions by name (issue 28): most are in the File, View and Edit menus, all
 * are in the command palette. `runAction` opens the palette with Ctrl+K, types the name and
 * presses Enter, as a person does; a View control (a store, a filter, saved views) is then focused
 * in the View options panel, ready for the test to use.
 */
import type { Page } from 'playwright-core';

export const palette = (page: Page) => page.getByRole('dialog', { name: 'Command palette' });

/** Opens the palette from the stock screen (Ctrl+K) and waits for its box. */
export async function openPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+K');
  await palette(page).getByRole('combobox', { name: 'Command name' }).waitFor();
}

/** Runs the action named exactly `name` through the palette. */
export async function runAction(page: Page, name: string): Promise<void> {
  await openPalette(page);
  await palette(page).getByRole('combobox', { name: 'Command name' }).fill(name);
  // The exact name is the one chosen (typing "Import" might list others below it).
  const option = palette(page).getByRole('option', { name, exact: true });
  await option.click();
  await palette(page).waitFor({ state: 'detached' });
}

/** The View options panel (a control of it is focused by `runAction(page, 'Store')` and the like). */
export const viewPanel = (page: Page) => page.getByRole('dialog', { name: 'View options' });

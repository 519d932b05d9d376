/**
 * The stock toolbar's actions by name (issue 28): most are in the File, View and Edit menus, all
 * are in the command palette. `runAction` opens the palette with Ctrl+K, types the name and
 * presses Enter, as a person does; a View control (a store, a filter, saved views) is then focused
 * in the View options panel, ready for the test to use.
 */
import type { Page } from 'playwright-core';

/** The palette's own names in the page's language (stock.palette.title, stock.palette.input); English by default. */
export interface PaletteNames {
  title: string;
  input: string;
}
const EN: PaletteNames = { title: 'Command palette', input: 'Command name' };

export const palette = (page: Page, names: PaletteNames = EN) => page.getByRole('dialog', { name: names.title });

/** Opens the palette from the stock screen (Ctrl+K) and waits for its box. */
export async function openPalette(page: Page, names: PaletteNames = EN): Promise<void> {
  await page.keyboard.press('Control+K');
  await palette(page, names).getByRole('combobox', { name: names.input }).waitFor();
}

/** Runs the action named exactly `name` through the palette (found by typing `typed`, its name by default). */
export async function runAction(page: Page, name: string, typed = name, names: PaletteNames = EN): Promise<void> {
  await openPalette(page, names);
  await palette(page, names).getByRole('combobox', { name: names.input }).fill(typed);
  // The exact name is the one chosen (typing "Import" might list others below it).
  const option = palette(page, names).getByRole('option', { name, exact: true });
  await option.click();
  await palette(page, names).waitFor({ state: 'detached' });
}

/** The View options panel (a control of it is focused by `runAction(page, 'Store')` and the like). */
export const viewPanel = (page: Page) => page.getByRole('dialog', { name: 'View options' });

/**
 * Picks an option of a View control (Store, Show, Scans go to, Saved views): opens the View
 * options panel on it through the palette, selects, and closes the panel (Esc), focus back on View.
 */
export async function selectInView(page: Page, name: string, option: string | { label: string }): Promise<void> {
  await runAction(page, name);
  await viewPanel(page).getByRole('combobox', { name, exact: true }).selectOption(option);
  await page.keyboard.press('Escape');
  await viewPanel(page).waitFor({ state: 'detached' });
}

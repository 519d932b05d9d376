/**
 * The language end to end: the settings screen switches Spanish / Portuguese / English at once,
 * the choice is saved by the core and read again after a reload; numbers and dates follow it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserApp, startBrowserApp } from './support/browser.js';

let app: BrowserApp;

beforeAll(async () => {
  app = await startBrowserApp();
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('language and settings in Chromium', () => {
  it('switches to Portuguese in the settings, keeps it after a reload, and the inbox speaks it', async () => {
    const page = app.page;
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('group', { name: 'How the app works' }).waitFor();
    await app.screenshot('settings');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('pt-BR');
    await page.getByRole('heading', { name: 'Configurações' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { lang: string } } }).document.documentElement.lang)).toBe(
      'pt-BR',
    );
    await app.screenshot('settings-pt-BR');

    await page.reload();
    await page.getByRole('tablist').waitFor();
    await page.getByRole('tab', { name: 'Configurações' }).waitFor();
    await page.getByRole('tab', { name: /Mensagens/ }).click();
    await page.getByRole('button', { name: 'Não lidas' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Conversas' })
      .getByRole('button', { name: /Venda 2000009000001/ })
      .click();
    await page.getByRole('heading', { name: 'Conversa com Martín Gómez' }).waitFor();
    // Dates through Intl in Brazilian Portuguese.
    await page
      .getByText(/18 de nov\.? de 2026/)
      .first()
      .waitFor();
    await app.screenshot('inbox-pt-BR');

    await page.getByRole('tab', { name: 'Configurações' }).click();
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('es');
    await page.getByRole('heading', { name: 'Configuración' }).waitFor();
    expect(app.errors).toEqual([]);
  });
});

/**
 * The inbox's search as a seller types it (issue 27), in real Chromium on the browser mode: accents
 * and case do not count in buyer names, nicknames and product titles, and an order is found by its
 * last digits. The demo data, with its buyer renamed João Núñez and one product a lamp.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, demoFixtures } from '../support/fixtures.js';
import { type BrowserApp, startBrowserApp } from './support/browser.js';

let app: BrowserApp;
let dir: string;

beforeAll(async () => {
  const fixtures = demoFixtures();
  const buyer = (fixtures.users ?? []).find((u) => u.id === demo.buyer.id)!;
  Object.assign(buyer, { first_name: 'João', last_name: 'Núñez' });
  const lamp = (fixtures.items ?? []).find((i) => i.id === 'MLA1400000004')!;
  lamp.title = 'Lámpara de pie nórdica';
  dir = mkdtempSync(join(tmpdir(), 'stockroom-e2e-search-'));
  writeFileSync(join(dir, 'fixtures.json'), JSON.stringify(fixtures));
  app = await startBrowserApp({ core: { fixturesFile: join(dir, 'fixtures.json') } });
  await app.page.getByRole('tab', { name: /Inbox/ }).click();
  await app.page.getByRole('navigation', { name: 'Conversations' }).getByText('5 conversations').waitFor();
}, 120_000);

afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const list = () => app.page.getByRole('navigation', { name: 'Conversations' });
/** Types a search and presses Enter, then waits for the list to show `count` (or nothing). */
async function search(text: string, count: string) {
  const box = app.page.getByRole('searchbox', { name: 'Search conversations' });
  await box.fill(text);
  await box.press('Enter');
  await list().getByText(count).waitFor();
}
const orders = async () => (await list().locator('button.conversation .orders').allTextContents()).map((t) => t.replace(/\D+/g, ' ').trim()).sort();

describe('the inbox search in Chromium (issue 27)', () => {
  it('finds the buyer whatever accents and case are typed: nunez, NUÑEZ, joao', async () => {
    for (const typed of ['nunez', 'NUÑEZ', 'joao', 'JOÃO NÚÑEZ']) {
      await search(typed, '5 conversations');
      expect(await list().locator('button.conversation .buyer').first().textContent()).toContain('João Núñez');
    }
  });

  it('finds a product by its title without accents: lampara', async () => {
    await search('lampara', '1 conversation');
    expect(await orders()).toEqual(['2000009000004']);
    await app.screenshot('inbox-search-lampara');
  });

  it('finds an order by its last digits', async () => {
    await search('9000004', '1 conversation');
    expect(await orders()).toEqual(['2000009000004']);
    await search('#00005', '1 conversation');
    expect(await orders()).toEqual(['2000009000005']);
  });

  it('says when nothing matches', async () => {
    await search('nunezz', 'No conversation matches “nunezz”.');
    expect(app.errors).toEqual([]);
  });
});

/**
 * A seller's day in the inbox (issue 15 §2, §3) in real headless Chromium at 1280×720: the browser
 * mode's server, the real core over SQLite with the demo data (local only, moderation runs as the
 * embedded service's job). Search and filters, a template with its fields filled, a draft that
 * survives a reload, 25 files that keep Send on screen, a rejected message edited and sent again,
 * and the words of a blocked conversation.
 */
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait.js';
import { type BrowserApp, startBrowserApp } from './support/browser.js';
import { b64, dropFiles } from './support/inbox.js';

const VIEWPORT = { width: 1280, height: 720 };
// The demo data's five conversations.
const ALL = ['2000003000001', '2000009000002', '2000009000003', '2000009000004', '2000009000005'];
let app: BrowserApp;

async function openInbox() {
  await app.page.getByRole('tab', { name: /Inbox/ }).click();
  await nav()
    .getByText(/conversations?$/)
    .first()
    .waitFor();
}

beforeAll(async () => {
  app = await startBrowserApp({ viewport: VIEWPORT });
  await openInbox();
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const nav = () => app.page.getByRole('navigation', { name: 'Conversations' });
const rows = () => nav().locator('button.conversation');
const conversation = (order: string) => nav().getByRole('button', { name: new RegExp(`Order ${order}`) });
const search = () => nav().getByRole('searchbox', { name: 'Search conversations' });
const box = () => app.page.getByRole('textbox', { name: 'Your reply' });

/** The element is entirely inside the window (not below the fold, not scrolled off). */
async function inViewport(l: Locator) {
  const b = await l.boundingBox();
  expect(b).not.toBeNull();
  expect(b!.y).toBeGreaterThanOrEqual(0);
  expect(b!.x).toBeGreaterThanOrEqual(0);
  expect(b!.y + b!.height).toBeLessThanOrEqual(VIEWPORT.height);
  expect(b!.x + b!.width).toBeLessThanOrEqual(VIEWPORT.width);
  return b!;
}

/** Waits until the list shows exactly these conversations (by pack). */
async function listShows(packs: string[]) {
  await waitFor(
    async () => {
      if ((await rows().count()) !== packs.length) return false;
      for (const p of packs) if ((await nav().locator(`button.conversation[data-pack="${p}"]`).count()) !== 1) return false;
      return true;
    },
    `the list showing ${packs.join(', ')}`,
  );
}

describe('finding conversations', () => {
  it('searches by message text and by order id, and filters blocked and with files', async () => {
    await search().fill('perfecto');
    await listShows(['2000009000002']);
    await search().fill('2000009000005');
    await listShows(['2000009000005']);
    await search().fill('zzz sin resultados');
    await nav().getByText('No conversation matches “zzz sin resultados”.').waitFor();
    await nav().getByRole('button', { name: 'Clear the search' }).click();
    await listShows(ALL);

    await nav().getByRole('button', { name: 'Blocked', exact: true }).click();
    await listShows(['2000009000003', '2000009000004']);
    await nav().getByRole('button', { name: 'With files', exact: true }).click();
    await nav().getByText('No conversation has files.').waitFor();
    await nav().getByRole('button', { name: 'All', exact: true }).click();
    await listShows(ALL);
  });
});

describe('answering', () => {
  it('says nothing about writing in a blocked conversation without messages', async () => {
    await conversation('2000009000003').click();
    await app.page.getByText('No messages in this conversation.', { exact: true }).waitFor();
    expect(await app.page.getByText(/Write the first one below/).count()).toBe(0);
    expect(await box().isDisabled()).toBe(true);
  });

  it('inserts a template with its fields filled from the conversation, from a panel inside the window', async () => {
    const page = app.page;
    await conversation('2000009000005').click();
    await page.getByRole('heading', { name: /Conversation with/ }).waitFor();
    await page.getByRole('button', { name: /Quick replies/ }).click();
    const panel = page.getByRole('group', { name: 'Quick replies' });
    await panel.waitFor();
    await inViewport(panel);
    await panel.getByRole('textbox', { name: 'Name' }).fill('Sale hoy');
    await panel.getByRole('textbox', { name: 'Text' }).fill('Hola {buyer_first_name}, tu {product} (venta {order_id}) sale hoy.');
    await panel.getByRole('button', { name: 'Save quick reply' }).click();
    const reply = panel.locator('li.quick-reply', { hasText: 'Sale hoy' });
    await reply.waitFor();
    expect(await reply.locator('.preview-text').textContent()).toBe('Hola Martín, tu Canasta matera (venta 2000009000005) sale hoy.');
    // The page itself never scrolls: the panel is inside the window.
    expect(await page.evaluate('document.scrollingElement ? document.scrollingElement.scrollTop : 0')).toBe(0);
    await app.screenshot('inbox-day-template');
    await reply.getByRole('button', { name: 'Insert “Sale hoy”' }).click();
    expect(await box().inputValue()).toBe('Hola Martín, tu Canasta matera (venta 2000009000005) sale hoy.');
  });

  it('keeps the draft across a page reload', async () => {
    const page = app.page;
    await box().fill('Borrador: te confirmo mañana');
    // The composer saves the draft in the core after a pause; wait for the core to hold it.
    await waitFor(async () => {
      const r = await app.core.api.messages.drafts();
      return r.ok && r.value.some((d) => d.packId === 2000009000005 && d.text === 'Borrador: te confirmo mañana');
    }, 'the draft kept by the core');
    await page.reload();
    await page.getByRole('tablist').waitFor();
    await openInbox();
    await conversation('2000009000005').click();
    await waitFor(async () => (await box().inputValue()) === 'Borrador: te confirmo mañana', 'the draft back in the reply box');
    await box().fill('');
  });

  it('keeps the thread and Send on screen with 25 files at 1280×720', async () => {
    const page = app.page;
    await conversation('2000009000001').click();
    await page.getByRole('list', { name: 'Messages' }).waitFor();
    await dropFiles(
      page,
      page.locator('.thread'),
      Array.from({ length: 25 }, (_, n) => ({ name: `remito-${n + 1}.txt`, type: 'text/plain', base64: b64(`remito ${n + 1}`) })),
    );
    const files = page.getByRole('list', { name: 'Files to send' });
    await files.getByText('Ready').nth(24).waitFor();
    await box().fill('Te mando los remitos.');
    await inViewport(page.getByRole('button', { name: 'Send', exact: true }));
    const thread = await inViewport(page.locator('.thread'));
    expect(thread.height).toBeGreaterThanOrEqual(120);
    await inViewport(box());
    await app.screenshot('inbox-day-25-files');
    for (let n = 1; n <= 25; n++) await page.getByRole('button', { name: `Remove remito-${n}.txt` }).click();
    expect(await files.count()).toBe(0);
    await box().fill('');
  });

  it('edits a rejected message and sends it again; once the copy is delivered, Edit and resend is gone', async () => {
    const page = app.page;
    await box().fill('Llamame al 11 5555-1234 o escribime a ana@example.com');
    const warnings = page.getByRole('group', { name: 'Before sending' }).getByRole('listitem');
    await waitFor(async () => (await warnings.count()) >= 2, 'both warnings at once');
    // A warned text goes only after a confirmation (issue 27).
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const ask = page.getByRole('alertdialog');
    await ask.getByText(/moderation warnings: the marketplace will probably reject it/).waitFor();
    expect(await page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Llamame al 11 5555-1234' }).count()).toBe(0);
    await ask.getByRole('button', { name: 'Send anyway' }).click();
    const rejected = page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Llamame al 11 5555-1234' });
    await rejected.getByRole('note').waitFor({ timeout: 15_000 });
    await rejected.getByRole('button', { name: 'Edit and resend' }).click();
    expect(await box().inputValue()).toBe('Llamame al 11 5555-1234 o escribime a ana@example.com');
    await box().fill('Te escribo por acá cuando salga.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const copy = page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Te escribo por acá cuando salga.' });
    await copy.getByText('Delivered').waitFor({ timeout: 15_000 });
    await rejected.getByText('Corrected and sent again below.').waitFor();
    expect(await rejected.getByRole('button', { name: 'Edit and resend' }).count()).toBe(0);
    expect(app.errors).toEqual([]);
  });
});

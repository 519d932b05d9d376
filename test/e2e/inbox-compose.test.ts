/**
 * Writing a reply (issue 27), end to end in real Chromium on the browser mode over the demo data:
 * an unfilled template field is named and Send waits; a dangerous file is flagged on drop (not
 * "Ready"); files attached to a draft are back after a reload, and go with the message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait.js';
import { type BrowserApp, startBrowserApp } from './support/browser.js';
import { b64, dropFiles } from './support/inbox.js';

let app: BrowserApp;
const CANASTA = 2000009000005;

const openInbox = async () => {
  await app.page.getByRole('tab', { name: /Inbox/ }).click();
  await nav()
    .getByText(/conversations/)
    .waitFor();
};

beforeAll(async () => {
  app = await startBrowserApp();
  await openInbox();
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const nav = () => app.page.getByRole('navigation', { name: 'Conversations' });
const conversation = (order: string) => nav().getByRole('button', { name: new RegExp(`Order ${order}`) });
const box = () => app.page.getByRole('textbox', { name: 'Your reply' });
const send = () => app.page.getByRole('button', { name: 'Send', exact: true });
const files = () => app.page.getByRole('list', { name: 'Files to send' });

describe('writing a reply in Chromium (issue 27)', () => {
  it('names an unfilled template field and keeps Send disabled until it is replaced', async () => {
    await conversation(String(CANASTA)).click();
    await box().fill('Tu código de seguimiento es {tracking}.');
    await app.page.getByText(/\{tracking\} is a field this app cannot fill/).waitFor();
    expect(await send().isDisabled()).toBe(true);
    await app.screenshot('inbox-compose-unfilled-field');
    await box().fill('Tu código de seguimiento es AR123456789.');
    await waitFor(async () => !(await send().isDisabled()), 'Send enabled once the field is replaced');
    expect(await app.page.getByText(/cannot fill/).count()).toBe(0);
    await box().fill('');
  });

  it('flags setup.exe on drop instead of calling it ready', async () => {
    await dropFiles(app.page, app.page.locator('.thread'), [{ name: 'setup.exe', type: 'application/x-msdownload', base64: b64('MZ\u0090\u0000programa') }]);
    const row = files().getByRole('listitem').filter({ hasText: 'setup.exe' });
    await row.getByText(/Flagged: the buyer is warned that it may be harmful/).waitFor();
    expect(await row.getAttribute('data-flagged')).toBe('true');
    expect(await row.getByText('Ready', { exact: true }).count()).toBe(0);
    await app.screenshot('inbox-compose-flagged');
    await app.page.getByRole('button', { name: 'Remove setup.exe' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('keeps the files attached to a draft across a reload, and sends them with the text', async () => {
    const page = app.page;
    await box().fill('Te mando la factura');
    await dropFiles(page, page.locator('.thread'), [{ name: 'factura.txt', type: 'text/plain', base64: b64('Factura 0001-00001234\n') }]);
    await files().getByText('Ready').waitFor();
    await waitFor(async () => {
      const r = await app.core.api.messages.drafts();
      return r.ok && r.value.some((d) => d.packId === CANASTA && d.files?.some((f) => f.name === 'factura.txt') === true);
    }, 'the draft with its file kept by the core');
    await page.reload();
    await page.getByRole('tablist').waitFor();
    await openInbox();
    await conversation(String(CANASTA)).click();
    await waitFor(async () => (await box().inputValue()) === 'Te mando la factura', 'the draft back in the reply box');
    await files().getByRole('listitem').filter({ hasText: 'factura.txt' }).getByText('Ready').waitFor();
    await app.screenshot('inbox-compose-draft-files');

    await send().click();
    const sent = page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Te mando la factura' });
    await sent.getByRole('list', { name: 'Attachments' }).getByText('factura.txt').waitFor({ timeout: 15_000 });
    await waitFor(async () => {
      const r = await app.core.api.messages.drafts();
      return r.ok && !r.value.some((d) => d.packId === CANASTA);
    }, 'the draft forgotten once sent');
    expect(app.errors).toEqual([]);
  });
});

/**
 * The inbox end to end: real headless Chromium, the browser mode's server, the real desktop core
 * over SQLite with the demo data (local only: the embedded service is the marketplace, its
 * moderation job runs for real).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserApp, startBrowserApp } from './support/browser.js';
import { PNG_1X1, b64, dropFiles } from './support/inbox.js';

let app: BrowserApp;

beforeAll(async () => {
  app = await startBrowserApp();
  await app.page.getByRole('tab', { name: /Inbox/ }).click();
  await app.page
    .getByRole('navigation', { name: 'Conversations' })
    .getByText(/conversations/)
    .waitFor();
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const conversation = (order: string) => app.page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: new RegExp(`Order ${order}`) });

describe('inbox in Chromium', () => {
  it('drops two files on the thread, sends them with a message, and shows the message with its attachments', async () => {
    const page = app.page;
    await conversation('2000009000001').click();
    await page.getByRole('heading', { name: 'Conversation with Martín Gómez' }).waitFor();
    await page.getByRole('list', { name: 'Messages' }).waitFor();
    await app.screenshot('inbox-thread');

    await dropFiles(page, page.locator('.thread'), [
      { name: 'foto.png', type: 'image/png', base64: PNG_1X1 },
      { name: 'factura.txt', type: 'text/plain', base64: b64('Factura 0001-00001234\nTotal: $ 15.000\n') },
    ]);
    const files = page.getByRole('list', { name: 'Files to send' });
    await files.getByText('Ready').nth(1).waitFor();
    expect(await files.getByRole('listitem').count()).toBe(2);

    await page.getByRole('textbox', { name: 'Your reply' }).fill('Te paso la foto y la factura.');
    await app.screenshot('inbox-composer-files');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').getByText('Sent.').waitFor();
    expect(await files.count()).toBe(0);

    const sent = page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Te paso la foto y la factura.' });
    await sent.waitFor();
    await sent.getByRole('img', { name: 'Preview of foto.png' }).waitFor();
    await sent.getByRole('button', { name: 'Save factura.txt' }).waitFor();
    // Moderation runs as a job on the embedded service: the message ends up delivered.
    await sent.getByText('Delivered').waitFor({ timeout: 15_000 });
    const src = await sent.getByRole('img', { name: 'Preview of foto.png' }).getAttribute('src');
    expect(src).toMatch(/^blob:/);
    await app.screenshot('inbox-sent-with-attachments');
  });

  it('refuses a bad file name and a 26th file on drop, and every file is removable', async () => {
    const page = app.page;
    const thread = page.locator('.thread');
    await dropFiles(page, thread, [{ name: 'a\\b.txt', type: 'text/plain', base64: b64('x') }]);
    await page.getByRole('alert').getByText('a\\b.txt: a file name cannot include characters like / or \\.').waitFor();
    await dropFiles(
      page,
      thread,
      Array.from({ length: 26 }, (_, n) => ({ name: `nota-${n + 1}.txt`, type: 'text/plain', base64: b64(`nota ${n + 1}`) })),
    );
    await page.getByRole('alert').getByText('nota-26.txt: a message can carry at most 25 files.').waitFor();
    const files = page.getByRole('list', { name: 'Files to send' });
    expect(await files.getByRole('listitem').count()).toBe(25);
    await files.getByText('Ready').nth(24).waitFor();
    await page.getByRole('button', { name: 'Remove nota-1.txt' }).click();
    expect(await files.getByRole('listitem').count()).toBe(24);
    // Keyboard alone: focus the next remove button and press Enter.
    await page.getByRole('button', { name: 'Remove nota-2.txt' }).focus();
    await page.keyboard.press('Enter');
    expect(await files.getByRole('listitem').count()).toBe(23);
    for (let n = 3; n <= 25; n++) await page.getByRole('button', { name: `Remove nota-${n}.txt` }).click();
    expect(await files.count()).toBe(0);
  });

  it('warns before sending personal data, and shows the rejected message’s reason in words', async () => {
    const page = app.page;
    const box = page.getByRole('textbox', { name: 'Your reply' });
    await box.fill('Escribime a lucia.fernandez@example.com y lo vemos');
    const warning = page.getByRole('group', { name: 'Before sending' });
    await warning.getByText('“lucia.fernandez@example.com” looks like personal data').waitFor();
    await app.screenshot('inbox-composer-warning');
    // Ctrl+Enter sends (the keyboard alone): a warned text asks first (issue 27), a second Ctrl+Enter confirms.
    await box.press('Control+Enter');
    await page.getByRole('alertdialog').getByText('This reply has 1 moderation warning: the marketplace will probably reject it. Send it anyway?').waitFor();
    await box.press('Control+Enter');
    const rejected = page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Escribime a lucia.fernandez@example.com' });
    const note = rejected.getByRole('note');
    await note.waitFor({ timeout: 15_000 });
    expect(await note.locator('p').textContent()).toBe(
      'Rejected: the buyer did not receive this message. It contains personal or contact data (phone, e-mail, ID number, bank account, address).',
    );
    expect(await rejected.getAttribute('data-moderation')).toBe('rejected');
    await app.screenshot('inbox-rejected-reason');
  });

  it('highlights characters outside the allowed set and keeps Send disabled', async () => {
    const page = app.page;
    await page.getByRole('textbox', { name: 'Your reply' }).fill('Sale hoy – te aviso…');
    const marks = page.getByTestId('composer-highlight').locator('mark');
    expect(await marks.allTextContents()).toEqual(['–', '…']);
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Your reply' }).fill('');
  });

  it('explains a blocked conversation and disables its composer', async () => {
    const page = app.page;
    await conversation('2000009000003').click();
    const note = page.getByRole('region', { name: 'Your reply' }).getByRole('note');
    await note.waitFor();
    expect(await note.textContent()).toContain('The order was cancelled: messages can no longer be sent in this conversation.');
    expect(await page.getByRole('textbox', { name: 'Your reply' }).isDisabled()).toBe(true);
    await app.screenshot('inbox-blocked');
    await conversation('2000009000004').click();
    await page.getByText('The purchase is shipped by Full and has not been delivered yet').first().waitFor();
    expect(app.errors).toEqual([]);
  });

  it('filters unread and to reply', async () => {
    const page = app.page;
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    await nav.getByRole('button', { name: 'To reply', exact: true }).click();
    expect(await nav.getByRole('button', { name: 'To reply', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await nav
      .getByText(/conversation/)
      .first()
      .waitFor();
    await nav.getByRole('button', { name: 'All', exact: true }).click();
    await nav.getByText('5 conversations').waitFor();
  });
});

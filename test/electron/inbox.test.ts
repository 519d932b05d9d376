/**
 * The inbox in real Electron on the demo data: a conversation opens and a reply goes out through
 * the preload's bridge and IPC to the embedded service, which moderates and delivers it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, launchApp, screenshot, tempDataDir } from './support/electron.js';
import { conversation } from './support/pages.js';

describe('the inbox in Electron', () => {
  const data = tempDataDir();
  let app: RunningApp;
  beforeAll(async () => {
    app = await launchApp(data.dir);
  });
  afterAll(async () => {
    await app?.close();
    data.remove();
  });

  it('opens a conversation and sends a reply, which is delivered', async () => {
    const { page } = app;
    await page.getByRole('tab', { name: /Inbox/ }).click();
    await conversation(page, '2000009000001').click();
    await page.getByRole('heading', { name: 'Conversation with COMPRADOR_TEST' }).waitFor();
    await page.getByRole('textbox', { name: 'Your reply' }).fill('Hola, sale mañana por la mañana.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').getByText('Sent.').waitFor();
    const sent = page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Hola, sale mañana por la mañana.' });
    await sent.getByText('Delivered').waitFor({ timeout: 15_000 });
    await screenshot(page, 'inbox-sent');
    expect(app.errors).toEqual([]);
  });
});

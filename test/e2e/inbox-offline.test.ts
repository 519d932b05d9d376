/**
 * Sending offline, end to end: real Chromium on the browser mode, and a second real server playing
 * the remote marketplace. The settings screen connects the app (pasted token), the replica is
 * pulled, then the app works offline: replies are queued; back online they are sent, or fail with
 * the marketplace's reason and a retry.
 */
import { describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { demoOrders } from '../support/messages.js';
import { remoteMarketplaceAndApp } from './support/remote.js';

// Not connected: the first test connects through the Settings screen.
const online = remoteMarketplaceAndApp();

async function chooseMode(label: RegExp) {
  const page = online.app.page;
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('radio', { name: label }).check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByRole('status').getByText('Settings saved.').waitFor({ timeout: 20_000 });
}

const remoteTexts = async (pack: number) => {
  const res = await online.remote.as(demo.seller.token).get(`/messages/packs/${pack}/sellers/${demo.seller.id}?mark_as_read=false`);
  return (res.body as { messages: { text: string }[] }).messages.map((m) => m.text);
};

describe('sending offline in Chromium', () => {
  it('connects to the marketplace from the settings screen and pulls the conversations', async () => {
    const page = online.app.page;
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('textbox', { name: 'Marketplace address' }).fill(online.remote.url);
    await page.getByRole('textbox', { name: 'Application id' }).fill(String(demo.app));
    await page.getByRole('textbox', { name: 'Your user id' }).fill(String(demo.seller.id));
    await page.getByLabel('Access token').fill(demo.seller.token);
    await page.getByRole('radio', { name: /Online/ }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Settings saved.').waitFor({ timeout: 20_000 });
    await page.getByText(/Signed in as .* \(pasted token\)/).waitFor();
    expect(await page.getByLabel('Access token').inputValue()).toBe('');
    await page.getByText('A token is stored.').waitFor();

    await page.getByRole('tab', { name: /Inbox/ }).click();
    await page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /Order 2000009000001/ })
      .waitFor({ timeout: 20_000 });
  });

  it('queues replies while offline, sends them back online, and shows a refusal with its reason and a retry', async () => {
    const page = online.app.page;
    await chooseMode(/Offline/);
    // Meanwhile the marketplace cancels an order the replica still thinks is open.
    online.remote.db.prepare("UPDATE orders SET status = 'cancelled' WHERE id = ?").run(demoOrders.delivered.id);

    await page.getByRole('tab', { name: /Inbox/ }).click();
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    const messages = page.getByRole('list', { name: 'Messages' });
    await nav.getByRole('button', { name: /Order 2000009000001/ }).click();
    await page.getByRole('textbox', { name: 'Your reply' }).fill('Sale mañana por la mañana.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').getByText('Queued: it is sent when the app is online.').waitFor();
    await messages.getByRole('listitem').filter({ hasText: 'Sale mañana por la mañana.' }).getByText('Queued: it is sent when the app is online').waitFor();
    await online.app.screenshot('inbox-offline-queued');

    await nav.getByRole('button', { name: /Order 2000009000002/ }).click();
    await page.getByRole('textbox', { name: 'Your reply' }).fill('¿Te llegó bien?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').getByText('Queued: it is sent when the app is online.').waitFor();
    expect(await remoteTexts(demoOrders.packed.pack)).not.toContain('Sale mañana por la mañana.');

    await chooseMode(/Online/);
    await page.getByRole('tab', { name: /Inbox/ }).click();
    const refused = messages.getByRole('listitem').filter({ hasText: '¿Te llegó bien?' });
    await refused
      .getByRole('alert')
      .getByText('Not sent: The order was cancelled: messages can no longer be sent in this conversation.')
      .waitFor({ timeout: 20_000 });
    await refused.getByRole('button', { name: 'Retry' }).waitFor();
    await online.app.screenshot('inbox-offline-failed');
    await refused.getByRole('button', { name: 'Retry' }).click();
    await refused
      .getByRole('alert')
      .getByText('Not sent: The order was cancelled: messages can no longer be sent in this conversation.')
      .waitFor({ timeout: 20_000 });
    await refused.getByRole('button', { name: 'Discard' }).click();
    await refused.waitFor({ state: 'detached' });

    await nav.getByRole('button', { name: /Order 2000009000001/ }).click();
    const sent = messages.getByRole('listitem').filter({ hasText: 'Sale mañana por la mañana.' });
    await sent.getByText('Delivered').waitFor({ timeout: 20_000 });
    expect(await remoteTexts(demoOrders.packed.pack)).toContain('Sale mañana por la mañana.');
    expect(online.app.errors).toEqual([]);
  });
});

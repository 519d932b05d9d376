/**
 * A reply the marketplace refused (issue 27), end to end: real Chromium on the browser mode,
 * connected to a second real server playing the marketplace. The marketplace cancels an order the
 * replica still thinks open; the reply sent there is refused at once. The list says "not sent"
 * (never "queued"), the composer says refused, and the status bar's failed count opens the inbox
 * on that conversation under the "Not sent" filter, not the stock grid. When a stock change failed
 * too, the count asks which (renderer/frame/FailedChooser.tsx) and each choice opens its own.
 */
import { describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { demoOrders } from '../support/messages.js';
import { waitFor } from '../support/wait.js';
import { remoteMarketplaceAndApp } from './support/remote.js';

const online = remoteMarketplaceAndApp({ connectAsDemoSeller: {} });
const TERMO = 'Termo acero inoxidable 1L';

describe('a refused reply in Chromium (issue 27)', () => {
  it('is badged not sent, said refused in the composer, and the status bar count opens its conversation', async () => {
    const page = online.app.page;
    await page.getByRole('tab', { name: /Inbox/ }).click();
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    const row = nav.getByRole('button', { name: /Order 2000009000002/ });
    await row.waitFor({ timeout: 20_000 });
    // Meanwhile the marketplace cancels the order: the replica learns it only from the refusal.
    online.remote.db.prepare("UPDATE orders SET status = 'cancelled' WHERE id = ?").run(demoOrders.delivered.id);

    await row.click();
    await page.getByRole('textbox', { name: 'Your reply' }).fill('¿Te llegó bien?');
    await page.getByRole('button', { name: 'Send' }).click();
    const composer = page.getByRole('region', { name: 'Your reply' });
    await composer.getByRole('alert').getByText('Not sent: the marketplace refused it.', { exact: false }).waitFor({ timeout: 20_000 });
    await row.locator('.badge.failed').getByText('1 not sent').waitFor();
    expect(await row.locator('.badge.queued').count()).toBe(0);
    expect(await page.getByText('Queued: it is sent when the app is online').count()).toBe(0);
    await online.app.screenshot('inbox-failed-badge');

    // From the stock screen, the failed count leads to the conversation, not to an empty grid.
    await page.getByRole('tab', { name: 'Stock' }).click();
    await page.getByRole('button', { name: '1 failed' }).click();
    await page.getByRole('tab', { name: /Inbox/, selected: true }).waitFor();
    await nav.getByRole('button', { name: 'Not sent', pressed: true }).waitFor();
    await nav.getByText('1 conversation').waitFor();
    await page
      .getByRole('list', { name: 'Messages' })
      .getByRole('listitem')
      .filter({ hasText: '¿Te llegó bien?' })
      .getByRole('button', { name: 'Retry' })
      .waitFor();
    expect(await page.getByText('No product matches these filters').count()).toBe(0);
    await online.app.screenshot('inbox-failed-status-bar');
    expect(online.app.errors).toEqual([]);
  });

  it('with a stock change refused too, the count asks which, and each choice opens its own', async () => {
    const page = online.app.page;
    const palermo = page.getByRole('gridcell', { name: new RegExp(`^Depósito Palermo, ${TERMO}:`) });
    // Someone empties Palermo on the marketplace; the replica does not know yet, so -3 there is refused after a re-read.
    const seller = online.remote.as(demo.seller.token);
    const stock = await seller.get(`/user-products/${demo.userProducts.termo}/stock`);
    const put = await seller.put(
      `/user-products/${demo.userProducts.termo}/stock/type/seller_warehouse`,
      { locations: [{ store_id: demo.stores.palermo, quantity: 0 }] },
      { 'x-version': stock.headers.get('x-version')! },
    );
    expect(put.status).toBe(200);
    await page.getByRole('tab', { name: 'Stock' }).click();
    await palermo.click();
    await page.keyboard.type('-3');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await palermo.getAttribute('aria-label'))?.includes(': 0, failed'), 'the refused stock change');

    const failedCount = page.locator('.status-bar').getByRole('button', { name: '2 failed' });
    const chooser = page.getByRole('dialog', { name: 'What was not sent' });
    await failedCount.click();
    await chooser.getByRole('button', { name: '1 stock change' }).waitFor();
    await chooser.getByRole('button', { name: '1 reply' }).waitFor();
    await online.app.screenshot('failed-chooser');
    // Esc closes it where it was.
    await page.keyboard.press('Escape');
    await chooser.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Stock', selected: true }).waitFor();

    // The replies: the inbox at the refused reply's conversation, under 'Not sent'.
    await failedCount.click();
    await chooser.getByRole('button', { name: '1 reply' }).click();
    await chooser.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: /Inbox/, selected: true }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    await nav.getByRole('button', { name: 'Not sent', pressed: true }).waitFor();
    await page
      .getByRole('list', { name: 'Messages' })
      .getByRole('listitem')
      .filter({ hasText: '¿Te llegó bien?' })
      .getByRole('button', { name: 'Retry' })
      .waitFor();

    // The stock changes, from the keyboard (the first choice has the focus): the grid's failed cell and its reason.
    await failedCount.click();
    await chooser.getByRole('button', { name: '1 stock change' }).waitFor();
    await page.keyboard.press('Enter');
    await chooser.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Stock', selected: true }).waitFor();
    const reason = page.getByRole('dialog', { name: `Not applied: Depósito Palermo, ${TERMO}` });
    await reason.getByText(/would take the stock below 0/).waitFor();
    expect(online.app.errors).toEqual([]);
  });
});

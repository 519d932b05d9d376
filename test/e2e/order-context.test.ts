/**
 * Order context end to end (issue 15 §1): real Chromium on the browser mode, and a second real
 * server playing the remote marketplace. The app is connected to it (pasted token, online), the
 * pull mirrors the orders with their lines, amounts and shipments, and the inbox shows the buyer's
 * name and the product in the list, and product, quantity, status, shipping and buyer in the side
 * panel.
 */
import { describe, expect, it } from 'vitest';
import { demoOrders } from '../support/messages.js';
import { remoteMarketplaceAndApp } from './support/remote.js';

const online = remoteMarketplaceAndApp({ connectAsDemoSeller: { start: 'account' } });

describe('order context in Chromium, online', () => {
  it('the list shows the buyer by name and the product, read from the remote', async () => {
    const page = online.app.page;
    await page.reload();
    await page.getByRole('tab', { name: /Inbox/ }).click();
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    const packed = nav.getByRole('button', { name: /Order 2000009000001/ });
    await packed.waitFor({ timeout: 30_000 });
    await packed.getByText('Termo acero inoxidable 1L').waitFor({ timeout: 20_000 });
    expect(await packed.locator('.buyer').textContent()).toBe('Martín Gómez');
    expect(await nav.getByRole('button', { name: /Order 2000009000004/ }).textContent()).toContain('Bombilla alpaca');
  });

  it('the side panel shows product, quantity, status, shipping and buyer', async () => {
    const page = online.app.page;
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    await nav.getByRole('button', { name: /Order 2000009000004/ }).click();
    const panel = page.getByRole('complementary', { name: 'Order' });
    const order = panel.getByRole('region', { name: `Order ${demoOrders.fulfillment.id}` });
    await order.waitFor();
    const text = (await order.textContent()) ?? '';
    for (const expected of ['Bombilla alpaca', '2 units', 'Paid', 'Full (the marketplace ships it) · not delivered yet', 'Nov 20, 2026']) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/ARS\s?17,998\.00/);
    expect(await panel.locator('.order-buyer').textContent()).toBe('Martín Gómez (COMPRADOR_TEST)');
    // No picture on the remote's item: its initial stands in, never a broken image.
    expect(await order.locator('.order-picture.none').textContent()).toBe('B');
    await online.app.screenshot('order-context-panel');

    await nav.getByRole('button', { name: /Order 2000009000003/ }).click();
    const cancelled = panel.getByRole('region', { name: `Order ${demoOrders.cancelled.id}` });
    await cancelled.waitFor();
    const cancelledText = (await cancelled.textContent()) ?? '';
    expect(cancelledText).toContain('Cancelled');
    expect(cancelledText).toContain('Collection (picked up from your warehouse) · no shipment');
    expect(cancelledText).toContain('Mate de calabaza con bombilla');
    expect(online.app.errors).toEqual([]);
  });
});

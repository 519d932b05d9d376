/**
 * Connecting the app under test to a remote marketplace (a second real server, test/support/server.ts)
 * as the demo data's seller, the way the Settings screen does, through the core's own API.
 */
import { demo } from '../../support/fixtures.js';
import type { BrowserApp } from './browser.js';

/** Settings → online against `baseUrl` with the demo seller's token; throws with the core's reason if refused. */
export async function connectAsDemoSeller(app: BrowserApp, baseUrl: string, o: { start?: 'account' } = {}): Promise<void> {
  const r = await app.core.api.settings.update({
    mode: 'online',
    baseUrl,
    applicationId: demo.app,
    userId: demo.seller.id,
    accessToken: demo.seller.token,
    ...o,
  });
  if (!r.ok) throw new Error(`connecting to ${baseUrl} failed: ${r.error.message}`);
}

/**
 * The truth about the connection in real Chromium (issue 27): the app connected to a second real
 * server through the fault proxy, whose network black-holes, then resets, then comes back. The
 * status bar says since when the marketplace cannot be reached while the edit waits, safe, and
 * says Online again once the edit is sent.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { FAST_RETRY } from '../support/sync-harness.js';
import { waitFor } from '../support/wait.js';
import { remoteMarketplaceAndApp, remoteTermoQuantity } from './support/remote.js';

const TERMO = 'Termo acero inoxidable 1L';
const cell = (page: Page) => page.getByRole('gridcell', { name: new RegExp(`^Depósito Palermo, ${TERMO}:`) });
const label = (page: Page) => cell(page).getAttribute('aria-label');
const bar = async (page: Page) => ((await page.locator('.status-bar').textContent()) ?? '').replace(/\s+/g, ' ');

// Short reachability timings so the flow takes seconds; a transient failure's backoff stays long
// (an hour): sending again after the network returns cannot be the end of a backoff.
const online = remoteMarketplaceAndApp({
  throughProxy: true,
  connectAsDemoSeller: {},
  engine: {
    pollIntervalMs: 0,
    retry: { ...FAST_RETRY, baseMs: 3_600_000, maxMs: 3_600_000, offlineProbeMinMs: 20, offlineProbeMaxMs: 100, probeTimeoutMs: 1000, stallMs: 300 },
  },
});

describe('the status bar and an unreachable marketplace', () => {
  it('a black hole, then resets: "Can’t reach the marketplace since …", the edit kept; the network back: Online, the edit sent', async () => {
    const { app, proxy, remote } = online;
    const { page } = app;
    // Connected, and the first pull of the account is over (until then the demo data's grid may still show).
    await waitFor(() => app.core.status()?.lastPullAt, 'the first pull of the account');
    await waitFor(async () => (await bar(page)).includes('● Online'), 'Online in the status bar');
    await waitFor(async () => (await label(page)) === `Depósito Palermo, ${TERMO}: 12, synced`, 'the replica in the grid');

    proxy.setNetwork('blackhole');
    await cell(page).click();
    await page.keyboard.type('+5');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await bar(page)).includes('Can’t reach the marketplace since'), 'the status bar to say the marketplace cannot be reached');
    // Since when, in the page's local time (the browser context's zone), as the core recorded it.
    const since = app.core.status()?.unreachableSince;
    expect(since).toEqual(expect.any(Number));
    const hhmm = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'America/Argentina/Buenos_Aires' });
    const words = `○ Can’t reach the marketplace since ${hhmm.format(since!)} — your changes are safe here`;
    await waitFor(async () => (await bar(page)).includes('1 pending'), 'the edit counted as pending');
    const text = await bar(page);
    expect(text).toContain(words);
    expect(text).not.toContain('sending');
    // The edit is kept here; the remote does not have it.
    expect(await label(page)).toMatch(new RegExp(`^Depósito Palermo, ${TERMO}: 17, `));
    expect(await remoteTermoQuantity(remote, demo.stores.palermo)).toBe(12);
    await app.screenshot('status-unreachable');

    // Resets now: still unreachable, since the same time.
    const before = proxy.log.length;
    proxy.setNetwork('reset');
    await waitFor(() => proxy.log.slice(before).filter((l) => l.fault === 'drop').length >= 2, 'two probes cut by the resets');
    expect(await bar(page)).toContain(words);
    expect(app.core.status()?.unreachableSince).toBe(since);

    // The network returns: the next probe finds the marketplace, the edit goes, the bar says Online.
    proxy.setNetwork('up');
    await waitFor(async () => (await remoteTermoQuantity(remote, demo.stores.palermo)) === 17, 'the edit on the remote');
    await waitFor(async () => (await label(page)) === `Depósito Palermo, ${TERMO}: 17, synced`, 'the synced cell');
    await waitFor(async () => (await bar(page)).includes('● Online'), 'Online again in the status bar');
    expect(await bar(page)).not.toContain('Can’t reach');
    // One edit, one key: the swallowed request and its resend.
    const puts = proxy.log.filter((l) => l.method === 'PUT');
    expect(new Set(puts.map((l) => l.key)).size).toBe(1);
    expect(app.errors).toEqual([]);
  });
});

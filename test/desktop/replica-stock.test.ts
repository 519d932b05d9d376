import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../main/desktop/xlsx.js';
import { demo } from '../support/fixtures.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { FAST_RETRY } from '../support/sync-harness.js';
import { failure, openCore, value } from './helpers.js';

/**
 * A replica of a real remote (issue 14). §7 online: the pull mirrors each item's inventory id and shipping.logistic_type from a
 * real remote, so a selling-address cell the marketplace would refuse shows its lock before the
 * edit, as on demo data, and an edit of it is refused before anything is queued. §6: the .xlsx
 * export lists the queued edits with their reasons.
 */
let remote: TestServer;
beforeAll(async () => {
  remote = await startTestServer();
});
afterAll(async () => {
  await remote.close();
});

const NO_INVENTORY_ID = 'You cannot modify selling address stock in items without inventory id.';

describe('selling-address locks on a replica', () => {
  it('shows the lock after a pull and refuses the edit with the marketplace’s words, the outbox staying empty', async () => {
    const c = await openCore({ engine: { pollIntervalMs: 0, pullOnStart: false, retry: FAST_RETRY } });
    const api = c.core.api;
    try {
      value(
        await api.settings.update({ baseUrl: remote.url, applicationId: demo.app, userId: demo.seller.id, accessToken: demo.seller.token, mode: 'online' }),
      );
      value(await api.sync.pullNow());
      const bombilla = { userProductId: demo.userProducts.bombilla, type: 'selling_address' as const };
      const grid = value(await api.stock.grid());
      const row = (id: string) => grid.rows.find((r) => r.userProductId === id)!;
      expect(row(demo.userProducts.bombilla).cells.selling_address).toMatchObject({
        editable: false,
        lock: { reason: 'no_inventory_id', message: NO_INVENTORY_ID },
      });
      // Fulfillment with local delivery and an inventory id: editable online too.
      expect(row(demo.userProducts.mate).cells.selling_address).toMatchObject({ editable: true, lock: null });
      expect(value(await api.stock.cell(bombilla)).lock).toMatchObject({ reason: 'no_inventory_id' });

      expect(failure(await api.stock.count({ ...bombilla, quantity: 3 }))).toMatchObject({ message: NO_INVENTORY_ID, status: 400 });
      expect(failure(await api.stock.adjust({ ...bombilla, delta: 1 }))).toMatchObject({ message: NO_INVENTORY_ID });
      expect(value(await api.outbox.list()).entries).toEqual([]);
    } finally {
      await c.close();
    }
  });
});

describe('reasons in the .xlsx export of a replica', () => {
  it('writes each queued edit with its change and reason in the Pending column, which the import does not read as a store', async () => {
    const c = await openCore({ engine: { pollIntervalMs: 0, pullOnStart: false, retry: FAST_RETRY } });
    const api = c.core.api;
    try {
      value(
        await api.settings.update({ baseUrl: remote.url, applicationId: demo.app, userId: demo.seller.id, accessToken: demo.seller.token, mode: 'online' }),
      );
      value(await api.sync.pullNow());
      // Offline, so the edits stay queued.
      value(await api.settings.update({ mode: 'offline' }));
      const palermo = { userProductId: demo.userProducts.termo, type: 'seller_warehouse' as const, storeId: demo.stores.palermo };
      value(await api.stock.adjust({ ...palermo, delta: -2, reason: 'damaged' }));
      value(await api.stock.adjust({ ...palermo, delta: 4, reason: 'received' }));
      const rows = await readWorkbook(value(await api.stock.exportXlsx({ store: demo.stores.palermo })).bytes);
      expect(rows[0]).toEqual(['Item ID', 'User product ID', 'SKU', 'Title', `Depósito Palermo [${demo.stores.palermo}]`, 'Total', 'Pending', 'Last change']);
      const termo = rows.find((r) => r[1] === demo.userProducts.termo)!;
      // The SKU as the pull mirrored it (the item's SELLER_SKU attribute).
      expect(termo[2]).toBe('TERM-1L');
      expect(termo.slice(4)).toEqual([
        '14',
        '14',
        'Depósito Palermo: -2 damaged, +4 received',
        expect.stringMatching(/^Depósito Palermo: \+4 received, \d{4}-\d\d-\d\d \d\d:\d\d [+-]\d\d:\d\d$/),
      ]);
      expect(
        rows
          .slice(1)
          .filter((r) => r[1] !== demo.userProducts.termo)
          .every((r) => (r[6] ?? '') === ''),
      ).toBe(true);
    } finally {
      await c.close();
    }
  });
});

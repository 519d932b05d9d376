import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DesktopCore } from '../../main/desktop/core.js';
import { demo } from '../support/fixtures.js';
import { failure, openCore, value } from './helpers.js';

const { termo } = demo.userProducts;
const { palermo, avellaneda } = demo.stores;

/** What the core says of a transfer it refuses and of an undo where nothing is queued (issue 27), local-only. */
describe('the words of transfers and undo where the app is the marketplace', () => {
  let c: Awaited<ReturnType<typeof openCore>>;
  let api: DesktopCore['api'];
  beforeEach(async () => {
    c = await openCore();
    api = c.core.api;
  });
  afterEach(() => c.close());

  it("a transfer of more than the source holds is refused as a transfer, never as 'the adjustment of -500'", async () => {
    const e = failure(await api.stock.transfer({ userProductId: termo, fromStoreId: palermo, toStoreId: avellaneda, units: 500 }));
    expect(e).toMatchObject({ code: 'bad_request', message: 'The transfer of 500 would take the source store below 0 (it has 12)' });
  });

  it('an undo says the correction was applied, not queued: nothing is queued here', async () => {
    value(await api.stock.adjust({ userProductId: termo, type: 'seller_warehouse', storeId: palermo, delta: 2, reason: 'received' }));
    expect(value(await api.stock.undo())).toMatchObject({ how: 'reversed', userProductId: termo });
    expect(value(await api.stock.cell({ userProductId: termo, type: 'seller_warehouse', storeId: palermo })).shown).toBe(12);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DesktopCore } from '../../main/desktop/core.js';
import { demo } from '../support/fixtures.js';
import { failure, value } from './helpers.js';

/** The `counts` calls through the desktop core (local-only on the demo data), and a restart of the core mid-count. */
describe('count sessions through the core', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stockroom-counts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const open = () => DesktopCore.open({ dataDir: dir, jobPollMs: 20, log: () => undefined });

  it('starts, counts, survives a restart half-done, reviews and applies; the grid then shows the counts', async () => {
    let core = await open();
    const s = value(await core.api.counts.start({ storeId: demo.stores.palermo, blind: true }));
    value(await core.api.counts.scan({ sessionId: s.id, code: demo.items.termo }));
    value(await core.api.counts.scan({ sessionId: s.id, code: demo.items.termo }));
    expect(failure(await core.api.counts.scan({ sessionId: s.id, code: 'NO-SUCH-CODE-1' }))).toMatchObject({
      code: 'not_found',
      message: 'Nothing matches the code NO-SUCH-CODE-1',
    });
    expect(failure(await core.api.counts.scan({ sessionId: s.id, code: '' })).code).toBe('bad_request');
    await core.close();

    core = await open();
    try {
      expect(value(await core.api.counts.list())[0]).toMatchObject({ id: s.id, state: 'open', counted: 1, blind: true });
      const page = value(await core.api.counts.get({ sessionId: s.id }));
      expect(page.lines).toEqual([expect.objectContaining({ userProductId: demo.userProducts.termo, counted: 2, expected: null })]);
      value(await core.api.counts.scan({ sessionId: s.id, code: demo.userProducts.termo, quantity: 5 }));
      const review = value(await core.api.counts.review({ sessionId: s.id }));
      expect(review.lines).toEqual([expect.objectContaining({ counted: 7, expected: 12, difference: -5, moved: false })]);
      const applied = value(await core.api.counts.apply({ sessionId: s.id }));
      expect(applied.session.state).toBe('applied');
      expect(applied.lines[0]).toMatchObject({ outcome: 'applied', current: 7 });
      expect(value(await core.api.stock.cell({ userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId: demo.stores.palermo })).shown).toBe(
        7,
      );
      const history = value(await core.api.stock.history({ userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId: demo.stores.palermo }));
      expect(history[0]).toMatchObject({ kind: 'count', from_quantity: 12, to_quantity: 7, ref: `count session ${s.id}` });
      // Applied once; an applied session no longer counts.
      expect(failure(await core.api.counts.apply({ sessionId: s.id })).code).toBe('conflict');
      expect(failure(await core.api.counts.scan({ sessionId: s.id, code: demo.items.termo })).code).toBe('conflict');
      // Cancelled sessions stay listed, nothing applied.
      const t = value(await core.api.counts.start({ storeId: demo.stores.avellaneda }));
      value(await core.api.counts.set({ sessionId: t.id, userProductId: demo.userProducts.termo, counted: 1 }));
      expect(value(await core.api.counts.cancel({ sessionId: t.id })).state).toBe('cancelled');
      expect(
        value(await core.api.stock.cell({ userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId: demo.stores.avellaneda })).shown,
      ).toBe(30);
      expect(failure(await core.api.counts.get({ sessionId: 999 })).code).toBe('not_found');
    } finally {
      await core.close();
    }
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DesktopCore } from '../../main/desktop/core.js';
import { demo } from '../support/fixtures.js';
import { failure, value } from './helpers.js';

/**
 * Scan to count's tally through the desktop core on a real SQLite file (issue 27): it survives a
 * restart of the core, undo takes the newest scan out, and Apply writes one adjustment per product
 * and empties the tally in one transaction, all or nothing. On a replica, and killed mid-Apply:
 * scan-tally-replica.test.ts.
 */
const termo = demo.userProducts.termo;
const palermo = { userProductId: termo, type: 'seller_warehouse' as const, storeId: demo.stores.palermo };

describe('the tally on the local demo data', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stockroom-tally-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const open = () => DesktopCore.open({ dataDir: dir, jobPollMs: 20, log: () => undefined });

  it('survives a core restart, undoes the last scan, and applies one adjustment per product with its total and the operator', async () => {
    let core = await open();
    const ana = value(await core.api.operators.add({ name: 'Ana', pin: '2468' })).operators.find((o) => o.name === 'Ana')!;
    value(await core.api.operators.switch({ id: ana.id, pin: '2468' }));
    const storeId = demo.stores.palermo;
    for (let i = 0; i < 3; i++) value(await core.api.tally.add({ storeId, code: demo.items.termo }));
    const unknown = value(await core.api.tally.add({ storeId, code: 'NO-SUCH-CODE-1', quantity: 4 }));
    expect(unknown.scan).toMatchObject({ outcome: 'unknown', userProductId: null, delta: 4, operator: 'Ana' });
    // Another store's tally is its own.
    value(await core.api.tally.add({ storeId: demo.stores.avellaneda, code: demo.items.termo }));
    await core.close();

    core = await open();
    try {
      const kept = value(await core.api.tally.list({ storeId }));
      expect(kept.lines.map((l) => [l.key, l.outcome, l.scans, l.units])).toEqual([
        [termo, 'ok', 3, 3],
        ['code:NO-SUCH-CODE-1', 'unknown', 1, 4],
      ]);
      expect(kept.last).toMatchObject({ code: 'NO-SUCH-CODE-1', outcome: 'unknown' });
      expect(kept.scans).toBe(4);
      expect(value(await core.api.tally.list({ storeId: demo.stores.avellaneda })).lines).toEqual([
        expect.objectContaining({ userProductId: termo, units: 1 }),
      ]);

      // Undo takes the newest scan out (the unknown code), once each time.
      const undone = value(await core.api.tally.undo({ storeId }));
      expect(undone.undone).toMatchObject({ code: 'NO-SUCH-CODE-1' });
      expect(undone.tally.lines.map((l) => l.key)).toEqual([termo]);
      value(await core.api.tally.add({ storeId, code: demo.userProducts.termo, quantity: 5 }));

      // Apply records the operator signed in when it is applied.
      value(await core.api.operators.switch({ id: ana.id, pin: '2468' }));
      const applied = value(await core.api.tally.apply({ storeId }));
      expect(applied).toMatchObject({ products: 1, units: 8, tally: { lines: [], last: null, scans: 0 } });
      expect(value(await core.api.stock.cell(palermo)).shown).toBe(12 + 8);
      const history = value(await core.api.stock.history(palermo));
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ from_quantity: 12, to_quantity: 20, reason: 'received', ref: `scan ${demo.items.termo} x4`, operator_name: 'Ana' });
      // Applied once: nothing left to apply, and the other store's tally untouched.
      expect(value(await core.api.tally.apply({ storeId }))).toMatchObject({ products: 0, units: 0 });
      expect(value(await core.api.stock.history(palermo))).toHaveLength(1);
      expect(value(await core.api.tally.list({ storeId: demo.stores.avellaneda })).scans).toBe(1);
      expect(value(await core.api.tally.clear({ storeId: demo.stores.avellaneda })).lines).toEqual([]);
    } finally {
      await core.close();
    }
  });

  it('a refused line refuses the whole Apply, named: nothing applied, the tally kept', async () => {
    const core = await open();
    try {
      const storeId = demo.stores.avellaneda;
      value(await core.api.tally.add({ storeId, code: demo.items.termo, quantity: 2 }));
      // Two scans of a million: an adjustment over the marketplace's limit.
      value(await core.api.tally.add({ storeId, code: demo.items.yerba, quantity: 1_000_000 }));
      value(await core.api.tally.add({ storeId, code: demo.items.yerba, quantity: 1_000_000 }));
      const before = value(await core.api.tally.list({ storeId }));
      const refused = failure(await core.api.tally.apply({ storeId }));
      expect(refused.code).toBe('bad_request');
      expect(refused.message).toContain(before.lines[1]!.title!);
      expect(value(await core.api.tally.list({ storeId }))).toEqual(before);
      const termoHere = { ...palermo, storeId };
      expect(value(await core.api.stock.history(termoHere))).toEqual([]);
      expect(value(await core.api.stock.cell(termoHere)).shown).toBe(30);
      expect(failure(await core.api.tally.add({ storeId, code: '' })).code).toBe('bad_request');
    } finally {
      await core.close();
    }
  });
});

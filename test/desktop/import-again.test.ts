import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedOf } from '../../common/contract/contract.js';
import type { DesktopCore } from '../../main/desktop/core.js';
import { demo } from '../support/fixtures.js';
import { failure, openCore, value } from './helpers.js';

const { termo } = demo.userProducts;
const { palermo, avellaneda } = demo.stores;
type Changes = ParsedOf<'stock', 'importApply'>['changes'];

const file: Changes = [
  { userProductId: termo, type: 'seller_warehouse', storeId: palermo, line: 2, kind: 'adjust', delta: 5 },
  { userProductId: termo, type: 'seller_warehouse', storeId: avellaneda, line: 3, kind: 'count', quantity: 31 },
];
const digest = 'a'.repeat(64);

/**
 * The same file imported twice (issue 27): the second Apply is refused with when and by whom it
 * was applied, changes nothing, and goes through once the person confirms (`again`). A file is known
 * by its bytes' digest or by its changes, whatever their order, lines or name. Local-only, through the core.
 */
describe('importing a file applied before', () => {
  let c: Awaited<ReturnType<typeof openCore>>;
  let api: DesktopCore['api'];
  beforeEach(async () => {
    c = await openCore();
    api = c.core.api;
  });
  afterEach(() => c.close());
  const shown = async (storeId: string) => value(await api.stock.cell({ userProductId: termo, type: 'seller_warehouse', storeId })).shown;

  it('asks before applying the same changes again (same rows in another order, another name), and applies them once confirmed', async () => {
    value(await api.operators.add({ name: 'Ana', pin: '1234' }));
    const ana = value(await api.operators.list()).operators.find((o) => o.name === 'Ana')!;
    value(await api.operators.switch({ id: ana.id, pin: '1234' }));
    expect(value(await api.stock.importApply({ name: 'conteo.csv', fileDigest: digest, changes: file }))).toEqual({ applied: 2 });
    expect([await shown(palermo), await shown(avellaneda)]).toEqual([17, 31]);

    const again = failure(await api.stock.importApply({ name: 'conteo (1).csv', changes: [...file].reverse().map((ch, i) => ({ ...ch, line: 10 + i })) }));
    expect(again.code).toBe('conflict');
    expect(again.message).toMatch(/^conteo\.csv was already applied on \d{4}-\d\d-\d\dT.* by Ana \(2 changes\)/);
    expect(again.cause).toEqual([
      { code: 'imported_before', name: 'conteo.csv', appliedAt: expect.any(Number), author: expect.any(String), operator: 'Ana', changes: 2 },
    ]);
    // Nothing of the second Apply was written.
    expect([await shown(palermo), await shown(avellaneda)]).toEqual([17, 31]);

    expect(value(await api.stock.importApply({ name: 'conteo (1).csv', changes: file, again: true }))).toEqual({ applied: 2 });
    expect([await shown(palermo), await shown(avellaneda)]).toEqual([22, 31]);
  });

  it('knows the file by its bytes too, and does not ask about other changes from another file', async () => {
    value(await api.stock.importApply({ name: 'a.csv', fileDigest: digest, changes: file.slice(0, 1) }));
    // The same bytes read differently (another lookup) are still the same file.
    expect(failure(await api.stock.importApply({ name: 'a.csv', fileDigest: digest, changes: file.slice(1) })).cause).toEqual([
      expect.objectContaining({ code: 'imported_before', name: 'a.csv', operator: null }),
    ]);
    expect(value(await api.stock.importApply({ name: 'b.csv', fileDigest: 'b'.repeat(64), changes: file.slice(1) }))).toEqual({ applied: 1 });
    expect(failure(await api.stock.importApply({ name: 'x.csv', fileDigest: 'not a digest', changes: file })).code).toBe('bad_request');
  });
});

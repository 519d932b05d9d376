import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopCore } from '../../main/desktop/core.js';
import { demo } from '../support/fixtures.js';
import { failure, openCore, value } from './helpers.js';

/** The grid calls the stock screens use (main/desktop/grid.ts) on the local demo profile. */
describe('stock grid calls', () => {
  let c: { core: DesktopCore; close(): Promise<void> };
  let api: DesktopCore['api'];
  beforeAll(async () => {
    c = await openCore();
    api = c.core.api;
  });
  afterAll(() => c.close());

  const ids = (g: { rows: { userProductId: string }[] }) => g.rows.map((r) => r.userProductId);

  it('has a column per stock-location store and the read-only columns, item ids per row, and a lock with its reason', async () => {
    const grid = value(await api.stock.grid({ limit: 10 }));
    expect(grid.columns.map((col) => [col.key, col.type])).toEqual([
      [demo.stores.palermo, 'seller_warehouse'],
      [demo.stores.avellaneda, 'seller_warehouse'],
      ['selling_address', 'selling_address'],
      ['platform_facility', 'platform_facility'],
    ]);
    const row = (id: string) => grid.rows.find((r) => r.userProductId === id)!;
    expect(row(demo.userProducts.termo).itemIds).toEqual([demo.items.termo]);
    expect(row(demo.userProducts.termo).cells.platform_facility).toMatchObject({ editable: false, lock: { reason: 'platform_managed' } });
    expect(row(demo.userProducts.termo).cells[demo.stores.palermo]).toMatchObject({ editable: true, lock: null });
    // Fulfillment with local delivery, inventory id and inbound done: editable.
    expect(row(demo.userProducts.mate).cells.selling_address).toMatchObject({ editable: true, lock: null, shown: 5 });
    // SPEC 7.3, with the spec's words.
    expect(row(demo.userProducts.bombilla).cells.selling_address).toMatchObject({
      editable: false,
      lock: { reason: 'no_inventory_id', message: 'You cannot modify selling address stock in items without inventory id.' },
    });
    expect(row(demo.userProducts.canasta).cells.selling_address).toMatchObject({
      editable: false,
      lock: { reason: 'no_full_inbound', message: 'You cannot modify selling address stock because you have to do a full inbound first before modifying.' },
    });
    // The one cell call answers the same lock.
    expect(value(await api.stock.cell({ userProductId: demo.userProducts.bombilla, type: 'selling_address' })).lock).toMatchObject({
      reason: 'no_inventory_id',
    });
  });

  it('filters by store and by low stock, and pages the filtered rows', async () => {
    expect(ids(value(await api.stock.grid({ store: demo.stores.avellaneda })))).toEqual([demo.userProducts.termo]);
    // At or under 5 in a seller-managed location: mate (selling address 5), bombilla (0), canasta (3); yerba has platform stock only.
    const low = value(await api.stock.grid({ lowStock: 5 }));
    expect(ids(low)).toEqual([demo.userProducts.mate, demo.userProducts.bombilla, demo.userProducts.canasta]);
    expect(low.total).toBe(3);
    expect(ids(value(await api.stock.grid({ lowStock: 5, offset: 1, limit: 1 })))).toEqual([demo.userProducts.bombilla]);
    expect(value(await api.stock.grid({ lowStock: 11, store: demo.stores.palermo })).total).toBe(0);
    expect(ids(value(await api.stock.grid({ lowStock: 12, store: demo.stores.palermo })))).toEqual([demo.userProducts.termo]);
    expect(failure(await api.stock.grid({ lowStock: -1 })).code).toBe('bad_request');
  });

  it('locates a scan (item id, user product id, inventory id) or title words, within the filters', async () => {
    // The answer names what matched and the product's title, for the scan's confirmation.
    expect(value(await api.stock.locate({ search: demo.items.canasta }))).toMatchObject({ userProductId: demo.userProducts.canasta, index: 4, total: 5 });
    expect(value(await api.stock.locate({ search: demo.items.canasta })).title).toEqual(expect.any(String));
    expect(value(await api.stock.locate({ search: demo.userProducts.mate.toLowerCase() }))).toMatchObject({ userProductId: demo.userProducts.mate, index: 1 });
    expect(value(await api.stock.locate({ search: 'MATE0002' }))).toMatchObject({ userProductId: demo.userProducts.mate, index: 1 });
    expect(value(await api.stock.locate({ search: 'yerba 1kg' }))).toMatchObject({ userProductId: demo.userProducts.yerba, index: 2 });
    // With the low-stock filter the canasta is the third row; the termo is hidden by it.
    expect(value(await api.stock.locate({ search: demo.items.canasta, lowStock: 5 }))).toMatchObject({
      userProductId: demo.userProducts.canasta,
      index: 2,
      total: 3,
    });
    expect(value(await api.stock.locate({ search: demo.items.termo, lowStock: 5 }))).toMatchObject({
      userProductId: demo.userProducts.termo,
      index: null,
      total: 3,
    });
    expect(value(await api.stock.locate({ search: 'MLA9999999999' }))).toMatchObject({ userProductId: null, index: null, total: 5 });
    // Another seller's product is not found.
    expect(value(await api.stock.locate({ search: 'MLAU200000001' })).userProductId).toBeNull();
    expect(failure(await api.stock.locate({ search: '   ' })).code).toBe('bad_request');
  });

  it('answers a locate with the grid page of its row when asked (the scan’s one round trip), as stock.grid reads it', async () => {
    const found = value(await api.stock.locate({ search: demo.items.canasta, page: 2 }));
    expect(found).toMatchObject({ userProductId: demo.userProducts.canasta, index: 4, page: { offset: 4 } });
    expect(found.page!.grid).toEqual(value(await api.stock.grid({ limit: 2, offset: 4 })));
    expect(ids(found.page!.grid)).toEqual([demo.userProducts.canasta]);
    // Within the filters: the page of the filtered grid; none for a product they hide or a miss.
    // The third row of the low-stock grid: its second page of two.
    const low = value(await api.stock.locate({ search: demo.items.canasta, lowStock: 5, page: 2 }));
    expect(low.page).toEqual({ offset: 2, grid: value(await api.stock.grid({ lowStock: 5, limit: 2, offset: 2 })) });
    expect(ids(low.page!.grid)[0]).toBe(demo.userProducts.canasta);
    expect(value(await api.stock.locate({ search: demo.items.termo, lowStock: 5, page: 2 })).page).toBeUndefined();
    expect(value(await api.stock.locate({ search: 'MLA9999999999', page: 2 })).page).toBeUndefined();
    // Without `page`, no page.
    expect(value(await api.stock.locate({ search: demo.items.canasta })).page).toBeUndefined();
  });

  it('reads rows by user product id or item id, and names the ids it does not know', async () => {
    const r = value(await api.stock.rows({ ids: [demo.items.bombilla, demo.userProducts.termo, 'MLAU200000001', 'nonsense'] }));
    expect(ids(r)).toEqual([demo.userProducts.termo, demo.userProducts.bombilla]);
    expect(r.aliases).toEqual({ [demo.items.bombilla]: demo.userProducts.bombilla });
    expect(r.missing).toEqual(['MLAU200000001', 'NONSENSE']);
    expect(r.rows[1]!.cells.selling_address!.lock?.reason).toBe('no_inventory_id');
    expect(r.columns.map((col) => col.key)).toContain(demo.stores.palermo);
  });

  it("looks products up for the import's preview: the grid's quantities and locks of the file's columns only", async () => {
    const wanted = [demo.items.bombilla, demo.userProducts.termo, 'MLAU200000001', 'nonsense'];
    const full = value(await api.stock.rows({ ids: wanted }));
    const light = value(await api.stock.lookup({ ids: wanted, columns: [demo.stores.palermo] }));
    expect(light.aliases).toEqual(full.aliases);
    expect(light.missing).toEqual(full.missing);
    expect(light.columns).toEqual(full.columns);
    // The file's column, and the selling address (the pairing rule reads it); no other cell.
    const project = (keys: string[]) =>
      full.rows.map((r) => ({
        userProductId: r.userProductId,
        title: r.title,
        version: r.version,
        cells: Object.fromEntries(
          Object.entries(r.cells)
            .filter(([k]) => keys.includes(k))
            .map(([k, c]) => [k, { type: c.type, shown: c.shown, editable: c.editable, lock: c.lock }]),
        ),
      }));
    expect(light.rows).toEqual(project([demo.stores.palermo, 'selling_address']));
    expect(light.rows[1]!.cells.selling_address!.lock?.reason).toBe('no_inventory_id');
    // Without columns, every cell.
    const all = value(await api.stock.lookup({ ids: wanted }));
    expect(all.rows).toEqual(project(full.columns.map((c) => c.key)));
  });

  it('shows an edit in the filtered views at once (the column and filter answers follow the stock)', async () => {
    const palermo = { userProductId: demo.userProducts.termo, type: 'seller_warehouse' as const, storeId: demo.stores.palermo };
    value(await api.stock.count({ ...palermo, quantity: 2 }));
    expect(ids(value(await api.stock.grid({ lowStock: 5 })))).toContain(demo.userProducts.termo);
    value(await api.stock.count({ ...palermo, quantity: 12 }));
    expect(ids(value(await api.stock.grid({ lowStock: 5 })))).not.toContain(demo.userProducts.termo);
  });

  it('pages a cell history back past 500 rows, newest first, without gaps or repeats', async () => {
    const cell = { userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId: demo.stores.avellaneda } as const;
    // 520 edits through the real call, each its own durable write (alternating so none cancels out).
    for (let i = 0; i < 520; i++) value(await api.stock.adjust({ ...cell, delta: i % 2 === 0 ? 1 : -1, ref: `r${i}` }));
    const first = value(await api.stock.history({ ...cell, limit: 500 }));
    expect(first).toHaveLength(500);
    const rest = value(await api.stock.history({ ...cell, limit: 500, before: first.at(-1)!.id }));
    expect(rest).toHaveLength(20);
    const all = [...first, ...rest];
    expect(all.map((h) => h.ref)).toEqual(Array.from({ length: 520 }, (_, i) => `r${519 - i}`));
    expect(value(await api.stock.history({ ...cell, limit: 10, before: rest.at(-1)!.id }))).toEqual([]);
    expect(failure(await api.stock.history({ ...cell, before: 0 })).code).toBe('bad_request');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopCore } from '../../main/desktop/core.js';
import ExcelJS from 'exceljs';
import { readWorkbook } from '../../main/desktop/xlsx.js';
import { demo } from '../support/fixtures.js';
import { failure, openCore, value } from './helpers.js';

const { termo, mate, yerba, bombilla, canasta } = demo.userProducts;
const { palermo, avellaneda } = demo.stores;

/** Sorting, reorder points, saved views and the .xlsx export of the grid (main/desktop/grid.ts, main/db/repos/grid.ts). */
describe('grid order, reorder points and views', () => {
  let c: { core: DesktopCore; close(): Promise<void> };
  let api: DesktopCore['api'];
  beforeAll(async () => {
    c = await openCore();
    api = c.core.api;
  });
  afterAll(() => c.close());
  const ids = (g: { rows: { userProductId: string }[] }) => g.rows.map((r) => r.userProductId);

  it('sorts by title, total and a store, either way; missing cells last; pages and locate follow the order', async () => {
    expect(ids(value(await api.stock.grid({ sort: { key: 'title', dir: 'asc' } })))).toEqual([bombilla, canasta, mate, termo, yerba]);
    // Totals: termo 50, yerba 40, mate 25, canasta 3, bombilla 0.
    expect(ids(value(await api.stock.grid({ sort: { key: 'total', dir: 'desc' } })))).toEqual([termo, yerba, mate, canasta, bombilla]);
    expect(ids(value(await api.stock.grid({ sort: { key: 'selling_address', dir: 'asc' } })))).toEqual([bombilla, canasta, mate, termo, yerba]);
    expect(ids(value(await api.stock.grid({ sort: { key: 'selling_address', dir: 'desc' } })))).toEqual([mate, canasta, bombilla, termo, yerba]);
    expect(ids(value(await api.stock.grid({ sort: { key: 'product', dir: 'desc' } })))).toEqual([canasta, bombilla, yerba, mate, termo]);
    expect(ids(value(await api.stock.grid({ sort: { key: 'total', dir: 'desc' }, offset: 1, limit: 2 })))).toEqual([yerba, mate]);
    expect(value(await api.stock.locate({ search: demo.items.canasta, sort: { key: 'total', dir: 'desc' } }))).toMatchObject({ index: 3, total: 5 });
    // An edit is seen by the next read of the same sorted list (the cached order is dropped on any write).
    value(await api.stock.count({ userProductId: mate, type: 'selling_address', quantity: 100 }));
    expect(ids(value(await api.stock.grid({ sort: { key: 'total', dir: 'desc' } })))).toEqual([mate, termo, yerba, canasta, bombilla]);
    value(await api.stock.count({ userProductId: mate, type: 'selling_address', quantity: 5 }));
    expect(failure(await api.stock.grid({ sort: { key: 'no such key!', dir: 'asc' } })).code).toBe('bad_request');
  });

  it('reorder points: on the rows, refine the low-stock filter per cell, and list the cells under them', async () => {
    expect(value(await api.stock.grid({ belowReorder: true })).total).toBe(0);
    value(await api.stock.setReorderPoint({ userProductId: termo, type: 'seller_warehouse', storeId: palermo, point: 15 }));
    value(await api.stock.setReorderPoint({ userProductId: mate, type: 'selling_address', point: 2 }));
    const grid = value(await api.stock.grid({}));
    expect(grid.rows.find((r) => r.userProductId === termo)!.reorder).toEqual({ [palermo]: 15 });
    expect(ids(value(await api.stock.grid({ belowReorder: true })))).toEqual([termo]);
    expect(ids(value(await api.stock.grid({ belowReorder: true, store: avellaneda })))).toEqual([]);
    // Low at 5 by the threshold, but mate's selling address (5) has its own point of 2: not low; termo's Palermo (12 ≤ 15) is.
    expect(ids(value(await api.stock.grid({ lowStock: 5 })))).toEqual([termo, bombilla, canasta]);
    value(await api.stock.setReorderPoint({ userProductId: termo, type: 'seller_warehouse', storeId: palermo, point: null }));
    expect(value(await api.stock.grid({ belowReorder: true })).total).toBe(0);
    expect(failure(await api.stock.setReorderPoint({ userProductId: yerba, type: 'platform_facility', point: 3 })).code).toBe('bad_request');
    expect(failure(await api.stock.setReorderPoint({ userProductId: 'MLAU200000001', type: 'selling_address', point: 3 })).status).toBe(403);
  });

  it('saves views by name (the same name replaces), lists and deletes them', async () => {
    const query = { search: '', filter: 'all' as const, store: palermo, lowStock: null, belowReorder: true, sort: { key: 'total', dir: 'desc' as const } };
    value(await api.stock.saveView({ name: 'Palermo low', query }));
    const saved = value(await api.stock.saveView({ name: 'Palermo low', query: { ...query, belowReorder: false } }));
    expect(saved).toEqual([{ id: expect.any(Number) as number, name: 'Palermo low', query: { ...query, belowReorder: false } }]);
    expect(value(await api.stock.deleteView({ id: saved[0]!.id }))).toEqual([]);
  });

  it('exports an .xlsx in the bulk editor layout that reads back, with each cell’s last change and its reason', async () => {
    // A local-only edit is never pending: its reason reaches the file through the history.
    value(await api.stock.adjust({ userProductId: termo, type: 'seller_warehouse', storeId: palermo, delta: 1, reason: 'sold_elsewhere' }));
    const file = value(await api.stock.exportXlsx({ store: palermo }));
    expect(file.name).toMatch(/^stock-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const rows = await readWorkbook(file.bytes);
    expect(rows[0]).toEqual(['Item ID', 'User product ID', 'SKU', 'Title', `Depósito Palermo [${palermo}]`, 'Total', 'Pending', 'Last change']);
    // The local profile writes at once: nothing is pending (a replica's queued edits: test/desktop/replica-stock.test.ts).
    expect(rows[1]).toEqual([
      demo.items.termo,
      termo,
      // The item's SELLER_SKU attribute (its seller_custom_field is the fallback).
      'TERM-1L',
      'Termo acero inoxidable 1L',
      expect.any(String),
      expect.any(String),
      '',
      expect.stringMatching(/^Depósito Palermo: \+1 sold elsewhere, \d{4}-\d\d-\d\d \d\d:\d\d [+-]\d\d:\d\d$/),
    ]);
    expect(failure(await api.stock.readWorkbook({ bytes: new TextEncoder().encode('not a zip') })).message).toBe('Not a readable .xlsx workbook');
  });

  it('fills SKU from the SELLER_SKU attribute, else seller_custom_field, in the .xlsx and in the rows the CSV export reads', async () => {
    const rows = await readWorkbook(value(await api.stock.exportXlsx({})).bytes);
    const sku = (up: string) => rows.find((r) => r[1] === up)?.[2];
    expect([sku(termo), sku(demo.userProducts.canasta)]).toEqual(['TERM-1L', 'NORTE-CANASTA']);
    const grid = value(await api.stock.grid({ limit: 50, changes: true }));
    expect(grid.rows.find((r) => r.userProductId === demo.userProducts.canasta)?.sku).toBe('NORTE-CANASTA');
  });

  // The renderer's half (these rows planned into a count and an adjustment) is in test/renderer/stock/csv.test.tsx.
  it('round-trips an .xlsx: the export edited in a spreadsheet reads back as the text a person typed', async () => {
    const file = value(await api.stock.exportXlsx({}));
    // Edited as a person would in Excel: Palermo of the termo counted at 7, +3 typed as text in Avellaneda.
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(file.bytes) as unknown as ExcelJS.Buffer);
    const sheet = wb.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const termoRow = [...Array(sheet.rowCount).keys()].map((i) => sheet.getRow(i + 1)).find((r) => r.getCell(2).value === termo)!;
    termoRow.getCell(header.indexOf(`Depósito Palermo [${palermo}]`)).value = 7;
    termoRow.getCell(header.indexOf(`Depósito Avellaneda [${avellaneda}]`)).value = '+3';
    const edited = new Uint8Array(await wb.xlsx.writeBuffer());
    const rows = value(await api.stock.readWorkbook({ bytes: edited })).rows;
    const line = rows.find((r) => r[1] === termo)!;
    expect(rows[0]).toEqual(header.slice(1));
    expect([line[header.indexOf(`Depósito Palermo [${palermo}]`) - 1], line[header.indexOf(`Depósito Avellaneda [${avellaneda}]`) - 1]]).toEqual(['7', '+3']);
    expect(rows).toHaveLength(sheet.rowCount);
  });
});

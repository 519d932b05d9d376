// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { exportCsv } from '../../../renderer/stock/csv-export.js';
import { minute } from '../../../common/pending-note.js';
import { type Plan, csvDelimiter, diffImport, gridCsv, planImport, planRows } from '../../../renderer/stock/csv.js';
import { StockTab, createStockStore } from '../../../renderer/stock/StockTab.js';
import { lockText } from '../../../renderer/stock/store.js';
import { COLUMNS, entry, fakeStockroom, giveGridASize, id, sampleRows } from '../../support/fake-stock.js';
import { runStockAction } from '../../support/stock-actions.js';

beforeAll(() => giveGridASize());
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => cleanup());

const lookup = (rows = sampleRows(5)) => ({ columns: COLUMNS, rows, missing: [], aliases: { MLA1400000002: id(1) } });
const words = (reason: string, column: (typeof COLUMNS)[number]) => lockText(reason, column);
const plan = (text: string) => {
  const p = planImport(text);
  if ('error' in p) throw new Error(`unexpected ${p.error.key}`);
  return p as Plan;
};

describe('CSV import: the dry run', () => {
  it('reads counts and adjustments in the long format, with every change listed (line, product, store, old, new, kind)', () => {
    const csv = [
      'user_product_id,store,count,adjustment',
      `${id(0)},64712,40,`,
      `${id(1)},Depósito Avellaneda,,+5`,
      'MLA1400000002,64712,,-1',
      `${id(3)},64713,13,`,
    ].join('\n');
    const d = diffImport(plan(csv), lookup(), words);
    expect(d.changes.map((c) => [c.line, c.userProductId, c.column.key, c.old, c.new, c.edit.kind])).toEqual([
      [2, id(0), '64712', 0, 40, 'count'],
      [3, id(1), '64713', 11, 16, 'adjust'],
      [4, id(1), '64712', 1, 0, 'adjust'],
    ]);
    // Line 5 counts what the cell already shows: unchanged, not an edit.
    expect(d.unchanged).toBe(1);
    expect(d.rejected).toEqual([]);
  });

  it('lists every bad line with its line number and reason, and never guesses', () => {
    const csv = [
      'item_id,store,value',
      `${id(0)},64712,abc`, // 2 not a number
      'MLAU999,64712,3', // 3 unknown product
      `${id(0)},99999,3`, // 4 unknown store
      `${id(0)},platform_facility,+3`, // 5 platform managed
      `${id(2)},selling_address,4`, // 6 selling address without inventory id
      `${id(0)},64713,-50`, // 7 below zero (10 - 50)
      `${id(0)},64713,+0`, // 8 zero adjustment
      `${id(0)},64713,+2`, // 9 fine
      `${id(0)},64713,7`, // 10 same cell again
      ',64712,3', // 11 no product
      `${id(2)},64712,3`, // 12 a selling-address product has no store stock
    ].join('\n');
    const d = diffImport(plan(csv), lookup(), words);
    expect(d.changes.map((c) => c.line)).toEqual([9]);
    const reasons = d.rejected.map((r) => [r.line, r.reason.key]);
    expect(reasons).toEqual([
      [2, 'csv.err.value'],
      [3, 'csv.err.unknownProduct'],
      [4, 'csv.err.unknownStore'],
      [5, 'csv.err.locked'],
      [6, 'csv.err.locked'],
      [7, 'csv.err.negative'],
      [8, 'csv.err.zero'],
      [10, 'csv.err.duplicate'],
      [11, 'csv.err.noProduct'],
      [12, 'csv.err.locked'],
    ]);
    expect(d.rejected.find((r) => r.line === 6)!.reason.vars).toEqual({ reason: 'Selling address stock cannot be changed: the item has no inventory id.' });
    expect(d.rejected.find((r) => r.line === 10)!.reason.vars).toEqual({ line: 9 });
  });

  it('refuses a file without the needed columns, an empty file, and unreadable CSV', () => {
    expect(planImport('foo,bar\n1,2')).toEqual({ error: { key: 'csv.err.header' } });
    expect(planImport('user_product_id,store\nX,1')).toEqual({ error: { key: 'csv.err.header' } });
    expect(planImport('user_product_id,store,count')).toEqual({ error: { key: 'csv.err.empty' } });
    expect(planImport('')).toMatchObject({ error: {} });
  });

  it('round-trips the export: an exported grid edited in a spreadsheet imports only the changed cells', () => {
    const rows = sampleRows(4);
    const csv = gridCsv(COLUMNS, rows);
    const parsed = Papa.parse<string[]>(csv).data;
    expect(parsed[0]).toEqual([
      'user_product_id',
      'sku',
      'title',
      'item_ids',
      'Depósito Palermo [64712]',
      'Depósito Avellaneda [64713]',
      'Selling address [selling_address]',
      'Platform fulfillment [platform_facility]',
      'total',
      'Pending',
      'Last change',
    ]);
    expect(parsed[1]).toEqual([id(0), '', 'Producto 0', 'MLA1400000001', '0', '10', '', '5', '15', '', '']);
    // Unchanged file: nothing to apply.
    expect(diffImport(plan(csv), lookup(rows), words).changes).toEqual([]);
    parsed[2]![4] = '25';
    parsed[4]![5] = '+4';
    parsed[1]![7] = '9'; // platform stock cannot change here
    const edited = Papa.unparse(parsed);
    const d = diffImport(plan(edited), lookup(rows), words);
    expect(d.changes.map((c) => [c.userProductId, c.column.key, c.old, c.new, c.edit.kind])).toEqual([
      [id(1), '64712', 1, 25, 'count'],
      [id(3), '64713', 13, 17, 'adjust'],
    ]);
    expect(d.rejected.map((r) => [r.line, r.reason.key])).toEqual([[2, 'csv.err.locked']]);
  });

  it("carries each row's SKU beside its id, and an edited export still reads back by user product id", () => {
    const rows = sampleRows(2).map((r, i) => ({ ...r, sku: i === 0 ? 'TERM-1L' : null }));
    const parsed = Papa.parse<string[]>(gridCsv(COLUMNS, rows)).data;
    expect(parsed.slice(1, 3).map((r) => [r[0], r[1]])).toEqual([
      [id(0), 'TERM-1L'],
      [id(1), ''],
    ]);
    parsed[1]![4] = '7';
    expect(diffImport(plan(Papa.unparse(parsed)), lookup(rows), words).changes.map((c) => [c.userProductId, c.new])).toEqual([[id(0), 7]]);
  });

  it('exports what the grid shows, page by page, without running formulas', async () => {
    const rows = sampleRows(450);
    rows[0]!.title = '=HYPERLINK("x")';
    const f = fakeStockroom(rows);
    const store = createStockStore(f.api);
    await store.getState().load();
    let saved = '';
    expect(await exportCsv(store, (_name, text) => (saved = text))).toBe(true);
    expect(f.callsTo('stock.grid').slice(1)).toEqual([
      { limit: 200, offset: 0, changes: true },
      { limit: 200, offset: 200, changes: true },
      { limit: 200, offset: 400, changes: true },
    ]);
    const data = Papa.parse<string[]>(saved.trim()).data;
    expect(data).toHaveLength(451);
    expect(data[1]![2]).toBe(`'=HYPERLINK("x")`);
    expect(store.getState().activity).toBeNull();
  });
});

describe('CSV import dialog', () => {
  it('shows the preview and the rejected lines, and queues nothing until Apply', async () => {
    const f = fakeStockroom();
    const store = createStockStore(f.api);
    const user = userEvent.setup();
    render(<StockTab store={store} />);
    await screen.findByRole('grid');
    await runStockAction(user, 'Import CSV / Excel');
    const dialog = screen.getByRole('dialog', { name: 'Import counts or adjustments' });
    const file = new File(
      [['user_product_id,store,count,adjustment', `${id(0)},64712,40,`, `${id(1)},64713,,+5`, 'MLAU999,64712,1,'].join('\n')],
      'conteo.csv',
      { type: 'text/csv' },
    );
    await user.upload(within(dialog).getByLabelText('Choose a CSV or .xlsx file'), file);
    const preview = await within(dialog).findByRole('table', { name: 'Changes to apply' });
    const cells = within(preview)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent));
    expect(cells).toEqual([
      ['2', `Producto 0 ${id(0)}`, 'Depósito Palermo', '0', '40', 'count'],
      ['3', `Producto 1 ${id(1)}`, 'Depósito Avellaneda', '11', '16', 'adjustment +5'],
    ]);
    const rejected = within(dialog).getByRole('table', { name: 'Rows not imported' });
    expect(within(rejected).getAllByRole('row')[1]!.textContent).toBe('4MLAU99964712unknown product MLAU999');
    // The dry run asked the core for the file's products, and only the cells of its columns.
    expect(f.callsTo('stock.lookup')).toEqual([{ ids: [id(0), id(1), 'MLAU999'], columns: ['64712', '64713'] }]);
    expect(f.callsTo('stock.importApply')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Apply 2 changes' }));
    await within(dialog).findByText('Applied 2 changes.');
    // One call for the whole file (one transaction in the core), never one per change.
    expect(f.callsTo('stock.importApply')).toEqual([
      {
        name: 'conteo.csv',
        // The file's SHA-256: how the core knows a file applied before (test/renderer/stock/import-again.test.tsx).
        fileDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
        changes: [
          { userProductId: id(0), type: 'seller_warehouse', storeId: '64712', line: 2, kind: 'count', quantity: 40 },
          { userProductId: id(1), type: 'seller_warehouse', storeId: '64713', line: 3, kind: 'adjust', delta: 5 },
        ],
      },
    ]);
    expect(f.callsTo('stock.count')).toEqual([]);
    expect(f.callsTo('stock.adjust')).toEqual([]);
  });

  it('a refused import applies nothing and says which line, with the preview kept to fix it', async () => {
    const f = fakeStockroom();
    f.refuseLine = 3;
    const store = createStockStore(f.api);
    const user = userEvent.setup();
    render(<StockTab store={store} />);
    await screen.findByRole('grid');
    await runStockAction(user, 'Import CSV / Excel');
    const dialog = screen.getByRole('dialog');
    await user.upload(
      within(dialog).getByLabelText('Choose a CSV or .xlsx file'),
      new File([`user_product_id;store;count\n${id(0)};64712;40\n${id(1)};64713;+5`], 'conteo.csv', { type: 'text/csv' }),
    );
    await user.click(await within(dialog).findByRole('button', { name: 'Apply 2 changes' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Nothing was applied: Line 3: refused');
    const preview = within(dialog).getByRole('table', { name: 'Changes to apply' });
    // The refused line comes first, with its reason.
    expect(within(preview).getAllByRole('row')[1]!.textContent).toContain('! refused: Line 3: refused');
    expect(f.rows[0]!.cells['64712']?.shown).not.toBe(40);
    expect(within(dialog).getByRole('button', { name: 'Apply 2 changes' })).toBeTruthy();
  });

  it('Cancel closes without queuing anything, and a bad file is refused in words', async () => {
    const f = fakeStockroom();
    const store = createStockStore(f.api);
    const user = userEvent.setup();
    render(<StockTab store={store} />);
    await screen.findByRole('grid');
    await runStockAction(user, 'Import CSV / Excel');
    const dialog = screen.getByRole('dialog');
    await user.upload(within(dialog).getByLabelText('Choose a CSV or .xlsx file'), new File(['a,b\n1,2'], 'x.csv', { type: 'text/csv' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain('Missing columns'));
    await user.upload(
      within(dialog).getByLabelText('Choose a CSV or .xlsx file'),
      new File([`user_product_id,store,count\n${id(0)},64712,3`], 'y.csv', { type: 'text/csv' }),
    );
    await within(dialog).findByRole('table', { name: 'Changes to apply' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(f.callsTo('stock.importApply')).toEqual([]);
  });
});

describe('delimiters, locales and signed counts', () => {
  it('reads a semicolon, tab or comma file alike (the delimiter is detected)', () => {
    for (const sep of [';', '\t', ',']) {
      const csv = ['user_product_id', 'store', 'count'].join(sep) + '\n' + [id(0), '64712', '40'].join(sep) + '\n' + [id(1), '64713', '1.200'].join(sep);
      const d = diffImport(plan(csv), lookup(), words);
      expect(d.changes.map((c) => [c.userProductId, c.column.key, c.new])).toEqual([
        [id(0), '64712', 40],
        [id(1), '64713', 1200],
      ]);
    }
  });

  it('+n / -n in a count column are adjustments, a bare number a count', () => {
    const csv = ['user_product_id;store;quantity', `${id(1)};64713;+5`, `${id(1)};64712;-1`, `${id(3)};64713;7`].join('\n');
    const d = diffImport(plan(csv), lookup(), words);
    expect(d.changes.map((c) => [c.line, c.edit, c.old, c.new])).toEqual([
      [2, { kind: 'adjust', delta: 5 }, 11, 16],
      [3, { kind: 'adjust', delta: -1 }, 1, 0],
      [4, { kind: 'count', quantity: 7 }, 13, 7],
    ]);
    expect(d.rejected).toEqual([]);
  });

  it("exports each queued edit in the Pending note and each cell's newest edit in the Last change note, with reasons, and still reads back unchanged", () => {
    const rows = sampleRows(3);
    rows[0]!.cells['64712']!.entries = [
      entry({ id: 1, op: 'adjust', delta: -2, state: 'pending', reason: 'damaged' }),
      entry({ id: 2, op: 'adjust', delta: 5, state: 'failed', reason: 'sold_elsewhere' }),
    ];
    rows[0]!.cells['64713']!.entries = [entry({ id: 3, op: 'count', delta: null, quantity: 40, state: 'pending', reason: 'count' })];
    // A cell's newest edit from the history (a local-only edit is never pending): the Last change note.
    const history = {
      id: 9,
      cell: 'c',
      user_product_id: id(1),
      cell_type: 'seller_warehouse',
      store_key: '64712',
      author: 'me',
      entry_id: null,
      ref: null,
      note: null,
    };
    rows[1]!.lastChanges = {
      '64712': { ...history, kind: 'adjustment', at: Date.UTC(2026, 10, 23, 14, 2), from_quantity: 1, to_quantity: 4, delta: 3, reason: 'returned' },
      '64713': { ...history, kind: 'count', at: Date.UTC(2026, 10, 22, 9, 30), from_quantity: 11, to_quantity: 12, delta: 1, reason: null },
    };
    const text = gridCsv(COLUMNS, rows, ';');
    const data = Papa.parse<string[]>(text, { delimiter: ';' }).data;
    expect(data[1]!.at(-2)).toBe('Depósito Palermo: -2 damaged, +5 sold elsewhere (failed); Depósito Avellaneda: =40 count');
    expect(data[2]!.at(-2)).toBe('');
    // In the writing machine's local time, with its offset (common/pending-note.ts; test/common/pending-note.test.ts).
    const at = (t: number) => minute(t);
    expect(data[2]!.at(-1)).toBe(
      `Depósito Palermo: +3 returned, ${at(Date.UTC(2026, 10, 23, 14, 2))}; Depósito Avellaneda: =12 count, ${at(Date.UTC(2026, 10, 22, 9, 30))}`,
    );
    expect(data[1]!.at(-1)).toBe('');
    // The note is not a location: the file reads back with nothing to apply.
    const read = plan(text);
    expect(read.rejected).toEqual([]);
    expect(diffImport(read, lookup(rows), words).changes).toEqual([]);
  });

  it('exports with the list separator of the language: ; for es and pt-BR, , for en', () => {
    expect([csvDelimiter('es'), csvDelimiter('es-AR'), csvDelimiter('pt-BR'), csvDelimiter('en')]).toEqual([';', ';', ';', ',']);
    const text = gridCsv(COLUMNS, sampleRows(2), ';');
    expect(text.split('\r\n')[0]).toBe(
      'user_product_id;sku;title;item_ids;Depósito Palermo [64712];Depósito Avellaneda [64713];Selling address [selling_address];Platform fulfillment [platform_facility];total;Pending;Last change',
    );
    // And it reads back: the delimiter is detected.
    expect(diffImport(plan(text), lookup(sampleRows(2)), words).changes).toEqual([]);
  });

  it('exports as CSV with ; when the app is in Spanish', async () => {
    act(() => useI18nStore.getState().setLanguage('es'));
    const f = fakeStockroom(sampleRows(3));
    const store = createStockStore(f.api);
    await store.getState().load();
    let saved = '';
    expect(await exportCsv(store, (_name, text) => (saved = text))).toBe(true);
    expect(saved.split('\r\n')[1]!.split(';')[0]).toBe(id(0));
  });
});

describe('an .xlsx sheet (its cells as text, read by the main process)', () => {
  it('plans the bulk-editor layout: item id, user product id, SKU and title are not locations; +n is an adjustment', () => {
    const rows = [
      ['Item ID', 'User product ID', 'SKU', 'Title', 'Depósito Palermo [64712]', 'Depósito Avellaneda [64713]', 'Total'],
      ['MLA1400000001', id(0), 'SKU-1', 'Producto 0', '7', '+3', '10'],
    ];
    const p = planRows(rows);
    if ('error' in p) throw new Error(p.error.key);
    const d = diffImport(p, lookup(), words);
    expect(d.changes.map((c) => [c.userProductId, c.column.key, c.old, c.new, c.edit.kind])).toEqual([
      [id(0), '64712', 0, 7, 'count'],
      [id(0), '64713', 10, 13, 'adjust'],
    ]);
    expect(d.rejected).toEqual([]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellKey } from '../../common/cells.js';
import { channelName } from '../../common/contract/channels.js';
import { packAnswer, packRows, unpackAnswer, unpackRows } from '../../common/contract/grid-pack.js';
import type { Result } from '../../common/contract/contract.js';
import type { CellView, GridRowView } from '../../common/views.js';

/**
 * Grid rows packed for the trip from main to the renderer (issue 29): whatever a row holds, it
 * arrives as it left, through JSON as the browser bridge sends it; plain cells travel small.
 */

const upid = fc.constantFrom('MLAU000000001', 'MLAU1500004999', 'MLAU9');
const type = fc.constantFrom<CellView['type']>('seller_warehouse', 'selling_address', 'platform_facility');
const state = fc.constantFrom<CellView['state']>('synced', 'pending', 'sending', 'conflict', 'failed');
const lock = fc.option(
  fc.record({ reason: fc.constantFrom<'platform_managed' | 'not_read'>('platform_managed', 'not_read'), message: fc.string({ maxLength: 40 }) }),
  { nil: null },
);

/** A cell as the read model writes it for `row`, or one that differs from it in any field. */
function cellOf(row: string) {
  return fc
    .record({
      type,
      storeId: fc.option(fc.constantFrom('8000000', '8000001', 'STORE-01'), { nil: null }),
      quantity: fc.option(fc.integer({ min: -5, max: 1_000_000 }), { nil: null }),
      version: fc.option(fc.constantFrom('1', '7', 'abc'), { nil: null }),
      shown: fc.integer({ min: -5, max: 1_000_000 }),
      state,
      editable: fc.boolean(),
      lock: fc.option(lock, { nil: undefined }),
      odd: fc.constantFrom('none', 'otherProduct', 'otherCellKey', 'entries', 'conflict', 'error', 'extraField', 'remoteExtra'),
    })
    .map((c) => {
      const cell: CellView = {
        userProductId: row,
        type: c.type,
        storeId: c.storeId,
        cell: cellKey(row, c.type, c.storeId ?? ''),
        remote: { quantity: c.quantity, version: c.version },
        shown: c.shown,
        state: c.state,
        editable: c.editable,
        entries: [],
        conflict: null,
        error: null,
        ...(c.lock === undefined ? {} : { lock: c.lock }),
      };
      if (c.odd === 'otherProduct') cell.userProductId = 'MLAU777';
      if (c.odd === 'otherCellKey') cell.cell = `${cell.cell}|x`;
      if (c.odd === 'entries')
        cell.entries = [
          {
            id: 3,
            op: 'count',
            delta: null,
            quantity: 4,
            state: 'pending',
            phase: 'queued',
            onTheWire: false,
            attempts: 0,
            nextAttemptAt: 0,
            lastStatus: null,
            lastError: null,
          },
        ] as CellView['entries'];
      if (c.odd === 'conflict')
        cell.conflict = { entryId: 3, base: { version: '1', quantity: 2 }, local: 5, remote: { version: '2', quantity: 9 }, laterAdjustments: 0 };
      if (c.odd === 'error') cell.error = { entryId: 4, status: 409, message: 'refused', unknown: false };
      if (c.odd === 'extraField') Object.assign(cell, { novel: 'a field a newer core sends' });
      if (c.odd === 'remoteExtra') Object.assign(cell.remote, { at: 5 });
      return cell;
    });
}

const rowArb = upid.chain((id) =>
  fc.record({
    userProductId: fc.constant(id),
    title: fc.option(fc.string({ maxLength: 30 }), { nil: null }),
    version: fc.constantFrom('1', '2'),
    itemIds: fc.option(fc.array(fc.constantFrom('MLA1', 'MLA2'), { maxLength: 2 }), { nil: undefined }),
    stockUnread: fc.option(fc.constant(true as const), { nil: undefined }),
    // Keys as the grid writes them (the store, or the type) or any other: a cell under an odd key travels whole.
    cells: fc
      .array(fc.tuple(fc.constantFrom('8000000', '8000001', 'selling_address', 'platform_facility', 'odd'), cellOf(id)), { maxLength: 6 })
      .map((pairs) => {
        const cells: Record<string, CellView> = {};
        for (const [key, c] of pairs) cells[key === 'odd' ? 'odd' : c.type === 'seller_warehouse' ? (c.storeId ?? '') : c.type] = c;
        return cells;
      }),
  }),
);

/** Rows without absent fields (JSON drops `undefined`; the view never holds one). */
const plainJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('grid rows packed for the trip', () => {
  it('arrive as they left, through JSON, whatever their cells hold', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 8 }), (rows) => {
        const sent = plainJson(rows) as GridRowView[];
        expect(unpackRows(JSON.parse(JSON.stringify(packRows(sent))))).toStrictEqual(sent);
      }),
      { numRuns: 300 },
    );
  });

  it('in the answers that carry them (grid, import rows, a locate with its page), and nowhere else', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 4 }), (generated) => {
        const rows = plainJson(generated);
        const grid = plainJson({ total: 9, columns: [{ key: '8000000', type: 'seller_warehouse', storeId: '8000000', label: 'Palermo' }], rows });
        const answers: [string, Result<unknown>][] = [
          [channelName('stock', 'grid'), { ok: true, value: grid }],
          [channelName('stock', 'rows'), { ok: true, value: { columns: grid.columns, rows: grid.rows, missing: ['X'], aliases: {} } }],
          [channelName('stock', 'locate'), { ok: true, value: { userProductId: 'MLAU9', index: 4, total: 9, page: { offset: 4, grid } } }],
          [channelName('stock', 'locate'), { ok: true, value: { userProductId: null, index: null, total: 9 } }],
          [channelName('stock', 'grid'), { ok: false, error: { code: 'not_found', message: 'gone', status: 404 } }],
          [channelName('sync', 'status'), { ok: true, value: { rows } }],
        ];
        for (const [channel, answer] of answers) {
          const packed = JSON.parse(JSON.stringify(packAnswer(channel, answer))) as unknown;
          expect(unpackAnswer(channel, packed)).toStrictEqual(answer);
        }
        // Other channels' answers are never touched, even when they hold `rows`.
        expect(packAnswer(channelName('sync', 'status'), answers[5]![1])).toBe(answers[5]![1]);
      }),
      { numRuns: 100 },
    );
  });

  it('an answer that was not packed (an older core, a test double) passes unpacking as it is', () => {
    const answer = { ok: true, value: { total: 0, columns: [], rows: [] } };
    expect(unpackAnswer(channelName('stock', 'grid'), answer)).toBe(answer);
    expect(unpackAnswer(channelName('stock', 'locate'), { ok: true, value: { userProductId: null, index: null, total: 0 } })).toEqual({
      ok: true,
      value: { userProductId: null, index: null, total: 0 },
    });
  });

  it('a page of plain cells travels in under a third of its bytes', () => {
    const rows: GridRowView[] = Array.from({ length: 50 }, (_, r) => {
      const id = `MLAU${String(1_500_000_000 + r)}`;
      const cells: Record<string, CellView> = {};
      for (let s = 0; s < 10; s++) {
        const store = String(8_000_000 + s);
        cells[store] = {
          userProductId: id,
          type: 'seller_warehouse',
          storeId: store,
          cell: cellKey(id, 'seller_warehouse', store),
          remote: { quantity: r + s, version: '1' },
          shown: r + s,
          state: 'synced',
          editable: true,
          entries: [],
          conflict: null,
          error: null,
          lock: null,
        };
      }
      return { userProductId: id, title: `Termo acero ${r}`, version: '1', itemIds: [`MLA${r}`], cells };
    });
    const full = JSON.stringify(rows).length;
    const packed = JSON.stringify(packRows(rows)).length;
    expect(packed).toBeLessThan(full / 3);
    expect(unpackRows(JSON.parse(JSON.stringify(packRows(rows))))).toStrictEqual(rows);
  });
});

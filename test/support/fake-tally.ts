/**
 * Scan to count's tally (`tally.*`) over the stock grid's in-memory fake (fake-stock.ts), as the
 * core keeps it (main/desktop/scan-tally.ts): scans per store, one line per product oldest first,
 * unknown codes and other stores' products flagged; Apply adds each product's units to its cell
 * and empties the tally, or refuses all of it. The scans outlive a store of the screens (a reload).
 * No Node or DOM types here: the renderer's component tests compile this file too.
 */
import type { TallyLineView, TallyScanView, TallyView } from '../../common/contract/contract.js';
import { ok } from './fake-api.js';
import type { FakeStockroom } from './fake-stock.js';

export interface FakeTally {
  /** Scans kept per store, oldest first. */
  scans: Map<string, TallyScanView[]>;
  /** The adjustments Apply wrote, in order. */
  applied: { userProductId: string; storeId: string; delta: number; ref: string }[];
  /** A product whose line Apply refuses (the whole Apply with it), or null. */
  refuse: string | null;
}

export function fakeTally(f: FakeStockroom): FakeTally {
  const t: FakeTally = { scans: new Map(), applied: [], refuse: null };
  let seq = 0;
  const of = (storeId: string) => t.scans.get(storeId) ?? [];
  const view = (storeId: string): TallyView => {
    const lines = new Map<string, TallyLineView>();
    for (const s of of(storeId)) {
      const key = s.userProductId === null ? `code:${s.code}` : `${s.outcome === 'other' ? 'other:' : ''}${s.userProductId}`;
      const line = lines.get(key);
      if (line) lines.set(key, { ...line, scans: line.scans + 1, units: line.units + s.delta, lastSeq: s.seq, title: s.title });
      else
        lines.set(key, {
          key,
          code: s.code,
          userProductId: s.userProductId,
          title: s.title,
          picture: s.picture,
          outcome: s.outcome,
          scans: 1,
          units: s.delta,
          lastSeq: s.seq,
        });
    }
    const all = [...lines.values()];
    return { storeId, lines: all, last: of(storeId).at(-1) ?? null, scans: of(storeId).length };
  };
  f.on({
    tally: {
      list: ({ storeId }) => ok(view(storeId)),
      add: ({ storeId, code, quantity }) => {
        const c = code.trim();
        const row = f.rows.find((r) => r.userProductId === c.toUpperCase() || (r.itemIds ?? []).includes(c));
        const stores = Object.values(row?.cells ?? {}).filter((x) => x.type === 'seller_warehouse');
        const outcome = !row ? 'unknown' : stores.length > 0 && !stores.some((x) => x.storeId === storeId) ? 'other' : 'ok';
        const scan: TallyScanView = {
          seq: ++seq,
          code: c,
          userProductId: row?.userProductId ?? null,
          title: row?.title ?? null,
          picture: null,
          delta: quantity ?? 1,
          outcome,
          operator: null,
        };
        t.scans.set(storeId, [...of(storeId), scan]);
        return ok({ scan, tally: view(storeId) });
      },
      undo: ({ storeId }) => {
        const undone = of(storeId).at(-1) ?? null;
        t.scans.set(storeId, of(storeId).slice(0, -1));
        return ok({ undone, tally: view(storeId) });
      },
      clear: ({ storeId }) => {
        t.scans.delete(storeId);
        return ok(view(storeId));
      },
      apply: ({ storeId }) => {
        const lines = view(storeId).lines.filter((l) => l.outcome === 'ok' && l.units > 0);
        const refused = lines.find((l) => l.userProductId === t.refuse);
        if (refused) return { ok: false, error: { code: 'bad_request', message: `${refused.title}: refused`, status: 400 } };
        for (const l of lines) {
          const row = f.rows.find((r) => r.userProductId === l.userProductId)!;
          const cell = row.cells[storeId];
          if (cell) row.cells[storeId] = { ...cell, shown: cell.shown + l.units, state: 'pending' };
          t.applied.push({ userProductId: l.userProductId!, storeId, delta: l.units, ref: `scan ${l.code} x${l.scans}` });
        }
        t.scans.delete(storeId);
        return ok({ products: lines.length, units: lines.reduce((n, l) => n + l.units, 0), tally: view(storeId) });
      },
    },
  });
  return t;
}

/**
 * Scan-count mode's actions of the Count store (store.ts): choose the store and show its tally,
 * scan, undo the last scan, apply the tally. The core keeps the tally in the database per scan
 * (`tally.*`); each action runs in the scans' order (the store's `inOrder`).
 */
import type { StoreApi } from 'zustand';
import type { StockroomApi } from '../../../common/contract/api.js';
import type { TallyView } from '../../../common/contract/contract.js';
import { type ErrorLike, errorWords } from '../../i18n/errors.js';
import type { StockKey } from '../words.js';
import type { Beep } from './sound.js';
import type { CountNotice, CountState } from './store.js';

/** The store last counted into in this browser profile: a reload opens its tally again. */
const STORE_KEY = 'stockroom.count.store';

/** The store scan-count mode last counted into here (null: none kept, or no storage). */
export function keptCountStore(): string | null {
  try {
    return globalThis.localStorage?.getItem(STORE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** What the tally's actions use of the store that holds them. */
export interface TallyContext {
  api: StockroomApi;
  set: StoreApi<CountState>['setState'];
  get: () => CountState;
  say: (key: StockKey, vars: Record<string, string | number>, tone: CountNotice['tone'], sound: Beep, detail?: string) => void;
  failed: (error: ErrorLike) => void;
  /** Runs `fn` after every scan and undo before it (the list keeps the scans' order). */
  inOrder: <T>(fn: () => Promise<T>) => Promise<T>;
}

export function tallyActions({ api, set, get, say, failed, inOrder }: TallyContext): Pick<CountState, 'setStore' | 'scan' | 'undoLast' | 'applyScans'> {
  const shown = (t: TallyView) => {
    // An answer for a store no longer chosen is not this tally's.
    if (get().storeId === t.storeId) set({ lines: t.lines, last: t.last, scanCount: t.scans });
  };

  return {
    setStore(storeId) {
      set({ storeId, lines: [], last: null, scanCount: 0 });
      try {
        if (storeId !== null) globalThis.localStorage?.setItem(STORE_KEY, storeId);
      } catch {
        // No storage: the person chooses the store again after a reload; the tally is kept either way.
      }
      if (storeId === null) return Promise.resolve();
      return inOrder(async () => {
        const r = await api.tally.list({ storeId });
        if (r.ok) shown(r.value);
        else failed(r.error);
      });
    },
    scan(raw) {
      const code = raw.trim();
      if (code === '') return Promise.resolve();
      const { storeId, quantity } = get();
      if (storeId === null) {
        say('count.chooseStore', {}, 'error', 'error');
        return Promise.resolve();
      }
      set((s) => ({ queued: s.queued + 1 }));
      return inOrder(async () => {
        try {
          // Kept by the core before it answers: what is said counted survives a reload.
          const r = await api.tally.add({ storeId, code, quantity });
          if (!r.ok) {
            failed(r.error);
            return;
          }
          shown(r.value.tally);
          const { scan } = r.value;
          const product = scan.title ?? scan.userProductId ?? code;
          const units = r.value.tally.lines.find((l) => l.outcome === 'ok' && l.userProductId === scan.userProductId)?.units ?? 0;
          if (scan.outcome === 'unknown') say('count.unknown', { code }, 'error', 'error');
          else if (scan.outcome === 'other') say('count.otherStore', { product }, 'error', 'other');
          else say('count.tallied', { delta: scan.delta, product, units }, 'ok', 'ok');
        } finally {
          set((s) => ({ queued: s.queued - 1 }));
        }
      });
    },

    undoLast() {
      return inOrder(async () => {
        const storeId = get().storeId;
        if (storeId === null || get().last === null) return;
        const r = await api.tally.undo({ storeId });
        if (!r.ok) {
          failed(r.error);
          return;
        }
        shown(r.value.tally);
        const line = r.value.undone;
        if (line) say('count.undoneScan', { delta: line.delta, product: line.title ?? line.userProductId ?? line.code }, 'ok', 'undo');
      });
    },

    applyScans() {
      return inOrder(async () => {
        const storeId = get().storeId;
        if (storeId === null) return false;
        // All or none: a refused line leaves the whole tally to apply again.
        const r = await api.tally.apply({ storeId });
        if (!r.ok) {
          const words = errorWords(r.error);
          say('count.applyNone', { message: words.text }, 'error', 'error', words.detail);
          return false;
        }
        shown(r.value.tally);
        say('count.scansApplied', { count: r.value.products, units: r.value.units }, 'ok', 'ok');
        return true;
      });
    },
  };
}

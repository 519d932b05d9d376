/**
 * The Count area's state (zustand): scan-count mode (each scan adds units to one store's tally,
 * kept by the core in the database per scan (`tally.*`), so a reload or a restart before Apply
 * loses nothing; Apply writes one adjustment per product, reason 'received'; its actions are in
 * tally-actions.ts) and count sessions (`counts.*`: start, count, review, apply). One store per API
 * object.
 *
 * Scans are handled one at a time in the order they came (a scanner is faster than the core's
 * answers): the list, the undo and the running totals always follow the scans' order.
 */
import { createStore } from 'zustand';
import type { StockroomApi } from '../../../common/contract/api.js';
import type { CountReviewView, CountSessionPageView, CountSessionView, TallyLineView, TallyScanView } from '../../../common/contract/contract.js';
import { type ErrorLike, errorWords } from '../../i18n/errors.js';
import { tr } from '../selectors.js';
import type { StockKey } from '../words.js';
import { type Beep, beep } from './sound.js';
import { tallyActions } from './tally-actions.js';

export type { TallyLineView, TallyOutcome, TallyScanView } from '../../../common/contract/contract.js';
export { keptCountStore } from './tally-actions.js';

export interface CountNotice {
  text: string;
  tone: 'ok' | 'error';
  seq: number;
  /** The core's message of an error that `text` does not show (renderer/i18n/errors.ts), as its tooltip. */
  detail?: string | undefined;
}

export type CountView = 'scan' | 'sessions';

export interface CountState {
  api: StockroomApi;
  /** Which part of the area is shown; null: the area is closed (the grid shows). */
  view: CountView | null;
  muted: boolean;
  /** The store scan-count mode adds to, chosen on purpose (never moved by the grid). */
  storeId: string | null;
  /** Units each scan adds (typed once, kept until changed). */
  quantity: number;
  /** The store's tally as the core keeps it: one line per product, oldest first. */
  lines: TallyLineView[];
  /** The tally's newest scan (the station shows it). */
  last: TallyScanView | null;
  /** Scans in the tally. */
  scanCount: number;
  /** The full-screen scan station is shown (Station.tsx). */
  station: boolean;
  notice: CountNotice | null;
  /** Scans waiting for the core (shown as "working"). */
  queued: number;

  sessions: CountSessionView[];
  current: CountSessionPageView | null;
  review: CountReviewView | null;
  /** The last scan of the open session, for its undo. */
  lastSessionScan: { userProductId: string; previous: number | null } | null;
  /** A scanned product the session does not list, waiting for the person to add it or not. */
  outside: { code: string; userProductId: string; title: string | null; why: 'not_in_store' | 'filtered_out' } | null;
  busy: boolean;

  open(view: CountView): void;
  close(): void;
  setMuted(muted: boolean): void;
  /** Chooses the store and shows its tally as kept. */
  setStore(storeId: string | null): Promise<void>;
  setQuantity(n: number): void;
  scan(code: string): Promise<void>;
  undoLast(): Promise<void>;
  setStation(on: boolean): void;
  /** Writes the tally: one adjustment per product with its total (reason received); applied lines leave the list. */
  applyScans(): Promise<boolean>;

  loadSessions(): Promise<void>;
  startSession(input: { storeId: string; blind: boolean; search?: string; lowStock?: number }): Promise<boolean>;
  openSession(id: number, more?: boolean): Promise<void>;
  leaveSession(): void;
  sessionScan(code: string, addOutside?: boolean): Promise<void>;
  /** Leaves the product outside the session: nothing is counted. */
  skipOutside(): void;
  undoSessionScan(): Promise<void>;
  setCounted(userProductId: string, counted: number | null): Promise<boolean>;
  loadReview(): Promise<void>;
  apply(): Promise<boolean>;
  cancelSession(): Promise<void>;
}

const MUTE_KEY = 'stockroom.count.muted';
export const SESSION_PAGE = 200;

function storedMute(): boolean {
  try {
    return globalThis.localStorage?.getItem(MUTE_KEY) === '1';
  } catch {
    return false;
  }
}

export interface CountStoreOptions {
  /** Plays a confirmation (WebAudio beeps by default; tests record them). */
  sound?: (kind: Beep) => void;
}

export function createCountStore(api: StockroomApi, o: CountStoreOptions = {}) {
  const play = o.sound ?? beep;
  let seq = 0;
  let chain: Promise<unknown> = Promise.resolve();
  /** Runs `fn` after every scan and undo before it (the list keeps the scans' order). */
  const inOrder = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  };

  return createStore<CountState>()((set, get) => {
    const say = (key: StockKey, vars: Record<string, string | number>, tone: CountNotice['tone'], sound: Beep, detail?: string) => {
      if (!get().muted) play(sound);
      set({ notice: { text: tr(key, vars), tone, seq: ++seq, ...(detail ? { detail } : {}) } });
    };
    const failed = (error: ErrorLike) => {
      const words = errorWords(error);
      say('count.failed', { message: words.text }, 'error', 'error', words.detail);
    };

    const refreshSession = async (id: number) => {
      const [page, list] = await Promise.all([api.counts.get({ sessionId: id, limit: SESSION_PAGE }), api.counts.list()]);
      if (page.ok) set({ current: page.value });
      if (list.ok) set({ sessions: list.value });
    };

    return {
      api,
      view: null,
      muted: storedMute(),
      storeId: null,
      quantity: 1,
      lines: [],
      last: null,
      scanCount: 0,
      station: false,
      notice: null,
      queued: 0,
      sessions: [],
      current: null,
      review: null,
      lastSessionScan: null,
      outside: null,
      busy: false,

      open: (view) => set({ view }),
      close: () => set({ view: null }),
      setMuted(muted) {
        set({ muted });
        try {
          globalThis.localStorage?.setItem(MUTE_KEY, muted ? '1' : '0');
        } catch {
          // No storage (a locked-down profile): the choice lasts this window.
        }
      },
      ...tallyActions({ api, set, get, say, failed, inOrder }),
      setQuantity: (n) => set({ quantity: Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : 1 }),

      setStation: (station) => set({ station }),

      async loadSessions() {
        const r = await api.counts.list();
        if (r.ok) set({ sessions: r.value });
        else failed(r.error);
      },

      async startSession(input) {
        set({ busy: true });
        try {
          const r = await api.counts.start(input);
          if (!r.ok) {
            failed(r.error);
            return false;
          }
          set({ review: null, lastSessionScan: null });
          await refreshSession(r.value.id);
          return true;
        } finally {
          set({ busy: false });
        }
      },

      async openSession(id, more = false) {
        const shown = more ? (get().current?.lines.length ?? 0) : 0;
        const r = await api.counts.get({ sessionId: id, limit: SESSION_PAGE, offset: shown });
        if (!r.ok) {
          failed(r.error);
          return;
        }
        const before = more ? (get().current?.lines ?? []) : [];
        set({ current: { ...r.value, lines: [...before, ...r.value.lines] }, review: null, lastSessionScan: more ? get().lastSessionScan : null });
        if (r.value.session.state !== 'open') await get().loadReview();
      },

      leaveSession: () => set({ current: null, review: null, lastSessionScan: null, outside: null }),

      sessionScan(raw, addOutside = false) {
        const code = raw.trim();
        const current = get().current;
        if (code === '' || !current) return Promise.resolve();
        set((s) => ({ queued: s.queued + 1, outside: null }));
        return inOrder(async () => {
          try {
            const r = await api.counts.scan({ sessionId: current.session.id, code, quantity: get().quantity, ...(addOutside ? { addOutside } : {}) });
            if (!r.ok) {
              if (r.error.code === 'not_found') say('count.unknown', { code }, 'error', 'error');
              else failed(r.error);
              return;
            }
            if ('outside' in r.value) {
              // Not counted: the person chooses whether it belongs in this count.
              const o = r.value.outside;
              set({ outside: { code, ...o } });
              say(o.why === 'not_in_store' ? 'count.outsideStore' : 'count.outsideFilter', { product: o.title ?? o.userProductId }, 'error', 'error');
              return;
            }
            const { line, previous } = r.value;
            set({ lastSessionScan: { userProductId: line.userProductId, previous } });
            say('count.scanned', { product: line.title ?? line.userProductId, counted: line.counted ?? 0 }, 'ok', 'ok');
            await refreshSession(current.session.id);
          } finally {
            set((s) => ({ queued: s.queued - 1 }));
          }
        });
      },

      skipOutside() {
        const o = get().outside;
        if (!o) return;
        set({ outside: null });
        say('count.outsideSkipped', { product: o.title ?? o.userProductId }, 'ok', 'undo');
      },

      undoSessionScan() {
        return inOrder(async () => {
          const last = get().lastSessionScan;
          const current = get().current;
          if (!last || !current) return;
          const r = await api.counts.set({ sessionId: current.session.id, userProductId: last.userProductId, counted: last.previous });
          if (!r.ok) {
            failed(r.error);
            return;
          }
          set({ lastSessionScan: null });
          say('count.sessionUndone', { product: r.value.title ?? r.value.userProductId }, 'ok', 'undo');
          await refreshSession(current.session.id);
        });
      },

      async setCounted(userProductId, counted) {
        const current = get().current;
        if (!current) return false;
        const r = await api.counts.set({ sessionId: current.session.id, userProductId, counted });
        if (!r.ok) {
          failed(r.error);
          return false;
        }
        set((s) => (s.current ? { current: { ...s.current, lines: s.current.lines.map((l) => (l.userProductId === userProductId ? r.value : l)) } } : {}));
        await refreshSession(current.session.id);
        return true;
      },

      async loadReview() {
        const current = get().current;
        if (!current) return;
        const r = await api.counts.review({ sessionId: current.session.id });
        if (r.ok) set({ review: r.value });
        else failed(r.error);
      },

      async apply() {
        const current = get().current;
        if (!current) return false;
        set({ busy: true });
        try {
          const r = await api.counts.apply({ sessionId: current.session.id });
          if (!r.ok) {
            failed(r.error);
            return false;
          }
          set({ review: r.value });
          const changed = r.value.lines.filter((l) => l.outcome !== 'unchanged');
          // Where the app is the marketplace nothing is queued: the counts are applied.
          if (changed.some((l) => l.result === 'applied')) say('count.appliedLocal', { count: changed.length }, 'ok', 'ok');
          else {
            const conflicts = changed.filter((l) => l.result === 'conflict').length;
            say('count.applied', { count: changed.length, conflicts }, conflicts > 0 ? 'error' : 'ok', 'ok');
          }
          await refreshSession(current.session.id);
          return true;
        } finally {
          set({ busy: false });
        }
      },

      async cancelSession() {
        const current = get().current;
        if (!current) return;
        const r = await api.counts.cancel({ sessionId: current.session.id });
        if (!r.ok) {
          failed(r.error);
          return;
        }
        set({ current: null, review: null, lastSessionScan: null });
        await get().loadSessions();
      },
    };
  });
}

export type CountStore = ReturnType<typeof createCountStore>;

const stores = new WeakMap<StockroomApi, CountStore>();
/** The window's Count store for this API (created at first use). */
export function countStoreFor(api: StockroomApi): CountStore {
  let s = stores.get(api);
  if (!s) stores.set(api, (s = createCountStore(api)));
  return s;
}

/**
 * The brands screen's state: the brand list of an account (the signed-in seller, or another user
 * id typed in), and the profile being looked at. A brand that no longer exists (the marketplace's
 * 404 B00001) is a state of its own, not an error.
 */
import { createStore } from 'zustand/vanilla';
import type { StockroomApi } from '../../preload/api.js';
import type { ApiError, BrandDetailView, BrandListEntryView, BrandListView } from '../../preload/contract.js';

export type Load<T> = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: ApiError };

export type ProfileLoad = Load<BrandDetailView> | { status: 'gone' };

export interface BrandsState {
  /** The account whose brands are shown; null: the signed-in seller. */
  userId: number | null;
  list: Load<BrandListView>;
  /** The open profile, or null for the list. */
  open: { officialStoreId: number; entry: BrandListEntryView | null; detail: ProfileLoad } | null;
  link: { kind: 'error' | 'info'; text: string; code?: string } | null;
}

export interface BrandsActions {
  load(userId?: number | null): Promise<void>;
  openProfile(officialStoreId: number): Promise<void>;
  close(): void;
  openLink(url: string): Promise<void>;
  clearLink(): void;
}

export type BrandsStore = ReturnType<typeof createBrandsStore>;

export function createBrandsStore(api: StockroomApi) {
  let seq = 0;
  return createStore<BrandsState & BrandsActions>()((set, get) => ({
    userId: null,
    list: { status: 'idle' },
    open: null,
    link: null,

    async load(userId) {
      const target = userId === undefined ? get().userId : userId;
      const n = ++seq;
      set({ userId: target, list: { status: 'loading' } });
      const r = await api.brands.list(target === null ? undefined : { userId: target });
      if (n !== seq) return;
      set({ list: r.ok ? { status: 'ready', value: r.value } : { status: 'error', error: r.error } });
    },

    async openProfile(officialStoreId) {
      const list = get().list;
      const entry = list.status === 'ready' ? (list.value.list?.brands.find((b) => b.official_store_id === officialStoreId) ?? null) : null;
      const userId = list.status === 'ready' ? list.value.userId : get().userId;
      set({ open: { officialStoreId, entry, detail: { status: 'loading' } }, link: null });
      const r = await api.brands.detail({ officialStoreId, ...(userId !== null ? { userId } : {}) });
      if (get().open?.officialStoreId !== officialStoreId) return;
      const detail: ProfileLoad = r.ok
        ? { status: 'ready', value: r.value }
        : r.error.code === 'B00001' || r.error.status === 404
          ? { status: 'gone' }
          : { status: 'error', error: r.error };
      set({ open: { officialStoreId, entry, detail } });
    },

    close() {
      set({ open: null, link: null });
    },

    async openLink(url) {
      const r = await api.app.openExternal({ url });
      if (r.ok) set({ link: r.value.opened ? { kind: 'info', text: url } : { kind: 'error', text: url, code: 'not_opened' } });
      else set({ link: { kind: 'error', text: r.error.message, code: r.error.code } });
    },

    clearLink() {
      set({ link: null });
    },
  }));
}

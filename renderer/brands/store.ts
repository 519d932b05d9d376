/**
 * The brands screen's state: the brand list of an account (the signed-in seller, an account picked
 * from the linked ones, or another user id typed in), the accounts with their names, and the
 * profile being looked at. A brand that no longer exists (the marketplace's
 * 404 B00001) is a state of its own, not an error.
 */
import { createStore } from 'zustand/vanilla';
import type { StockroomApi } from '../../common/contract/api.js';
import type { ApiError, BrandAccountView, BrandDetailView, BrandListEntryView, BrandListView } from '../../common/contract/contract.js';

export type Load<T> = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: ApiError };

export type ProfileLoad = Load<BrandDetailView> | { status: 'gone' };

export interface BrandsState {
  /** The account whose brands are shown; null: the signed-in seller. */
  userId: number | null;
  list: Load<BrandListView>;
  /** The open profile, or null for the list. */
  open: { officialStoreId: number; entry: BrandListEntryView | null; detail: ProfileLoad } | null;
  /** The last link opened; `error`: the core's refusal, shown in words (renderer/i18n/errors.ts). */
  link: { kind: 'error' | 'info'; text: string; code?: string; error?: ApiError } | null;
  /** The accounts to pick from (the seller first), and every account named so far (linked users of a profile). */
  accounts: Load<BrandAccountView[]>;
  names: Readonly<Record<number, BrandAccountView>>;
  /** Each account's brands as last read (the brand accounts' brands under an empty list, BrandAccountsBrands.tsx). */
  known: Readonly<Record<number, BrandListView>>;
}

export interface BrandsActions {
  /** `quiet`: read again without showing "loading" (a pull ended while the list was on screen). */
  load(userId?: number | null, quiet?: boolean): Promise<void>;
  loadAccounts(quiet?: boolean): Promise<void>;
  /** Reads an account's brands into `known` without showing them as the list (once: a list already read is kept). */
  peek(userId: number): Promise<void>;
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
    accounts: { status: 'idle' },
    names: {},
    known: {},

    async peek(userId) {
      if (userId in get().known) return;
      const r = await api.brands.list({ userId });
      if (r.ok) set({ known: { ...get().known, [userId]: r.value } });
    },

    async loadAccounts(quiet = false) {
      if (!quiet) set({ accounts: { status: 'loading' } });
      const r = await api.brands.accounts();
      if (!r.ok) {
        if (quiet) return;
        set({ accounts: { status: 'error', error: r.error } });
        return;
      }
      const names = { ...get().names };
      for (const a of r.value) names[a.userId] = a;
      set({ accounts: { status: 'ready', value: r.value }, names });
    },

    async load(userId, quiet = false) {
      const target = userId === undefined ? get().userId : userId;
      const n = ++seq;
      if (quiet) set({ userId: target });
      else set({ userId: target, list: { status: 'loading' } });
      const r = await api.brands.list(target === null ? undefined : { userId: target });
      if (n !== seq || (quiet && !r.ok)) return;
      set({ list: r.ok ? { status: 'ready', value: r.value } : { status: 'error', error: r.error } });
      if (r.ok && target !== null) set({ known: { ...get().known, [target]: r.value } });
      // An account typed in reads as a name once the marketplace tells it.
      if (!r.ok || target === null || target in get().names) return;
      const named = await api.brands.accounts({ include: [target] });
      if (!named.ok) return;
      const names = { ...get().names };
      for (const u of named.value) names[u.userId] = u;
      set({ names });
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
      // The linked users read as names: ask for those not named yet.
      const unnamed = r.ok ? r.value.users.map((u) => u.cust_id).filter((id) => !(id in get().names)) : [];
      if (unnamed.length === 0) return;
      const named = await api.brands.accounts({ include: unnamed.slice(0, 50) });
      if (!named.ok) return;
      const names = { ...get().names };
      for (const u of named.value) names[u.userId] = u;
      set({ names });
    },

    close() {
      set({ open: null, link: null });
    },

    async openLink(url) {
      const r = await api.app.openExternal({ url });
      if (r.ok) set({ link: r.value.opened ? { kind: 'info', text: url } : { kind: 'error', text: url, code: 'not_opened' } });
      else set({ link: { kind: 'error', text: r.error.message, code: r.error.code, error: r.error } });
    },

    clearLink() {
      set({ link: null });
    },
  }));
}

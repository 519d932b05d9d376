/**
 * When the seller's own account has no brands (the demo seller's case), the brands of a brand
 * account it can see are listed under the empty state, so the screen never opens empty where
 * there are brands to show; a card opens that account's list and the profile.
 */
import { useEffect } from 'react';
import { useStore } from 'zustand';
import { useI18n } from '../i18n/index.js';
import { accountName } from './account-name.js';
import { BrandCard } from './BrandCard.js';
import type { BrandsStore } from './store.js';

export function BrandAccountsBrands({ store }: { store: BrandsStore }) {
  const i = useI18n();
  const accounts = useStore(store, (s) => s.accounts);
  const brandAccount = accounts.status === 'ready' ? accounts.value.find((a) => a.brand && !a.self) : undefined;
  const userId = brandAccount?.userId;
  const brands = useStore(store, (s) => (userId === undefined ? undefined : s.known[userId]?.list?.brands));
  useEffect(() => {
    if (userId !== undefined) void store.getState().peek(userId);
  }, [store, userId]);
  if (!brandAccount || !brands || brands.length === 0) return null;
  const open = async (officialStoreId: number) => {
    await store.getState().load(brandAccount.userId);
    await store.getState().openProfile(officialStoreId);
  };
  return (
    <section className="brand-accounts-brands" aria-labelledby="brand-accounts-brands-title">
      <h3 id="brand-accounts-brands-title">{i.t('brands.ofBrandAccount', { name: accountName(i, brandAccount, brandAccount.userId) })}</h3>
      <ul className="brand-cards">
        {brands.map((b) => (
          <li key={b.official_store_id}>
            <BrandCard brand={b} onOpen={() => void open(b.official_store_id)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

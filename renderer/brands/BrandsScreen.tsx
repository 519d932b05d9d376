// The brands screen: the account picker and the list; the cards (BrandCard.tsx), the profile
// (BrandProfile.tsx) and the brand accounts' brands under an empty list (BrandAccountsBrands.tsx)
// are their own modules, sharing the screen's store (store.ts).
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useStore } from 'zustand';
import type { StockroomApi } from '../../common/contract/api.js';
import type { BrandAccountView } from '../../common/contract/contract.js';
import { type I18n, useI18n } from '../i18n/index.js';
import { accountName } from './account-name.js';
import { BrandAccountsBrands } from './BrandAccountsBrands.js';
import { BrandCard } from './BrandCard.js';
import { Profile } from './BrandProfile.js';
import { PictureHosts } from './pictures.js';
import { StateError } from './StateError.js';
import { type BrandsStore, createBrandsStore } from './store.js';
import './brands.css';

export { accountName } from './account-name.js';

/** Brands (official stores) linked to an account: a card per brand, then a profile page per brand. */
export function BrandsScreen({ api }: { api: StockroomApi }) {
  const [store] = useState(() => createBrandsStore(api));
  const open = useStore(store, (s) => s.open);
  const [pictureHosts, setPictureHosts] = useState<readonly string[]>([]);
  useEffect(() => {
    let live = true;
    void api.app.info().then((r) => {
      if (live && r.ok) setPictureHosts(r.value.pictureHosts);
    });
    return () => {
      live = false;
    };
  }, [api]);
  useEffect(() => {
    void store.getState().load();
    void store.getState().loadAccounts();
    const offSession = api.subscribe('session.changed', () => {
      void store.getState().load(null);
      void store.getState().loadAccounts();
    });
    // A pull ended: the replica's brands and their linked accounts may have arrived since they were
    // read (the first pull of an account ends after this screen opened): read them again. Null at
    // first, so a status naming a pull the screen may have missed reloads once.
    let lastPullAt: number | null = null;
    const offSync = api.subscribe('sync.status', (e) => {
      if (e.status.lastPullAt === lastPullAt) return;
      lastPullAt = e.status.lastPullAt;
      void store.getState().load(undefined, true);
      void store.getState().loadAccounts(true);
    });
    return () => {
      offSession();
      offSync();
    };
  }, [store, api]);
  return (
    <PictureHosts.Provider value={pictureHosts}>
      <div className="brands">{open ? <Profile store={store} /> : <BrandList store={store} />}</div>
    </PictureHosts.Provider>
  );
}

function accountLabel(i: I18n, a: BrandAccountView): string {
  const name = accountName(i, a, a.userId);
  if (a.self) return i.t('brands.accountSelf', { name });
  return a.brand ? i.t('brands.accountBrand', { name }) : name;
}

const OTHER = 'other';

/** Picks the account whose brands are shown: the linked accounts by name, or another one by its user id. */
function AccountPicker({ store }: { store: BrandsStore }) {
  const i = useI18n();
  const { t } = i;
  const accounts = useStore(store, (s) => s.accounts);
  const userId = useStore(store, (s) => s.userId);
  const listed = accounts.status === 'ready' ? accounts.value : [];
  const self = listed.find((a) => a.self);
  const current = userId === null || userId === self?.userId ? (self ? String(self.userId) : '') : String(userId);
  const known = listed.some((a) => String(a.userId) === current);
  const [other, setOther] = useState(!known && userId !== null);
  const [account, setAccount] = useState(userId === null || known ? '' : String(userId));
  const [invalid, setInvalid] = useState(false);
  const selectId = useId();
  const inputId = useId();
  const hintId = useId();

  const pick = (value: string) => {
    if (value === OTHER) {
      setOther(true);
      return;
    }
    setOther(false);
    const a = listed.find((x) => String(x.userId) === value);
    void store.getState().load(!a || a.self ? null : a.userId);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = account.trim();
    if (v === '') {
      setInvalid(false);
      void store.getState().load(null);
      return;
    }
    if (!/^[1-9][0-9]{0,15}$/.test(v)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    void store.getState().load(Number(v));
  };

  // Without the accounts (an error), the user id is typed in as before.
  const typed = other || accounts.status === 'error';
  return (
    <form className="brands-account" onSubmit={submit}>
      {accounts.status === 'error' ? null : (
        <>
          <label htmlFor={selectId}>{t('brands.pickAccount')}</label>
          <select id={selectId} value={other ? OTHER : current} onChange={(e) => pick(e.target.value)} aria-busy={accounts.status === 'loading'}>
            {listed.map((a) => (
              <option key={a.userId} value={String(a.userId)}>
                {accountLabel(i, a)}
              </option>
            ))}
            {self ? null : <option value="">{t('brands.list')}</option>}
            <option value={OTHER}>{t('brands.accountOther')}</option>
          </select>
        </>
      )}
      {typed ? (
        <>
          <label htmlFor={inputId}>{t('brands.account')}</label>
          <input
            id={inputId}
            inputMode="numeric"
            value={account}
            aria-describedby={hintId}
            aria-invalid={invalid}
            onChange={(e) => setAccount(e.target.value)}
          />
          <button type="submit">{t('brands.show')}</button>
          <p id={hintId} className="hint">
            {invalid ? (
              <>
                <span aria-hidden="true">⚠ </span>
                {t('settings.invalidNumber')}
              </>
            ) : (
              t('brands.accountHint')
            )}
          </p>
        </>
      ) : null}
    </form>
  );
}

function BrandList({ store }: { store: BrandsStore }) {
  const i = useI18n();
  const { t } = i;
  const list = useStore(store, (s) => s.list);
  const userId = useStore(store, (s) => s.userId);
  const names = useStore(store, (s) => s.names);

  return (
    <section aria-labelledby="brands-title">
      <h2 id="brands-title">
        {list.status !== 'ready' || userId === null
          ? t('brands.list')
          : names[userId]
            ? t('brands.ofAccount', { name: accountName(i, names[userId], userId) })
            : t('brands.ofUser', { id: String(userId) })}
      </h2>
      <AccountPicker store={store} />
      {list.status === 'idle' || list.status === 'loading' ? (
        <p className="state loading" role="status">
          {t('common.loading')}
        </p>
      ) : list.status === 'error' ? (
        <StateError error={list.error} onRetry={() => void store.getState().load()} />
      ) : !list.value.list || list.value.list.brands.length === 0 ? (
        <>
          <p className="state empty">
            <span aria-hidden="true">ℹ </span>
            {t('brands.none')}
          </p>
          {userId === null ? <BrandAccountsBrands store={store} /> : null}
        </>
      ) : (
        <>
          <p className="count">{t('brands.count', { count: list.value.list.brands.length })}</p>
          <ul className="brand-cards">
            {list.value.list.brands.map((b) => (
              <li key={b.official_store_id}>
                <BrandCard brand={b} onOpen={() => void store.getState().openProfile(b.official_store_id)} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

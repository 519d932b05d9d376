// Over 400 lines: the brands screen's parts (account picker, list, profile, manager form) share one
// store and its words; each part is a small component in this file. Next split: the manager form.
import { type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { siteById } from '../../common/marketplace.js';
import type { StockroomApi } from '../../common/contract/api.js';
import type { ApiError, BrandAccountView, BrandDetailView, BrandListEntryView, PictureView } from '../../common/contract/contract.js';
import { errorDetail, errorText } from '../i18n/errors.js';
import { type I18n, useI18n } from '../i18n/index.js';
import { categoryName } from './categories.js';
import { BACKGROUND_NAMES, LOGO_NAMES, initials, pictureByNames, pictureUrl } from './pictures.js';
import { type BrandsStore, createBrandsStore } from './store.js';
import './brands.css';

/** Brands (official stores) linked to an account: a card per brand, then a profile page per brand. */
export function BrandsScreen({ api }: { api: StockroomApi }) {
  const [store] = useState(() => createBrandsStore(api));
  const open = useStore(store, (s) => s.open);
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
  return <div className="brands">{open ? <Profile store={store} /> : <BrandList store={store} />}</div>;
}

function StateError({ error, onRetry }: { error: ApiError; onRetry: () => void }) {
  const { t, language } = useI18n();
  return (
    <div className="state error" role="alert">
      <p title={errorDetail(error, language)}>
        <span aria-hidden="true">⚠ </span>
        {t('common.error', { message: errorText(error, language) })}
      </p>
      <button type="button" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** An account in words: "First Last (nickname)", the nickname alone when the names are empty. */
export function accountName(i: I18n, a: BrandAccountView | undefined, userId: number): string {
  if (!a) return i.t('brands.userUnknown', { id: String(userId) });
  const full = [a.firstName, a.lastName].filter((s) => s.trim() !== '').join(' ');
  return full === '' ? a.nickname : i.t('order.buyerName', { name: full, nickname: a.nickname });
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
        <p className="state empty">
          <span aria-hidden="true">ℹ </span>
          {t('brands.none')}
        </p>
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

function BrandCard({ brand: b, onOpen }: { brand: BrandListEntryView; onOpen: () => void }) {
  const id = useId();
  const i = useI18n();
  const { t } = i;
  const name = b.fantasy_name || b.name;
  // The button holds the brand's name only, so the words read are the words seen (WCAG 2.5.3,
  // issue 28); it covers the whole card (brands.css) and the card's other facts describe it.
  return (
    <div className="brand-card" data-id={b.official_store_id}>
      <Logo pictures={b.pictures} name={name} size="small" />
      <span className="brand-card-body">
        <button type="button" className="brand-card-open" aria-label={t('brands.open', { name })} aria-describedby={`${id}-details`} onClick={onOpen}>
          <strong>{name}</strong>
        </button>
        <span id={`${id}-details`} className="brand-card-details">
          <span className="legal">{b.name}</span>
          <span className="facts">
            <StatusText i={i} status={b.status} /> · {t('brands.relevance')}: {t('brands.relevanceValue', { position: b.relevance_position })}
          </span>
          <Tags i={i} tags={b.tags} />
        </span>
      </span>
    </div>
  );
}

function StatusText({ i, status }: { i: I18n; status: string }) {
  const active = status === 'active';
  return (
    <span className={`brand-status ${active ? 'active' : 'other'}`}>
      <span aria-hidden="true">{active ? '✓ ' : '○ '}</span>
      {i.code('brands.statusName', status)}
    </span>
  );
}

function Tags({ i, tags }: { i: I18n; tags: readonly string[] }) {
  if (tags.length === 0) return null;
  return (
    <span className="tags">
      {tags.map((tag) =>
        tag === 'TOP_BRAND' ? (
          <span key={tag} className="badge top-brand">
            <span aria-hidden="true">★ </span>
            {i.code('brands.tag', tag)}
          </span>
        ) : (
          <span key={tag} className="badge">
            {i.code('brands.tag', tag)}
          </span>
        ),
      )}
    </span>
  );
}

/** The logo by picture name (logo, small_logo, big_logo), or the brand's initials when none loads. */
function Logo({ pictures, name, size }: { pictures: readonly PictureView[]; name: string; size: 'small' | 'large' }) {
  const { t } = useI18n();
  const order = size === 'small' ? (['small_logo', 'logo', 'big_logo'] as const) : (['big_logo', 'logo', 'small_logo'] as const);
  const picture = pictureByNames(
    pictures,
    order.filter((n) => (LOGO_NAMES as readonly string[]).includes(n)),
  );
  const url = pictureUrl(picture);
  const [failed, setFailed] = useState<string | null>(null);
  if (!url || failed === url) {
    return (
      <span className={`logo initials ${size}`} role="img" aria-label={t('brands.logo', { name })}>
        {initials(name)}
      </span>
    );
  }
  return <img className={`logo ${size}`} src={url} alt={t('brands.logo', { name })} referrerPolicy="no-referrer" onError={() => setFailed(url)} />;
}

function Background({ pictures, name }: { pictures: readonly PictureView[]; name: string }) {
  const { t } = useI18n();
  const url = pictureUrl(pictureByNames(pictures, BACKGROUND_NAMES));
  const [failed, setFailed] = useState(false);
  if (!url || failed) return <div className="brand-background none" aria-hidden="true" />;
  return <img className="brand-background" src={url} alt={t('brands.background', { name })} referrerPolicy="no-referrer" onError={() => setFailed(true)} />;
}

function Profile({ store }: { store: BrandsStore }) {
  const i = useI18n();
  const { t } = i;
  const open = useStore(store, (s) => s.open)!;
  const back = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const close = () => store.getState().close();

  useEffect(() => {
    (heading.current ?? back.current)?.focus();
  }, [open.detail.status]);

  let body;
  if (open.detail.status === 'loading' || open.detail.status === 'idle') {
    body = (
      <p className="state loading" role="status">
        {t('common.loading')}
      </p>
    );
  } else if (open.detail.status === 'gone') {
    body = (
      <div className="state gone" role="alert">
        <p>
          <span aria-hidden="true">⊘ </span>
          {t('brands.gone')}
        </p>
        <p className="muted">{t('brands.id', { id: String(open.officialStoreId) })}</p>
      </div>
    );
  } else if (open.detail.status === 'error') {
    body = <StateError error={open.detail.error} onRetry={() => void store.getState().openProfile(open.officialStoreId)} />;
  } else {
    body = <ProfileBody i={i} detail={open.detail.value} entry={open.entry} store={store} headingRef={heading} />;
  }

  return (
    <section
      className="brand-profile"
      aria-label={t('brands.profile')}
      onKeyDown={(e) => {
        if (e.key === 'Escape') close();
      }}
    >
      <button ref={back} type="button" className="back" onClick={close}>
        <span aria-hidden="true">← </span>
        {t('brands.back')}
      </button>
      {body}
    </section>
  );
}

function ProfileBody({
  i,
  detail: d,
  entry,
  store,
  headingRef,
}: {
  i: I18n;
  detail: BrandDetailView;
  entry: BrandListEntryView | null;
  store: BrandsStore;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const { t } = i;
  const link = useStore(store, (s) => s.link);
  const names = useStore(store, (s) => s.names);
  const name = d.fantasy_name || d.name;
  const main = new Set((entry?.main_categories ?? []).map((c) => c.id));
  const links = [
    ['brands.link.permalink', entry?.permalink],
    ['brands.link.landing', entry?.landing_permalink],
  ].filter((l): l is ['brands.link.permalink' | 'brands.link.landing', string] => typeof l[1] === 'string' && l[1] !== '');
  const hasLogo = pictureByNames(d.pictures, LOGO_NAMES) !== undefined;
  return (
    <article className="brand-profile-body">
      <header className="brand-hero">
        <Background pictures={d.pictures} name={name} />
        <div className="brand-hero-text">
          <Logo pictures={d.pictures} name={name} size="large" />
          <div>
            <h2 ref={headingRef} tabIndex={-1}>
              {name}
            </h2>
            <p className="muted">{t('brands.id', { id: String(d.official_store_id) })}</p>
            <Tags i={i} tags={d.tags} />
          </div>
        </div>
      </header>
      {d.pictures.length === 0 || !hasLogo ? (
        <p className="state muted">
          <span aria-hidden="true">ℹ </span>
          {t('brands.noPictures')}
        </p>
      ) : null}
      <dl className="brand-facts">
        <dt>{t('brands.legalName')}</dt>
        <dd>{d.name}</dd>
        <dt>{t('brands.status')}</dt>
        <dd>
          <StatusText i={i} status={d.status} />
        </dd>
        <dt>{t('brands.relevance')}</dt>
        <dd>{t('brands.relevanceValue', { position: d.relevance_position })}</dd>
        <dt>{t('brands.site')}</dt>
        <dd>{siteById(d.site_id)?.name ?? d.site_id}</dd>
        <dt>{t('brands.boost')}</dt>
        <dd className={`boost ${d.boost.is_active ? 'on' : 'off'}`}>
          <span aria-hidden="true">{d.boost.is_active ? '▲ ' : '○ '}</span>
          {d.boost.is_active
            ? d.boost.last_update
              ? t('brands.boostOn', { date: i.formatDate(d.boost.last_update, 'date') })
              : t('brands.boostOnNoDate')
            : d.boost.last_update
              ? t('brands.boostOffSince', { date: i.formatDate(d.boost.last_update, 'date') })
              : t('brands.boostOff')}
        </dd>
        <dt>{t('brands.created')}</dt>
        <dd>
          <time dateTime={d.date_created}>{i.formatDate(d.date_created, 'date')}</time>
        </dd>
        {entry?.last_updated ? (
          <>
            <dt>{t('brands.updated')}</dt>
            <dd>
              <time dateTime={entry.last_updated}>{i.formatDate(entry.last_updated, 'date')}</time>
            </dd>
          </>
        ) : null}
        <dt>{t('brands.categories')}</dt>
        <dd>
          {d.categories_ids.length === 0 ? (
            t('brands.noCategories')
          ) : (
            <ul className="categories">
              {d.categories_ids.map((c) => (
                <li key={c} title={c} data-category={c}>
                  {categoryName(c) ?? t('brands.categoryUnnamed')}
                  {main.has(c) ? ` (${t('brands.mainCategory')})` : ''}
                </li>
              ))}
            </ul>
          )}
        </dd>
        {d.users.length > 0 ? (
          <>
            <dt>{t('brands.users')}</dt>
            <dd>
              <ul>
                {d.users.map((u) => (
                  <li key={u.cust_id} data-user={u.cust_id}>
                    {accountName(i, names[u.cust_id], u.cust_id)} · {u.user_type === 'brand' ? t('brands.userType.brand') : t('brands.userType.other')}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
      </dl>
      {links.length > 0 ? (
        <section className="brand-links" aria-label={t('brands.links')}>
          <h3>{t('brands.links')}</h3>
          <ul>
            {links.map(([key, url]) => (
              <li key={key}>
                <button type="button" className="link" onClick={() => void store.getState().openLink(url)}>
                  {t(key)} <span aria-hidden="true">↗</span>
                </button>{' '}
                <span className="muted url">{url}</span>
              </li>
            ))}
          </ul>
          {link ? (
            <p className={`link-result ${link.kind}`} role={link.kind === 'error' ? 'alert' : 'status'} title={errorDetail(link.error, i.language)}>
              {link.kind === 'info' ? (
                <>
                  <span aria-hidden="true">✓ </span>
                  {t('brands.linkOpened')}
                </>
              ) : (
                <>
                  <span aria-hidden="true">⚠ </span>
                  {link.code === 'forbidden_url' || link.code === 'not_opened'
                    ? t('brands.linkNotAllowed')
                    : t('common.error', { message: link.error ? errorText(link.error, i.language) : link.text })}
                </>
              )}
            </p>
          ) : null}
        </section>
      ) : null}
    </article>
  );
}

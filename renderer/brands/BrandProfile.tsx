/** A brand's profile page: background, logo, names, status, relevance, tags, categories, boost, dates, links, linked accounts. */
import { type RefObject, useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import { siteById } from '../../common/marketplace.js';
import type { BrandDetailView, BrandListEntryView } from '../../common/contract/contract.js';
import { errorDetail, errorText } from '../i18n/errors.js';
import { type I18n, useI18n } from '../i18n/index.js';
import { accountName } from './account-name.js';
import { Background, Logo, StatusText, Tags } from './BrandCard.js';
import { categoryName } from './categories.js';
import { LOGO_NAMES, pictureByNames } from './pictures.js';
import { StateError } from './StateError.js';
import type { BrandsStore } from './store.js';

export function Profile({ store }: { store: BrandsStore }) {
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

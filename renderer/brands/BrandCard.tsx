/** A brand's card in a list, and the parts its profile shares with it: status, tags, logo, background. */
import { useContext, useId, useState } from 'react';
import type { BrandListEntryView, PictureView } from '../../common/contract/contract.js';
import { type I18n, useI18n } from '../i18n/index.js';
import { BACKGROUND_NAMES, LOGO_NAMES, PictureHosts, initials, pictureAllowed, pictureByNames, pictureUrl } from './pictures.js';
import '../ui/ui.css';

export function BrandCard({ brand: b, onOpen }: { brand: BrandListEntryView; onOpen: () => void }) {
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

export function StatusText({ i, status }: { i: I18n; status: string }) {
  const active = status === 'active';
  return (
    <span className={`brand-status ${active ? 'active' : 'other'}`}>
      <span aria-hidden="true">{active ? '✓ ' : '○ '}</span>
      {i.code('brands.statusName', status)}
    </span>
  );
}

export function Tags({ i, tags }: { i: I18n; tags: readonly string[] }) {
  if (tags.length === 0) return null;
  return (
    <span className="tags">
      {tags.map((tag) =>
        tag === 'TOP_BRAND' ? (
          <span key={tag} className="ui-badge badge top-brand">
            <span aria-hidden="true">★ </span>
            {i.code('brands.tag', tag)}
          </span>
        ) : (
          <span key={tag} className="ui-badge badge">
            {i.code('brands.tag', tag)}
          </span>
        ),
      )}
    </span>
  );
}

/** The logo by picture name (logo, small_logo, big_logo), or the brand's initials when none loads. */
export function Logo({ pictures, name, size }: { pictures: readonly PictureView[]; name: string; size: 'small' | 'large' }) {
  const { t } = useI18n();
  const order = size === 'small' ? (['small_logo', 'logo', 'big_logo'] as const) : (['big_logo', 'logo', 'small_logo'] as const);
  const picture = pictureByNames(
    pictures,
    order.filter((n) => (LOGO_NAMES as readonly string[]).includes(n)),
  );
  const url = pictureUrl(picture);
  const hosts = useContext(PictureHosts);
  const [failed, setFailed] = useState<string | null>(null);
  if (!url || failed === url || !pictureAllowed(url, hosts)) {
    return (
      <span className={`logo initials ${size}`} role="img" aria-label={t('brands.logo', { name })}>
        {initials(name)}
      </span>
    );
  }
  return <img className={`logo ${size}`} src={url} alt={t('brands.logo', { name })} referrerPolicy="no-referrer" onError={() => setFailed(url)} />;
}

export function Background({ pictures, name }: { pictures: readonly PictureView[]; name: string }) {
  const { t } = useI18n();
  const url = pictureUrl(pictureByNames(pictures, BACKGROUND_NAMES));
  const hosts = useContext(PictureHosts);
  const [failed, setFailed] = useState(false);
  if (!url || failed || !pictureAllowed(url, hosts)) return <div className="brand-background none" aria-hidden="true" />;
  return <img className="brand-background" src={url} alt={t('brands.background', { name })} referrerPolicy="no-referrer" onError={() => setFailed(true)} />;
}

import { useEffect, useState } from 'react';
import { siteById } from '../../common/marketplace.js';
import type { StockroomApi } from '../../common/contract/api.js';
import type { SessionView } from '../../common/contract/contract.js';
import { useI18n } from '../i18n/index.js';
import { Button } from '../ui/Button.js';
import { useWelcome } from './store.js';
import './account-badge.css';

const hostOf = (url: string | null): string => {
  try {
    return url ? new URL(url).host : '';
  } catch {
    return '';
  }
};

/**
 * Whose data is open, always in the frame: "Demo data" (with a way to connect an account), or the
 * account's name, its country and marketplace, and whether it is signed in.
 */
export function AccountBadge({ api }: { api: StockroomApi }) {
  const { t } = useI18n();
  const [session, setSession] = useState<SessionView | null>(null);
  useEffect(() => {
    let live = true;
    const refresh = () => void api.session.status().then((r) => live && r.ok && setSession(r.value));
    refresh();
    const offs = [
      api.subscribe('session.changed', (e) => setSession(e.session)),
      api.subscribe('settings.changed', refresh),
      api.subscribe('sync.pull', refresh),
    ];
    return () => {
      live = false;
      for (const off of offs) off();
    };
  }, [api]);
  if (!session) return null;
  if (session.mode === 'local-only' || session.via === 'demo')
    return (
      <div className="account-badge demo" data-account="demo">
        <strong className="demo-label">{t('welcome.demoLabel')}</strong> <span className="hint">{t('welcome.demoHint')}</span>{' '}
        <Button size="sm" onClick={() => useWelcome.getState().openConnect()}>
          {t('welcome.connect')}
        </Button>
      </div>
    );
  const name = session.user ? (session.user.nickname ?? t('welcome.seller', { id: String(session.user.id) })) : '';
  const site = siteById(session.siteId)?.name;
  const host = hostOf(session.baseUrl);
  return (
    <div className="account-badge" data-account={session.user?.id ?? ''}>
      <span aria-hidden="true">{session.signedIn ? '● ' : '○ '}</span>
      <strong>{name}</strong>
      {site ? ` · ${site}` : null}
      {host ? <span className="hint"> · {host}</span> : null}
      {!session.signedIn ? <span className="signed-out"> · {t('settings.signedOut')}</span> : null}
    </div>
  );
}

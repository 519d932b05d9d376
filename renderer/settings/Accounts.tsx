import { useStore } from 'zustand';
import { siteById } from '../../common/marketplace.js';
import type { AccountView, SettingsView } from '../../common/contract/contract.js';
import { useI18n } from '../i18n/index.js';
import { Button } from '../ui/Button.js';
import { useWelcome } from '../welcome/store.js';
import type { SettingsStore } from './store.js';

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/**
 * Whose data is open, and the accounts opened on this computer: each keeps its own replica and
 * outbox (`remote/<host>-<seller>`), so opening another one never mixes their data or changes.
 */
export function Accounts({ store, settings }: { store: SettingsStore; settings: SettingsView }) {
  const { t } = useI18n();
  const saving = useStore(store, (s) => s.saving);
  const session = useStore(store, (s) => s.session);
  const accounts = settings.accounts ?? [];
  const open = accounts.find((a) => a.open);
  // The account's nickname, as the frame names it: the session knows it before the list does (issue 27).
  const nickname = (a: AccountView) =>
    a.nickname ??
    (session?.user?.id === a.userId && session.baseUrl === a.baseUrl ? session.user.nickname : null) ??
    t('welcome.seller', { id: String(a.userId) });
  const label = (a: AccountView) => [nickname(a), siteById(a.siteId)?.name, hostOf(a.baseUrl)].filter((x): x is string => !!x).join(' · ');
  return (
    <section className="settings-accounts" aria-labelledby="settings-accounts-title">
      <h3 id="settings-accounts-title">{t('settings.account')}</h3>
      <p className="current-account">
        {settings.mode === 'local-only' ? t('settings.accountDemo') : open ? t('settings.accountOpen', { name: label(open) }) : null}
      </p>
      {accounts.length > 0 ? (
        <>
          <h4>{t('settings.accounts')}</h4>
          <ul className="accounts">
            {accounts.map((a) => (
              <li key={`${a.baseUrl}|${a.userId}`}>
                {label(a)}{' '}
                {a.open && settings.mode !== 'local-only' ? (
                  <span className="muted-inline">{t('settings.accountIsOpen')}</span>
                ) : (
                  <Button
                    size="sm"
                    disabled={saving}
                    onClick={() =>
                      void store.getState().save({ baseUrl: a.baseUrl, applicationId: a.applicationId, userId: a.userId, siteId: a.siteId, mode: 'online' })
                    }
                  >
                    {t('settings.openAccount')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
          <p className="hint">{t('settings.accountsHint')}</p>
        </>
      ) : null}
      <p className="actions">
        <Button onClick={() => useWelcome.getState().openConnect()}>{t('settings.connectAnother')}</Button>
        {settings.mode !== 'local-only' ? (
          <Button disabled={saving} onClick={() => void store.getState().save({ mode: 'local-only' })}>
            {t('settings.openDemo')}
          </Button>
        ) : null}
      </p>
    </section>
  );
}

import { type FormEvent, useId, useState } from 'react';
import { BUILT_IN_APPLICATION_ID, BUILT_IN_MARKETPLACE_URL, SITES } from '../../common/marketplace.js';
import { remoteAddressProblem } from '../../common/remote-address.js';
import type { SettingsView } from '../../common/contract/contract.js';
import { useI18n } from '../i18n/index.js';
import { Button } from '../ui/Button.js';
import { Field } from '../ui/Field.js';
import { KeepSignedIn } from './KeepSignedIn.js';
import type { ConnectForm as Form } from './store.js';

const wholeNumber = (v: string) => (/^[1-9][0-9]{0,15}$/.test(v.trim()) ? Number(v.trim()) : null);

/**
 * Connecting an account: the country (the marketplace's site), whether to stay signed in, and an
 * Advanced section with the marketplace address, the application id (both built in) and a pasted
 * token with its user id instead of the browser sign-in.
 */
export function ConnectForm({ settings, onConnect, onBack }: { settings: SettingsView | null; onConnect: (f: Form) => void; onBack: () => void }) {
  const { t, language } = useI18n();
  const id = useId();
  const [siteId, setSiteId] = useState(settings?.siteId ?? (language === 'pt-BR' ? 'MLB' : 'MLA'));
  const [keep, setKeep] = useState(settings?.keepSignedIn ?? true);
  const [baseUrl, setBaseUrl] = useState(settings?.baseUrl ?? BUILT_IN_MARKETPLACE_URL);
  const [applicationId, setApplicationId] = useState(String(settings?.applicationId ?? BUILT_IN_APPLICATION_ID));
  const [token, setToken] = useState('');
  const [userId, setUserId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const url = baseUrl.trim();
    const app = wholeNumber(applicationId);
    const user = wholeNumber(userId);
    if (remoteAddressProblem(url) !== null) return setProblem(t('settings.invalidUrl'));
    if (app === null) return setProblem(t('settings.invalidNumber'));
    if (token.trim() !== '' && (!/^[\x21-\x7e]{8,500}$/.test(token.trim()) || user === null)) return setProblem(t('welcome.pastedNeedsUser'));
    setProblem(null);
    onConnect({
      siteId,
      baseUrl: url,
      applicationId: app,
      keepSignedIn: keep,
      pasted: token.trim() !== '' && user !== null ? { token: token.trim(), userId: user } : null,
    });
  };

  return (
    <form className="connect-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('welcome.connectTitle')}</h2>
      <Field label={t('welcome.site')} hint={t('welcome.connectHint')}>
        {(control) => (
          <select {...control} value={siteId} onChange={(e) => setSiteId(e.target.value)}>
            {SITES.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <KeepSignedIn protection={settings?.tokenProtection ?? 'none'} keep={keep} onChange={setKeep} />
      <details className="advanced">
        <summary>{t('welcome.advanced')}</summary>
        <Field label={t('settings.baseUrl')}>
          {(control) => (
            <input
              {...control}
              type="text"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              value={baseUrl}
              onChange={(e) => setBaseUrl(e.target.value)}
            />
          )}
        </Field>
        <Field label={t('settings.applicationId')}>
          {(control) => (
            <input {...control} type="text" inputMode="numeric" autoComplete="off" value={applicationId} onChange={(e) => setApplicationId(e.target.value)} />
          )}
        </Field>
        <Field label={t('settings.token')}>
          {(control) => <input {...control} type="password" autoComplete="off" spellCheck={false} value={token} onChange={(e) => setToken(e.target.value)} />}
        </Field>
        <Field label={t('settings.userId')}>
          {(control) => <input {...control} type="text" inputMode="numeric" autoComplete="off" value={userId} onChange={(e) => setUserId(e.target.value)} />}
        </Field>
        <p className="hint">{t('welcome.advancedHint')}</p>
      </details>
      {problem ? (
        <p className="result error" role="alert">
          <span aria-hidden="true">⚠ </span>
          {problem}
        </p>
      ) : null}
      <div className="actions">
        <Button onClick={onBack}>{t('common.back')}</Button>
        <Button type="submit" variant="primary">
          {token.trim() !== '' ? t('welcome.connectWithToken') : t('welcome.signInBrowser')}
        </Button>
      </div>
    </form>
  );
}

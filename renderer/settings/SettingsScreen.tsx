import { type FormEvent, useEffect, useId, useState } from 'react';
import { useStore } from 'zustand';
import type { StockroomApi } from '../../common/contract/api.js';
import type { Mode, SettingsView } from '../../common/contract/contract.js';
import { LanguageSwitch } from '../i18n/LanguageSwitch.js';
import { errorDetail, errorText } from '../i18n/errors.js';
import { useI18n } from '../i18n/index.js';
import { KeepSignedIn } from '../welcome/KeepSignedIn.js';
import { type SettingsPatch, type SettingsStore, createSettingsStore } from './store.js';
import { Accounts } from './Accounts.js';
import { OperatorsSettings } from '../operators/OperatorsSettings.js';
import { ThemeSwitch } from '../theme/ThemeSwitch.js';
import { Button } from '../ui/Button.js';
import { Field } from '../ui/Field.js';
import './settings.css';

const MODES: Mode[] = ['local-only', 'online', 'offline'];

/**
 * Settings: language (applied at once), whose data is open and the other accounts, staying signed
 * in, how the app works, the session; the marketplace address, application id and a pasted token
 * under Advanced (the connect flow fills them).
 */
export function SettingsScreen({ api }: { api: StockroomApi }) {
  const { t, language } = useI18n();
  const [store] = useState(() => createSettingsStore(api));
  const status = useStore(store, (s) => s.status);
  const settings = useStore(store, (s) => s.settings);
  const error = useStore(store, (s) => s.error);
  useEffect(() => {
    void store.getState().load();
    return store.getState().start();
  }, [store]);

  return (
    <section className="settings" aria-labelledby="settings-title">
      <h2 id="settings-title">{t('settings.title')}</h2>
      <LanguageSwitch onChange={(l) => void store.getState().setLanguage(l)} />
      <ThemeSwitch value={settings?.theme ?? 'system'} disabled={!settings} onChange={(theme) => void store.getState().setTheme(theme)} />
      {status === 'loading' || status === 'idle' ? (
        <p className="state loading" role="status">
          {t('common.loading')}
        </p>
      ) : status === 'error' || !settings ? (
        <div className="state error" role="alert">
          <p title={errorDetail(error, language)}>
            <span aria-hidden="true">⚠ </span>
            {t('common.error', { message: errorText(error, language) })}
          </p>
          <Button variant="primary" onClick={() => void store.getState().load()}>
            {t('common.retry')}
          </Button>
        </div>
      ) : (
        <>
          <Accounts store={store} settings={settings} />
          <fieldset className="keep">
            <legend>{t('settings.keep')}</legend>
            <KeepSignedIn
              protection={settings.tokenProtection ?? 'none'}
              keep={settings.keepSignedIn ?? true}
              onChange={(keepSignedIn) => void store.getState().save({ keepSignedIn })}
            />
          </fieldset>
          <SettingsForm
            key={[settings.mode, settings.baseUrl, settings.applicationId, settings.userId, settings.hasAccessToken].join('|')}
            store={store}
            settings={settings}
          />
          <Session store={store} />
          <OperatorsSettings api={api} />
          <p className="muted">{t('settings.dataDir', { dir: settings.dataDir })}</p>
        </>
      )}
    </section>
  );
}

type Input = 'baseUrl' | 'applicationId' | 'userId' | 'token';

function SettingsForm({ store, settings }: { store: SettingsStore; settings: SettingsView }) {
  const { t, language } = useI18n();
  const id = useId();
  const saving = useStore(store, (s) => s.saving);
  const result = useStore(store, (s) => s.result);
  const [mode, setMode] = useState<Mode>(settings.mode);
  const [baseUrl, setBaseUrl] = useState(settings.baseUrl ?? '');
  const [applicationId, setApplicationId] = useState(settings.applicationId === null ? '' : String(settings.applicationId));
  const [userId, setUserId] = useState(settings.userId === null ? '' : String(settings.userId));
  const [token, setToken] = useState('');
  const [removeToken, setRemoveToken] = useState(false);
  const [invalid, setInvalid] = useState<Partial<Record<Input, string>>>({});

  const number = (v: string): number | null | undefined => (v.trim() === '' ? null : /^[1-9][0-9]{0,15}$/.test(v.trim()) ? Number(v.trim()) : undefined);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems: Partial<Record<Input, string>> = {};
    const url = baseUrl.trim();
    if (url !== '' && !/^https?:\/\/[^\s/]+/i.test(url)) problems.baseUrl = t('settings.invalidUrl');
    const app = number(applicationId);
    if (app === undefined) problems.applicationId = t('settings.invalidNumber');
    const user = number(userId);
    if (user === undefined) problems.userId = t('settings.invalidNumber');
    if (token !== '' && !/^[\x21-\x7e]{8,500}$/.test(token.trim())) problems.token = t('settings.tokenHint');
    setInvalid(problems);
    if (Object.keys(problems).length > 0) return;
    const patch: SettingsPatch = { mode, baseUrl: url === '' ? null : url, applicationId: app ?? null, userId: user ?? null };
    if (token.trim() !== '') patch.accessToken = token.trim();
    else if (removeToken) patch.accessToken = null;
    void store
      .getState()
      .save(patch)
      .then((ok) => {
        if (ok) setToken('');
      });
  };

  const field = (
    name: Input,
    label: string,
    value: string,
    set: (v: string) => void,
    extra: { hint?: string; type?: string; inputMode?: 'numeric' | 'url' } = {},
  ) => (
    <Field label={label} hint={extra.hint} error={invalid[name]}>
      {(control) => (
        <input
          {...control}
          type={extra.type ?? 'text'}
          inputMode={extra.inputMode}
          value={value}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => set(e.target.value)}
        />
      )}
    </Field>
  );

  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      <fieldset>
        <legend>{t('settings.mode')}</legend>
        {MODES.map((m) => (
          <label key={m} className="radio">
            <input type="radio" name={`${id}-mode`} value={m} checked={mode === m} onChange={() => setMode(m)} /> {t(`settings.mode.${m}`)}
          </label>
        ))}
      </fieldset>
      <details className="advanced" open={settings.baseUrl === null || settings.hasAccessToken}>
        <summary>{t('settings.advanced')}</summary>
        <fieldset>
          <legend>{t('settings.marketplace')}</legend>
          {field('baseUrl', t('settings.baseUrl'), baseUrl, setBaseUrl, { hint: t('settings.baseUrlHint'), inputMode: 'url' })}
          {field('applicationId', t('settings.applicationId'), applicationId, setApplicationId, { inputMode: 'numeric' })}
          {field('userId', t('settings.userId'), userId, setUserId, { inputMode: 'numeric' })}
          {field('token', t('settings.token'), token, setToken, {
            type: 'password',
            hint: settings.hasAccessToken ? t('settings.tokenStored') : t('settings.tokenHint'),
          })}
          {settings.hasAccessToken ? (
            <label className="checkbox">
              <input type="checkbox" checked={removeToken} onChange={(e) => setRemoveToken(e.target.checked)} /> {t('settings.tokenRemove')}
            </label>
          ) : null}
        </fieldset>
      </details>
      <div className="actions">
        <Button type="submit" variant="primary" disabled={saving}>
          {saving ? t('common.loading') : t('settings.save')}
        </Button>
        {Object.keys(invalid).length > 0 ? (
          <p className="result error" role="alert">
            <span aria-hidden="true">⚠ </span>
            {t('settings.invalid')}
          </p>
        ) : result?.kind === 'saved' ? (
          <p className="result saved" role="status">
            <span aria-hidden="true">✓ </span>
            {t('settings.saved')}
          </p>
        ) : result?.kind === 'error' ? (
          <p className="result error" role="alert" title={errorDetail(result.error, language)}>
            <span aria-hidden="true">⚠ </span>
            {t('common.error', { message: errorText(result.error, language) })}
          </p>
        ) : null}
      </div>
    </form>
  );
}

function Session({ store }: { store: SettingsStore }) {
  const { t } = useI18n();
  const session = useStore(store, (s) => s.session);
  if (!session) return null;
  const name = session.user ? (session.user.nickname ?? String(session.user.id)) : '';
  return (
    <section className="settings-session" aria-labelledby="settings-session-title">
      <h3 id="settings-session-title">{t('settings.session')}</h3>
      <p>
        {session.signedIn && session.user ? (
          <>
            <span aria-hidden="true">● </span>
            {t('settings.signedInAs', { name, via: session.via ? t(`settings.via.${session.via}`) : '' })}
          </>
        ) : (
          <>
            <span aria-hidden="true">○ </span>
            {t('settings.signedOut')}
          </>
        )}
      </p>
      {session.mode !== 'local-only' ? (
        <p className="actions">
          {session.signingIn ? (
            <>
              <span role="status">{t('settings.signingIn')}</span>{' '}
              <Button onClick={() => void store.getState().cancelSignIn()}>{t('settings.cancelSignIn')}</Button>
            </>
          ) : (
            <Button variant="primary" onClick={() => void store.getState().signIn()}>
              {t('settings.signIn')}
            </Button>
          )}{' '}
          {session.signedIn ? (
            <Button variant="danger" onClick={() => void store.getState().signOut()}>
              {t('settings.signOut')}
            </Button>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}

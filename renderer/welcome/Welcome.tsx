import { useStore } from 'zustand';
import { APP_NAME } from '../../common/window-title.js';
import type { StockroomApi } from '../../common/contract/api.js';
import { errorDetail, errorText } from '../i18n/errors.js';
import { useI18n } from '../i18n/index.js';
import { LanguageSwitch } from '../i18n/LanguageSwitch.js';
import { Button } from '../ui/Button.js';
import { ConnectForm } from './ConnectForm.js';
import { PullProgress } from './PullProgress.js';
import { useWelcome } from './store.js';
import './welcome.css';

/** The welcome: the app's name, then "Try the demo data" or "Connect my account" and the connect flow's steps. */
export function Welcome({ api }: { api: StockroomApi }) {
  const { t, language } = useI18n();
  const state = useStore(useWelcome, (s) => s.state);
  const settings = useStore(useWelcome, (s) => s.settings);
  const fromApp = useStore(useWelcome, (s) => s.fromApp);
  const w = useWelcome.getState();
  return (
    <main className="welcome" aria-labelledby="welcome-title">
      <header>
        <h1 id="welcome-title">{APP_NAME}</h1>
        <p className="tagline">{t('welcome.tagline')}</p>
      </header>
      {state.step === 'choose' ? (
        <section className="choices" aria-label={t('welcome.howToStart')}>
          <div className="choice">
            <Button variant="primary" size="lg" onClick={() => void w.chooseDemo(api)}>
              {t('welcome.tryDemo')}
            </Button>
            <p className="hint">{t('welcome.tryDemoHint')}</p>
          </div>
          <div className="choice">
            <Button variant="primary" size="lg" onClick={() => w.showForm()}>
              {t('welcome.connect')}
            </Button>
            <p className="hint">{t('welcome.connectChoiceHint')}</p>
          </div>
          <LanguageSwitch onChange={(language) => void api.settings.update({ language })} />
        </section>
      ) : state.step === 'form' ? (
        <ConnectForm settings={settings} onConnect={(f) => void w.connect(api, f)} onBack={() => (fromApp ? w.close() : w.back())} />
      ) : state.step === 'signing-in' ? (
        <section className="signing-in">
          <p role="status">{t('welcome.signingIn')}</p>
          <Button onClick={() => void w.cancel(api)}>{t('settings.cancelSignIn')}</Button>
        </section>
      ) : state.step === 'pulling' ? (
        <section className="pulling" aria-label={t('welcome.pull.title')}>
          <h2>{t('welcome.pull.title')}</h2>
          <PullProgress progress={state.progress} />
        </section>
      ) : (
        <section className="failed" role="alert">
          <p title={errorDetail(state.error, language)}>
            <span aria-hidden="true">⚠ </span>
            {t(state.during === 'sign-in' ? 'welcome.signInFailed' : state.during === 'pull' ? 'welcome.pullFailed' : 'common.error', {
              message: errorText(state.error, language),
            })}
          </p>
          <Button variant="primary" onClick={() => w.showForm()}>
            {t('common.retry')}
          </Button>
        </section>
      )}
    </main>
  );
}

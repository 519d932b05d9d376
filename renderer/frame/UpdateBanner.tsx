import { useEffect, useState } from 'react';
import type { StockroomApi } from '../../common/contract/api.js';
import type { Language, UpdateView } from '../../common/contract/contract.js';
import { type I18n, interpolate } from '../i18n/index.js';

/**
 * The banner's words. They live here until they move to renderer/i18n/locales with the keys
 * `update.*` (the same three languages, the same placeholders).
 */
const WORDS: Record<Language, Record<'downloading' | 'ready' | 'restart' | 'waiting' | 'installing' | 'failed', string>> = {
  en: {
    downloading: 'Downloading version {version}… {percent}',
    ready: 'Version {version} is ready: it installs when Stockroom restarts.',
    restart: 'Restart to update',
    waiting: 'Waiting for changes to finish sending ({count})…',
    installing: 'Restarting to install version {version}…',
    failed: 'The update failed: {message}',
  },
  es: {
    downloading: 'Descargando la versión {version}… {percent}',
    ready: 'La versión {version} está lista: se instala cuando Stockroom se reinicia.',
    restart: 'Reiniciar para actualizar',
    waiting: 'Esperando que terminen de enviarse los cambios ({count})…',
    installing: 'Reiniciando para instalar la versión {version}…',
    failed: 'La actualización falló: {message}',
  },
  'pt-BR': {
    downloading: 'Baixando a versão {version}… {percent}',
    ready: 'A versão {version} está pronta: ela é instalada quando o Stockroom reinicia.',
    restart: 'Reiniciar para atualizar',
    waiting: 'Aguardando o envio das alterações ({count})…',
    installing: 'Reiniciando para instalar a versão {version}…',
    failed: 'A atualização falhou: {message}',
  },
};

/**
 * The app's update, when there is something to say: the download's progress, then "Restart to
 * update" (the person decides when), then, while changes are still being sent, how many it waits
 * for. Background checks that find nothing, or fail, say nothing here.
 */
export function UpdateBanner({ api, i18n }: { api: StockroomApi; i18n: I18n }) {
  const [update, setUpdate] = useState<UpdateView | null>(null);
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    let live = true;
    const off = api.subscribe('update.state', (e) => setUpdate(e.update));
    void api.updates.status().then((r) => {
      // An event may have come first: it is newer than this answer.
      if (live && r.ok) setUpdate((u) => u ?? r.value);
    });
    return () => {
      live = false;
      off();
    };
  }, [api]);

  const words = WORDS[i18n.language];
  const say = (text: string, vars: Record<string, string | number>) => interpolate(i18n.language, text, vars);
  if (!update) return null;
  if (update.state === 'downloading') {
    return (
      <div className="update-banner" role="status" data-state="downloading">
        {say(words.downloading, { version: update.version, percent: i18n.formatPercent(update.percent / 100) })}{' '}
        <progress max={100} value={update.percent} aria-label={say(words.downloading, { version: update.version, percent: '' })} />
      </div>
    );
  }
  if (update.state === 'ready') {
    const waiting = update.restartRequested && update.waitingFor > 0;
    return (
      <div className="update-banner" role="status" data-state={waiting ? 'waiting' : 'ready'}>
        {waiting ? say(words.waiting, { count: update.waitingFor }) : say(words.ready, { version: update.version })}{' '}
        {update.restartRequested ? null : (
          <button
            type="button"
            disabled={asked}
            onClick={() => {
              setAsked(true);
              void api.updates.install().then((r) => {
                setAsked(false);
                if (r.ok) setUpdate(r.value);
              });
            }}
          >
            {words.restart}
          </button>
        )}
      </div>
    );
  }
  if (update.state === 'installing') {
    return (
      <div className="update-banner" role="status" data-state="installing">
        {say(words.installing, { version: update.version })}
      </div>
    );
  }
  if (update.state === 'error' && update.during !== 'check') {
    return (
      <div className="update-banner" role="alert" data-state="error">
        {say(words.failed, { message: update.message })}
      </div>
    );
  }
  return null;
}

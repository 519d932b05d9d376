import { useEffect } from 'react';
import type { StockroomApi } from '../../common/contract/api.js';
import { type TitleWords, windowTitle } from '../../common/window-title.js';
import { useI18n } from '../i18n/index.js';

/**
 * Keeps the document's title (the Electron window's title and the taskbar entry follow it; in the
 * browser mode, the tab's) naming the app and the open account, across sign-ins and account switches.
 */
export function useWindowTitle(api: StockroomApi): void {
  // In the app's language (issue 27): a new language titles the window again.
  const { t, language } = useI18n();
  useEffect(() => {
    const words: TitleWords = {
      demo: t('frame.title.demo'),
      seller: (id) => t('frame.title.seller', { id: String(id) }),
      on: (who, host) => t('frame.title.on', { who, host }),
      signedOut: t('frame.title.signedOut'),
      offline: t('frame.title.offline'),
    };
    let live = true;
    let mode: string | null = null;
    const refresh = () =>
      void api.session.status().then((r) => {
        if (live && r.ok) document.title = windowTitle(r.value, words);
      });
    refresh();
    const offs = [
      api.subscribe('session.changed', (e) => {
        document.title = windowTitle(e.session, words);
      }),
      // Pasting a token or changing the mode in Settings switches the account without a sign-in.
      api.subscribe('settings.changed', refresh),
      // Going offline or back online shows in the title; the status's other changes (every few ms while syncing) do not.
      api.subscribe('sync.status', (e) => {
        if (mode !== null && e.status.mode !== mode) refresh();
        mode = e.status.mode;
      }),
    ];
    return () => {
      live = false;
      for (const off of offs) off();
    };
  }, [api, t, language]);
}

import { useEffect } from 'react';
import type { StockroomApi } from '../../common/contract/api.js';
import { windowTitle } from '../../common/window-title.js';

/**
 * Keeps the document's title (the Electron window's title and the taskbar entry follow it; in the
 * browser mode, the tab's) naming the app and the open account, across sign-ins and account switches.
 */
export function useWindowTitle(api: StockroomApi): void {
  useEffect(() => {
    let live = true;
    let mode: string | null = null;
    const refresh = () =>
      void api.session.status().then((r) => {
        if (live && r.ok) document.title = windowTitle(r.value);
      });
    refresh();
    const offs = [
      api.subscribe('session.changed', (e) => {
        document.title = windowTitle(e.session);
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
  }, [api]);
}

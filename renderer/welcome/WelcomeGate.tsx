import { type ReactNode, useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { StockroomApi } from '../../common/contract/api.js';
import { useI18nStore } from '../i18n/index.js';
import { useWelcome } from './store.js';
import { Welcome } from './Welcome.js';

/**
 * Shows the welcome on a first run (the person never chose between the demo data and an account),
 * and the connect flow when asked for from the app; otherwise the app itself. On a first run the
 * app is not mounted until the choice; the connect flow opened later keeps it mounted, hidden.
 */
export function WelcomeGate({ api, children }: { api: StockroomApi; children: ReactNode }) {
  const [loaded, setLoaded] = useState(false);
  const open = useStore(useWelcome, (s) => s.open);
  const fromApp = useStore(useWelcome, (s) => s.fromApp);
  const setLanguage = useI18nStore((s) => s.setLanguage);
  useEffect(() => {
    let live = true;
    const w = useWelcome.getState();
    const stop = w.start(api);
    void w.load(api).then(() => {
      if (!live) return;
      const s = useWelcome.getState().settings;
      if (s) setLanguage(s.language);
      setLoaded(true);
    });
    return () => {
      live = false;
      stop();
    };
  }, [api, setLanguage]);
  if (!loaded) return null;
  if (open && !fromApp) return <Welcome api={api} />;
  return (
    <>
      {open ? <Welcome api={api} /> : null}
      <div className="app-behind-welcome" hidden={open}>
        {children}
      </div>
    </>
  );
}

import { useCallback, useEffect, useMemo, useState } from 'react';
import type { StockroomApi } from '../../common/contract/api.js';
import type { SyncStatusView } from '../../common/contract/contract.js';
import { useI18n, useI18nStore } from '../i18n/index.js';
import { InboxScreen } from '../inbox/InboxScreen.js';
import { BrandsScreen } from '../brands/BrandsScreen.js';
import { SettingsScreen } from '../settings/SettingsScreen.js';
import { StockTab, createStockStore, useStockActivity } from '../stock/StockTab.js';
import { AwayScans } from './AwayScans.js';
import { StatusBar } from './StatusBar.js';
import { FailedChooser, useShowFailed } from './FailedChooser.js';
import { useWindowTitle } from './useWindowTitle.js';
import { UpdateBanner } from './UpdateBanner.js';
import { userProductOfCell } from '../../common/cells.js';
import { AccountBadge } from '../welcome/AccountBadge.js';
import { OperatorSwitch } from '../operators/OperatorSwitch.js';
import { WelcomeGate } from '../welcome/WelcomeGate.js';
import { useWelcome } from '../welcome/store.js';
import { useSettingsTheme } from '../theme/theme.js';
import { SkipLink, TabBar, TabPanel, TabsFrame } from './TabBar.js';
import { Toaster } from '../ui/Toast.js';
import './frame.css';

/** Stock and Inbox keep their state while another tab is shown (mounted the first time they are opened). */
type Tab = 'stock' | 'inbox' | 'brands' | 'settings';

/** The frame: the tab bar (Inbox with its unread count), the current screen, the status bar. */
export function App({ api }: { api: StockroomApi }) {
  // Light, dark or the system's, on the welcome too (issue 28).
  useSettingsTheme(api);
  // A first run asks how to start (the demo data or an account) before the frame.
  return (
    <WelcomeGate api={api}>
      <Frame api={api} />
    </WelcomeGate>
  );
}

function Frame({ api }: { api: StockroomApi }) {
  const [tab, setTab] = useState<Tab>('stock');
  const [opened, setOpened] = useState<ReadonlySet<Tab>>(() => new Set([tab]));
  const show = (next: Tab) => {
    setTab(next);
    setOpened((o) => (o.has(next) ? o : new Set([...o, next])));
  };
  // The app's language lives in the i18n store (renderer/i18n): the settings set it, every screen reads it.
  const i18n = useI18n();
  const { t } = i18n;
  const setLanguage = useI18nStore((s) => s.setLanguage);
  const [status, setStatus] = useState<SyncStatusView | null>(null);
  // The Inbox tab's unread count: read at start, and again when messages arrive or are read.
  const [unread, setUnread] = useState(0);
  const [refresh, setRefresh] = useState(0);
  const refreshUnread = useCallback(() => setRefresh((n) => n + 1), []);
  // The stock screens' state lives for the window (filters, scroll, the focused cell survive a tab switch).
  const stock = useMemo(() => createStockStore(api), [api]);
  const stockActivity = useStockActivity(stock);
  useWindowTitle(api);
  // An account connected from Settings opens on its stock, not on the Settings it was added from (issue 27).
  const connected = useWelcome((s) => s.connected);
  useEffect(() => {
    if (connected === 0) return;
    setTab('stock');
    setOpened((o) => (o.has('stock') ? o : new Set([...o, 'stock'])));
  }, [connected]);
  // A clicked notification brings its conversation, or the conflicted cells, into view.
  const [revealPack, setRevealPack] = useState<{ packId: number; seq: number; failed?: boolean } | null>(null);
  // The failed count opens what failed: stock, replies, or a choice of the two (issue 27).
  const failedPlaces = {
    stock: () => {
      show('stock');
      void stock.getState().showFailed();
    },
    inbox: (packs: number[]) => {
      show('inbox');
      if (packs[0] !== undefined) setRevealPack((r) => ({ packId: packs[0] as number, seq: (r?.seq ?? 0) + 1, failed: true }));
    },
  };
  const failed = useShowFailed(api, failedPlaces);
  useEffect(
    () =>
      api.subscribe('app.reveal', ({ target }) => {
        if (target.screen === 'conversation') {
          show('inbox');
          setRevealPack((r) => ({ packId: target.packId, seq: (r?.seq ?? 0) + 1 }));
        } else {
          show('stock');
          const s = stock.getState();
          s.showConflicts();
          if (target.cell) void s.locate(userProductOfCell(target.cell));
        }
      }),
    [api, stock],
  );

  useEffect(() => {
    let live = true;
    void api.settings.get().then((r) => live && r.ok && setLanguage(r.value.language));
    void api.sync.status().then((r) => live && r.ok && setStatus(r.value));
    const offs = [
      api.subscribe('sync.status', (e) => setStatus(e.status)),
      api.subscribe('settings.changed', (e) => setLanguage(e.settings.language)),
      api.subscribe('messages.new', () => setRefresh((n) => n + 1)),
      // The count itself comes with the event (the same count as the Inbox's unread filter).
      api.subscribe('inbox.unread', (e) => setUnread(e.conversations)),
    ];
    return () => {
      live = false;
      for (const off of offs) off();
    };
  }, [api, setLanguage]);

  useEffect(() => {
    let live = true;
    void api.messages.conversations({ filter: 'unread', limit: 1 }).then((r) => live && r.ok && setUnread(r.value.total));
    return () => {
      live = false;
    };
  }, [api, refresh]);

  const tabs: [Tab, string][] = [
    ['stock', t('frame.stock')],
    ['inbox', unread > 0 ? t('frame.inboxUnread', { count: unread }) : t('frame.inbox')],
    ['brands', t('frame.brands')],
    ['settings', t('frame.settings')],
  ];
  return (
    <TabsFrame
      selected={tab}
      onSelect={(id) => {
        const chosen = tabs.find(([t]) => t === id);
        if (chosen) show(chosen[0]);
      }}
    >
      <SkipLink toGrid={tab === 'stock'} text={tab === 'stock' ? t('frame.skipToGrid') : t('frame.skipToMain')} />
      {/* One row of the frame's grid, whether or not the update banner shows. */}
      <header>
        <UpdateBanner api={api} i18n={i18n} />
        <TabBar tabs={tabs} label={t('frame.tabs')} onSelect={show} />
        <AccountBadge api={api} />
        <OperatorSwitch api={api} />
        {/* A scan on another tab than Stock is said here, never swallowed silently (issue 27). */}
        <AwayScans
          active={tab !== 'stock'}
          i18n={i18n}
          onShow={(code) => {
            show('stock');
            void stock.getState().locate(code, { scan: true });
          }}
        />
      </header>
      {/* The tab panel inside <main>: the landmark stays "main" for assistive technology and the audit (issue 28). */}
      <main className="screen" id="main" tabIndex={-1}>
        <TabPanel tab={tab}>
          {tab === 'brands' ? <BrandsScreen api={api} /> : tab === 'settings' ? <SettingsScreen api={api} /> : null}
          {opened.has('stock') ? (
            <div className="kept-screen" hidden={tab !== 'stock'}>
              <StockTab store={stock} />
            </div>
          ) : null}
          {opened.has('inbox') ? (
            <div className="kept-screen" hidden={tab !== 'inbox'}>
              <InboxScreen api={api} onUnreadChanged={refreshUnread} reveal={revealPack} />
            </div>
          ) : null}
        </TabPanel>
      </main>
      <StatusBar
        status={status}
        i18n={i18n}
        activity={stockActivity}
        onShowConflicts={() => {
          show('stock');
          stock.getState().showConflicts();
        }}
        onShowFailed={() => void failed.showFailed()}
      />
      {failed.choice ? (
        <FailedChooser i18n={i18n} choice={failed.choice} onClose={failed.close} onStock={failedPlaces.stock} onInbox={failedPlaces.inbox} />
      ) : null}
      <Toaster words={{ label: t('common.notification'), region: t('common.notifications', { hotkey: 'F8' }), dismiss: t('common.dismiss') }} />
    </TabsFrame>
  );
}

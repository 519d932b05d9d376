import { useCallback, useEffect, useMemo, useState } from 'react';
import type { StockroomApi } from '../../preload/api.js';
import type { SyncStatusView } from '../../preload/contract.js';
import { type I18n, useI18n, useI18nStore } from '../i18n/index.js';
import { InboxScreen } from '../inbox/InboxScreen.js';
import { BrandsScreen } from '../brands/BrandsScreen.js';
import { SettingsScreen } from '../settings/SettingsScreen.js';
import { StockTab, createStockStore, useStockActivity } from '../stock/StockTab.js';
import { StatusBar } from './StatusBar.js';
import { useWindowTitle } from './useWindowTitle.js';
import { UpdateBanner } from './UpdateBanner.js';
import { userProductOfCell } from '../../common/cells.js';
import { AccountBadge } from '../welcome/AccountBadge.js';
import { WelcomeGate } from '../welcome/WelcomeGate.js';

type Tab = 'stock' | 'inbox' | 'brands' | 'settings';
/** Screens that keep their state while another tab is shown (mounted the first time they are opened). */
const KEPT: readonly Tab[] = ['inbox', 'stock'];

/**
 * The frame: the tab bar, the current screen, the status bar. The screens are placeholders showing
 * real numbers from the API until the screens land; the status bar is the real one (sync status
 * and its events).
 */
export function App({ api }: { api: StockroomApi }) {
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
  const [summary, setSummary] = useState<{ products: number; conversations: number; unread: number; brands: number | null } | null>(null);
  const [refresh, setRefresh] = useState(0);
  const refreshSummary = useCallback(() => setRefresh((n) => n + 1), []);
  // The stock screens' state lives for the window (filters, scroll, the focused cell survive a tab switch).
  const stock = useMemo(() => createStockStore(api), [api]);
  const stockActivity = useStockActivity(stock);
  useWindowTitle(api);
  // A clicked notification brings its conversation, or the conflicted cells, into view.
  const [revealPack, setRevealPack] = useState<{ packId: number; seq: number } | null>(null);
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
      api.subscribe('stock.changed', () => setRefresh((n) => n + 1)),
      api.subscribe('messages.new', () => setRefresh((n) => n + 1)),
      api.subscribe('inbox.unread', () => setRefresh((n) => n + 1)),
    ];
    return () => {
      live = false;
      for (const off of offs) off();
    };
  }, [api, setLanguage]);

  useEffect(() => {
    let live = true;
    void Promise.all([
      api.stock.grid({ limit: 1 }),
      api.messages.conversations({ limit: 1 }),
      api.messages.conversations({ filter: 'unread', limit: 1 }),
      api.brands.list(),
    ]).then(([grid, all, unread, brands]) => {
      if (!live) return;
      setSummary({
        products: grid.ok ? grid.value.total : 0,
        conversations: all.ok ? all.value.total : 0,
        unread: unread.ok ? unread.value.total : 0,
        brands: brands.ok ? (brands.value.list?.brands.length ?? null) : null,
      });
    });
    return () => {
      live = false;
    };
  }, [api, refresh]);

  const tabs: [Tab, string][] = [
    ['stock', t('frame.stock')],
    ['inbox', summary && summary.unread > 0 ? t('frame.inboxUnread', { count: summary.unread }) : t('frame.inbox')],
    ['brands', t('frame.brands')],
    ['settings', t('frame.settings')],
  ];
  return (
    <div className="frame">
      {/* One row of the frame's grid, whether or not the update banner shows. */}
      <header>
        <UpdateBanner api={api} i18n={i18n} />
        <nav className="tab-bar" role="tablist">
          {tabs.map(([id, label]) => (
            <button key={id} role="tab" type="button" aria-selected={tab === id} aria-controls={`panel-${id}`} id={`tab-${id}`} onClick={() => show(id)}>
              {label}
            </button>
          ))}
        </nav>
        <AccountBadge api={api} />
      </header>
      <main className="screen" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'brands' ? (
          <BrandsScreen api={api} />
        ) : tab === 'settings' ? (
          <SettingsScreen api={api} />
        ) : KEPT.includes(tab) ? null : (
          <Placeholder tab={tab} i18n={i18n} summary={summary} />
        )}
        {opened.has('stock') ? (
          <div className="kept-screen" hidden={tab !== 'stock'}>
            <StockTab store={stock} />
          </div>
        ) : null}
        {opened.has('inbox') ? (
          <div className="kept-screen" hidden={tab !== 'inbox'}>
            <InboxScreen api={api} onUnreadChanged={refreshSummary} reveal={revealPack} />
          </div>
        ) : null}
      </main>
      <StatusBar
        status={status}
        i18n={i18n}
        activity={stockActivity}
        onShowConflicts={() => {
          show('stock');
          stock.getState().showConflicts();
        }}
        onShowFailed={() => {
          show('stock');
          void stock.getState().showFailed();
        }}
      />
    </div>
  );
}

function Placeholder({
  tab,
  i18n: { t },
  summary,
}: {
  tab: Tab;
  i18n: I18n;
  summary: { products: number; conversations: number; unread: number; brands: number | null } | null;
}) {
  if (!summary) return <p>{t('common.loading')}</p>;
  if (tab === 'stock') return <p className="summary">{t('frame.products', { count: summary.products })}</p>;
  if (tab === 'inbox') return <p className="summary">{t('frame.conversations', { count: summary.conversations, unread: summary.unread })}</p>;
  return <p className="summary">{summary.brands === null ? t('frame.noBrands') : t('frame.brandCount', { count: summary.brands })}</p>;
}

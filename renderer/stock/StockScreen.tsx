/**
 * The Stock tab: search / scan, filters, the grid, the history panel, and the dialogs (conflict,
 * CSV import, new listing). Loading, empty and error states in words; a live region reads out
 * what happened (saved, queued, not found).
 */
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { errorDetail, errorText } from '../i18n/errors.js';
import { ConflictDialog } from './ConflictDialog.js';
import { CountArea, CountButton, useCountOpen, useCountShortcut } from './count/CountArea.js';
import { StockGrid } from './Grid.js';
import { GridTools } from './GridTools.js';
import { StockToolbar } from './StockToolbar.js';
import { HistoryPanel } from './HistoryPanel.js';
import { ImportDialog } from './ImportDialog.js';
import { ListingDialog } from './ListingDialog.js';
import { FailedDialog } from './FailedDialog.js';
import { TransferDialog } from './TransferDialog.js';
import { ScanDetector, strokeOf, useScanCapture } from './scanner.js';
import { useStock, useStockStore } from './store.js';
import { STATE_FILTERS, isStateFilter } from '../../common/stock-vocabulary.js';
import { useStockWords } from './words.js';
import './stock.css';

export { SCAN_KEY_INTERVAL_MS } from './scanner.js';
const SEARCH_DEBOUNCE_MS = 300;

function SearchBox() {
  const store = useStockStore();
  const w = useStockWords();
  const [text, setText] = useState('');
  // The box reads its own scans (scanner.ts; the screen-wide capture leaves data-scan-target alone).
  const detector = useRef(new ScanDetector());
  const debounce = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inputRef = useRef<HTMLInputElement>(null);

  // Ctrl+F (Cmd+F) goes to the search box from anywhere on the stock screen.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        inputRef.current?.focus();
        inputRef.current?.select();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => () => clearTimeout(debounce.current), []);

  const onChange = (value: string) => {
    setText(value);
    if (value === '') detector.current.reset();
    clearTimeout(debounce.current);
    debounce.current = setTimeout(() => {
      if (store.getState().query.search !== value.trim()) void store.getState().setQuery({ search: value.trim() });
    }, SEARCH_DEBOUNCE_MS);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const scan = detector.current.key(strokeOf(e.nativeEvent));
    if (e.key === 'Escape' && text !== '') {
      e.preventDefault();
      onChange('');
      return;
    }
    // A scanner set to end its codes with Tab ends them here too (scanner.ts).
    if (e.key !== 'Enter' && !scan) return;
    e.preventDefault();
    const value = text.trim();
    if (value === '' && !scan) return;
    clearTimeout(debounce.current);
    const s = store.getState();
    if (scan) {
      // A scan: jump to its row in the grid (not narrowed by the scan), focus the chosen store's cell, clear the box for the next scan.
      setText('');
      void s.locate(scan.code.trim(), { scan: true });
      return;
    }
    // Typed by hand: the grid shows the matches; Enter goes to the first one.
    void (async () => {
      if (s.query.search !== value) await s.setQuery({ search: value });
      if (store.getState().total > 0) store.getState().focusStoreCell(0);
      else store.getState().say('search.notFound', { text: value }, 'error');
    })();
  };

  return (
    <div className="search-box">
      <label htmlFor="stock-search">{w.t('search.label')}</label>
      <input
        ref={inputRef}
        id="stock-search"
        type="search"
        value={text}
        placeholder={w.t('search.placeholder')}
        autoComplete="off"
        spellCheck={false}
        data-scan-target
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}

function Filters() {
  const store = useStockStore();
  const w = useStockWords();
  const query = useStock((s) => s.query);
  const columns = useStock((s) => s.allColumns);
  const threshold = useStock((s) => s.lowStockThreshold);
  const currentStore = useStock((s) => s.currentStore);
  const stores = columns.filter((c) => c.type === 'seller_warehouse');
  const current = stores.find((c) => c.key === currentStore);
  return (
    <div className="filters" role="group" aria-label={w.t('filter.state')}>
      <label>
        {w.t('filter.store')}{' '}
        <select
          data-view="store"
          value={query.store ?? ''}
          onChange={(e) => void store.getState().setQuery({ store: e.target.value === '' ? null : e.target.value })}
        >
          <option value="">{w.t('filter.allStores')}</option>
          {stores.map((c) => (
            <option key={c.key} value={c.key}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        {w.t('filter.state')}{' '}
        <select
          data-view="show"
          value={query.filter}
          onChange={(e) => {
            const filter = e.target.value;
            if (isStateFilter(filter)) void store.getState().setQuery({ filter });
          }}
        >
          {STATE_FILTERS.map((f) => (
            <option key={f} value={f}>
              {w.t(`filter.state.${f}`)}
            </option>
          ))}
        </select>
      </label>
      <span className="low-stock">
        <label>
          <input
            type="checkbox"
            checked={query.lowStock !== null}
            onChange={(e) => void store.getState().setQuery({ lowStock: e.target.checked ? threshold : null })}
          />{' '}
          {w.t('filter.lowStock')}
        </label>{' '}
        <label>
          <span className="visually-hidden">{w.t('filter.lowStock')}, </span>
          {w.t('filter.lowStockAt')}{' '}
          <input
            type="number"
            min={0}
            max={1000000}
            className="threshold"
            value={threshold}
            onChange={(e) => {
              const n = Number(e.target.value);
              if (Number.isInteger(n) && n >= 0 && n <= 1_000_000) store.getState().setLowStockThreshold(n);
            }}
          />
        </label>
      </span>
      {stores.length > 0 ? (
        <label className="current-store">
          {w.t('scanner.store')}{' '}
          <select data-view="scanStore" value={current?.key ?? ''} onChange={(e) => store.getState().setCurrentStore(e.target.value)}>
            {current ? null : <option value="" />}
            {stores.map((c) => (
              <option key={c.key} value={c.key}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </div>
  );
}

function NoticeLine() {
  const store = useStockStore();
  const w = useStockWords();
  const notice = useStock((s) => s.notice);
  return (
    <div className="notice-line" role="status" aria-live="polite" data-tone={notice?.tone} title={notice?.detail}>
      {notice ? (
        <>
          {notice.tone === 'error' ? <span aria-hidden="true">! </span> : null}
          {notice.text}
          {notice.action === 'showAll' ? (
            <button type="button" className="link" onClick={() => store.getState().clearFilters()}>
              {w.t('search.showAll')}
            </button>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

function Body() {
  const store = useStockStore();
  const w = useStockWords();
  const status = useStock((s) => s.status);
  const error = useStock((s) => s.error);
  const total = useStock((s) => s.total);
  const query = useStock((s) => s.query);
  const historyOpen = useStock((s) => s.historyOpen);
  const narrowed = query.search !== '' || query.filter !== 'all' || query.store !== null || query.lowStock !== null;
  let main;
  if (status === 'error') {
    main = (
      <div className="state-message" role="alert">
        <p title={errorDetail(error, w.language)}>{w.t('error', { message: errorText(error, w.language) })}</p>
        <button type="button" onClick={() => void store.getState().load()}>
          {w.t('retry')}
        </button>
      </div>
    );
  } else if (status === 'loading' && total === 0) {
    main = <p className="state-message">{w.t('loading')}</p>;
  } else if (total === 0) {
    main = (
      <div className="state-message">
        <p>{narrowed ? w.t('emptyFiltered') : w.t('empty')}</p>
        {narrowed ? (
          <button type="button" onClick={() => store.getState().clearFilters()}>
            {w.t('clearFilters')}
          </button>
        ) : null}
      </div>
    );
  } else {
    main = <StockGrid label={w.t('title')} />;
  }
  return (
    <div className="stock-body" data-history={historyOpen || undefined}>
      <div className="stock-main" aria-busy={status === 'loading'}>
        {main}
      </div>
      {historyOpen ? <HistoryPanel /> : null}
    </div>
  );
}

export function StockScreen() {
  const store = useStockStore();
  const w = useStockWords();
  const total = useStock((s) => s.total);
  const status = useStock((s) => s.status);
  const conflict = useStock((s) => s.conflict);
  const dialog = useStock((s) => s.dialog);
  const transferFrom = useStock((s) => s.transferFrom);
  const failedAt = useStock((s) => s.failedAt);
  const counting = useCountOpen();
  const screenRef = useRef<HTMLElement>(null);
  useScanCapture(store, screenRef);
  useCountShortcut();

  useEffect(() => {
    const s = store.getState();
    if (s.status !== 'ready') void s.load();
    // Queued cells say "waiting" while the marketplace cannot be reached (issue 27).
    const reach = (v: { unreachableSince: number | null }) => store.setState({ unreachable: v.unreachableSince !== null });
    void s.api.sync.status().then((r) => r.ok && reach(r.value));
    const offStatus = s.api.subscribe('sync.status', (e) => reach(e.status));
    const offChanged = s.api.subscribe('stock.changed', (e) => store.getState().stockChanged(e.userProductIds));
    return () => {
      offStatus();
      offChanged();
    };
  }, [store]);

  return (
    <section ref={screenRef} className="stock-screen" aria-labelledby="stock-title">
      <div className="stock-toolbar">
        <h1 id="stock-title" className="screen-title">
          {w.t('title')}
          {status === 'ready' ? <span className="row-count"> · {w.t('rows', { count: total })}</span> : null}
        </h1>
        <SearchBox />
        <div className="actions">
          <CountButton />
        </div>
        <StockToolbar
          viewOptions={
            <>
              <Filters />
              <GridTools />
            </>
          }
        />
      </div>
      {counting ? (
        <CountArea />
      ) : (
        <>
          <NoticeLine />
          <Body />
        </>
      )}
      {conflict ? <ConflictDialog /> : null}
      {dialog === 'import' ? <ImportDialog /> : null}
      {dialog === 'listing' ? <ListingDialog /> : null}
      {transferFrom ? <TransferDialog /> : null}
      {failedAt ? <FailedDialog /> : null}
    </section>
  );
}

/**
 * Scan-count mode: one store chosen on purpose, each scan adds the units typed once (one by
 * default) to that store's cell as an adjustment (the grid's own edit path, so the outbox and sync
 * rules are the same), with a beep and a line per scan, the running list, and undo of the last.
 * An unknown code buzzes, says so and changes nothing.
 */
import { useEffect, useRef, useState } from 'react';
import { useStock } from '../store.js';
import { useStockWords } from '../words.js';
import { useCount, useCountStore } from './context.js';
import { CountStatus, ScanBox } from './ScanBox.js';

export function ScanCount() {
  const store = useCountStore();
  const w = useStockWords();
  const columns = useStock((s) => s.allColumns);
  const gridStore = useStock((s) => s.query.store);
  const storeId = useCount((s) => s.storeId);
  const quantity = useCount((s) => s.quantity);
  const scans = useCount((s) => s.scans);
  const notice = useCount((s) => s.notice);
  const queued = useCount((s) => s.queued);
  const input = useRef<HTMLInputElement>(null);
  // The field's text while it is typed (empty on the way to a new number); the store keeps the last valid one.
  const [quantityText, setQuantityText] = useState(String(quantity));
  const stores = columns.filter((c) => c.type === 'seller_warehouse' && c.storeId !== null);
  const back = () => input.current?.focus();

  // One store, or the store the grid is filtered to: that is the choice; otherwise the person picks.
  useEffect(() => {
    if (storeId !== null) return;
    const only = stores.length === 1 ? stores[0]!.storeId : null;
    const chosen = only ?? (stores.some((c) => c.storeId === gridStore) ? gridStore : null);
    if (chosen) store.getState().setStore(chosen);
  }, [storeId, stores, gridStore, store]);

  const live = scans.filter((l) => !l.undone);
  const units = live.reduce((n, l) => n + l.delta, 0);
  return (
    <section className="count-scan" aria-labelledby="count-scan-title">
      <h2 id="count-scan-title">{w.t('count.scanTitle')}</h2>
      <p className="count-help">{w.t('count.scanHelp')}</p>
      <div className="count-controls">
        <label>
          {w.t('count.store')}{' '}
          <select
            value={storeId ?? ''}
            onChange={(e) => {
              store.getState().setStore(e.target.value === '' ? null : e.target.value);
            }}
          >
            <option value="">{w.t('count.chooseStoreOption')}</option>
            {stores.map((c) => (
              <option key={c.key} value={c.storeId!}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          {w.t('count.perScan')}{' '}
          <input
            type="number"
            className="count-quantity"
            min={1}
            max={1000000}
            value={quantityText}
            onChange={(e) => {
              setQuantityText(e.target.value);
              if (e.target.value !== '') store.getState().setQuantity(Number(e.target.value));
            }}
            onBlur={() => setQuantityText(String(store.getState().quantity))}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                back();
              }
            }}
          />
        </label>
      </div>
      <ScanBox id="count-scan-input" inputRef={input} onScan={(code) => void store.getState().scan(code)} />
      <CountStatus text={notice?.text} tone={notice?.tone} seq={notice?.seq} detail={notice?.detail} />
      <div className="count-actions">
        <button
          type="button"
          disabled={live.length === 0}
          onClick={() => {
            void store.getState().undoLast();
            back();
          }}
        >
          {w.t('count.undoLast')}
        </button>
        <span className="count-totals" aria-live="off">
          {w.t('count.scanTotals', { count: live.length, units })}
          {queued > 0 ? ` · ${w.t('count.working')}` : ''}
        </span>
      </div>
      <ol className="count-scans" aria-label={w.t('count.scansList')}>
        {scans.map((l) => (
          <li key={l.seq} data-undone={l.undone || undefined}>
            <span className="count-delta">+{w.formatNumber(l.delta)}</span> <span className="count-product">{l.title ?? l.userProductId}</span>{' '}
            <span className="count-code">{l.code}</span> <span className="count-shown">{w.t('count.nowShown', { shown: l.shown })}</span>
            {l.undone ? <span className="count-undone"> {w.t('count.undoneTag')}</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * Scan-count mode: one store chosen on purpose, each scan adds the units typed once (one by
 * default) to a tally for that store, with a sound and a line read out per scan; the list has one
 * line per product with its units (tally.ts), undo takes the last scan out, and Apply writes one
 * adjustment per product (the grid's own edit paths, so the outbox and sync rules are the same).
 * The core keeps the tally per store in the database, so a reload or a restart shows it again.
 * An unknown code or another store's product has its own sound and stays in the list flagged.
 * The scan station (Station.tsx) is the same tally full screen.
 */
import { useEffect, useRef, useState } from 'react';
import { useStock } from '../store.js';
import { useStockWords } from '../words.js';
import { useCount, useCountStore } from './context.js';
import { CountStatus, ScanBox } from './ScanBox.js';
import { keptCountStore } from './store.js';
import { Station } from './Station.js';

export function ScanCount() {
  const store = useCountStore();
  const w = useStockWords();
  const columns = useStock((s) => s.allColumns);
  const gridStore = useStock((s) => s.query.store);
  const station = useCount((s) => s.station);
  const storeId = useCount((s) => s.storeId);
  const quantity = useCount((s) => s.quantity);
  const lines = useCount((s) => s.lines);
  const scanCount = useCount((s) => s.scanCount);
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
    // The store counted into before a reload comes back with its tally.
    const before = keptCountStore();
    const kept = stores.some((c) => c.storeId === before) ? before : null;
    const chosen = only ?? kept ?? (stores.some((c) => c.storeId === gridStore) ? gridStore : null);
    if (chosen) {
      void store.getState().setStore(chosen);
      return;
    }
    // The store this workstation chose for its scans (kept across restarts), never the first one by default.
    let live = true;
    void store
      .getState()
      .api.stock.scanStore()
      .then((r) => {
        const kept = r.ok ? stores.find((c) => c.key === r.value.store)?.storeId : undefined;
        if (live && kept && store.getState().storeId === null) void store.getState().setStore(kept);
      });
    return () => {
      live = false;
    };
  }, [storeId, stores, gridStore, store]);

  const counted = lines.filter((l) => l.outcome === 'ok');
  const units = counted.reduce((n, l) => n + l.units, 0);
  const storeLabel = stores.find((c) => c.storeId === storeId)?.label ?? storeId ?? '';
  if (station) return <Station storeLabel={storeLabel} />;
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
              void store.getState().setStore(e.target.value === '' ? null : e.target.value);
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
          disabled={scanCount === 0}
          onClick={() => {
            void store.getState().undoLast();
            back();
          }}
        >
          {w.t('count.undoLast')}
        </button>
        <button
          type="button"
          disabled={units === 0 || storeId === null}
          onClick={() => {
            void store.getState().applyScans();
            back();
          }}
        >
          {w.t('count.applyScans', { units, store: storeLabel })}
        </button>
        <button type="button" disabled={storeId === null} onClick={() => store.getState().setStation(true)}>
          {w.t('count.stationOpen')}
        </button>
        <span className="count-totals" aria-live="off">
          {w.t('count.tallyTotals', { count: counted.length, units })}
          {queued > 0 ? ` · ${w.t('count.working')}` : ''}
        </span>
      </div>
      {/* One line per product, numbered from the oldest (1); unknown codes and other stores' products flagged. */}
      <ol className="count-scans" aria-label={w.t('count.scansList')}>
        {lines.map((l) => (
          <li key={l.key} data-outcome={l.outcome}>
            <span className="count-delta">{w.t('count.lineUnits', { units: l.units, scans: l.scans })}</span>{' '}
            <span className="count-product">{l.title ?? l.userProductId ?? l.code}</span> <span className="count-code">{l.code}</span>
            {l.outcome !== 'ok' ? <span className="count-flag"> {w.t(l.outcome === 'unknown' ? 'count.flagUnknown' : 'count.flagOther')}</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

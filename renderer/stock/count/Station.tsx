/**
 * The scan station (issue 27): scan to count full screen, for the counting table. The station's
 * store always shows at the top; the last scan shows its product's picture and name and a running
 * count big enough to read from 2 m (the units of that product in the tally). Each outcome (counted,
 * unknown code, another store's product) has its colour flash, its own sound (sound.ts, muted by the
 * same toggle) and its words, which the live region reads out: the colour is never the only signal,
 * and with reduced motion there is no flash, only the colour. Undo takes the last scan out; Esc or
 * Leave goes back to the Count area.
 */
import { type KeyboardEvent, useRef, useState } from 'react';
import { useStockWords } from '../words.js';
import { useCount, useCountStore } from './context.js';
import { CountStatus, ScanBox } from './ScanBox.js';

function Picture({ url, title }: { url: string | null; title: string }) {
  const w = useStockWords();
  const [failed, setFailed] = useState<string | null>(null);
  if (!url || failed === url)
    return (
      <span className="station-picture none" aria-hidden="true">
        {title.slice(0, 1).toUpperCase()}
      </span>
    );
  return <img className="station-picture" src={url} alt={w.t('count.stationPicture', { title })} referrerPolicy="no-referrer" onError={() => setFailed(url)} />;
}

export function Station({ storeLabel }: { storeLabel: string }) {
  const store = useCountStore();
  const w = useStockWords();
  const lines = useCount((s) => s.lines);
  const last = useCount((s) => s.last);
  const notice = useCount((s) => s.notice);
  const muted = useCount((s) => s.muted);
  const input = useRef<HTMLInputElement>(null);
  const line = last ? lines.find((l) => l.lastSeq === last.seq) : undefined;
  const counted = lines.filter((l) => l.outcome === 'ok');
  const units = counted.reduce((n, l) => n + l.units, 0);
  const back = () => input.current?.focus();
  const leave = () => {
    store.getState().setStation(false);
    requestAnimationFrame(() => document.getElementById('count-scan-input')?.focus());
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Escape') return;
    // Esc leaves the station only (not the Count area around it).
    e.preventDefault();
    e.stopPropagation();
    leave();
  };
  const title = last ? (last.title ?? last.userProductId ?? last.code) : '';
  return (
    <div className="station" role="dialog" aria-modal="true" aria-labelledby="station-store" onKeyDown={onKeyDown}>
      <div className="station-bar">
        <p id="station-store" className="station-store">
          {w.t('count.stationStore', { store: storeLabel })}
        </p>
        <label className="count-sound">
          <input type="checkbox" checked={!muted} onChange={(e) => store.getState().setMuted(!e.target.checked)} /> {w.t('count.sound')}
        </label>
        <button
          type="button"
          disabled={!last}
          onClick={() => {
            void store.getState().undoLast();
            back();
          }}
        >
          {w.t('count.undoLast')}
        </button>
        <button type="button" onClick={leave}>
          {w.t('count.stationLeave')}
        </button>
      </div>
      {/* Keyed by the scan: each scan plays the flash again. */}
      <div key={last?.seq ?? 0} className="station-last" data-outcome={last?.outcome}>
        {last ? (
          <>
            <Picture url={last.picture} title={title} />
            <div className="station-what">
              <p className="station-product">{title}</p>
              <p className="station-outcome">
                {w.t(last.outcome === 'ok' ? 'count.outcomeOk' : last.outcome === 'unknown' ? 'count.flagUnknown' : 'count.flagOther')}
              </p>
              {last.outcome === 'ok' && line ? (
                <p className="station-count" aria-label={w.t('count.stationCount', { units: line.units })}>
                  {w.formatNumber(line.units)}
                </p>
              ) : null}
            </div>
          </>
        ) : (
          <p className="station-ready">{w.t('count.stationReady')}</p>
        )}
      </div>
      <CountStatus text={notice?.text} tone={notice?.tone} seq={notice?.seq} detail={notice?.detail} />
      <ScanBox id="count-station-input" inputRef={input} onScan={(code) => void store.getState().scan(code)} />
      <p className="station-totals">{w.t('count.tallyTotals', { count: counted.length, units })}</p>
    </div>
  );
}

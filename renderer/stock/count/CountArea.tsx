/**
 * The Count area of the stock tab: scan-count mode and count sessions, opened from the stock
 * toolbar's Count button. It takes the place of the grid while open; Close (or Escape outside a
 * field with text) goes back to the grid and to the button.
 *
 * Scans inside the area are the area's (`data-scan-target`: the grid's capture leaves them): one
 * typed into a line's quantity field or onto a button is taken back and counted as a scan, never
 * saved as a quantity (issue 14 §1).
 */
import { type KeyboardEvent, useEffect, useRef } from 'react';
import { ScanDetector, strokeOf } from '../scanner.js';
import { useStockWords } from '../words.js';
import { useCount, useCountStore } from './context.js';
import { CountSession } from './CountSession.js';
import { ScanCount } from './ScanCount.js';
import './count.css';

/** The toolbar's button: opens the Count area on scan-count mode (or closes it). */
export function CountButton() {
  const store = useCountStore();
  const w = useStockWords();
  const view = useCount((s) => s.view);
  return (
    <button
      type="button"
      id="count-open"
      aria-pressed={view !== null}
      aria-keyshortcuts="Alt+Shift+C"
      onClick={() => (view === null ? store.getState().open('scan') : store.getState().close())}
    >
      {w.t('count.open')}
    </button>
  );
}

/** Alt+Shift+C opens or closes the Count area from anywhere on the stock screen. */
export function useCountShortcut(): void {
  const store = useCountStore();
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.altKey && e.shiftKey && !e.ctrlKey && !e.metaKey && e.code === 'KeyC') {
        e.preventDefault();
        const s = store.getState();
        if (s.view === null) s.open('scan');
        else s.close();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}

export function useCountOpen(): boolean {
  return useCount((s) => s.view !== null);
}

/** The scan boxes read every Enter as a code themselves. */
const SCAN_BOXES = new Set(['count-scan-input', 'count-session-scan', 'count-station-input']);

/** Gives a React-controlled field its value back (its own value setter, then the event React follows). */
function restore(field: HTMLInputElement, value: string): void {
  if (field.value === value) return;
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

export function CountArea() {
  const store = useCountStore();
  const w = useStockWords();
  const view = useCount((s) => s.view);
  const muted = useCount((s) => s.muted);
  const closeRef = useRef<HTMLButtonElement>(null);
  const detector = useRef(new ScanDetector<{ field: HTMLInputElement | null; value: string }>());
  const onKeyDownCapture = (e: KeyboardEvent<HTMLElement>) => {
    const target = e.target as HTMLElement;
    if (SCAN_BOXES.has(target.id)) {
      detector.current.reset();
      return;
    }
    const hit = detector.current.key(strokeOf(e.nativeEvent), () => {
      const field = target instanceof HTMLInputElement && target.type !== 'checkbox' ? target : null;
      return { field, value: field?.value ?? '' };
    });
    if (!hit) return;
    e.preventDefault();
    e.stopPropagation();
    if (hit.start?.field?.isConnected) restore(hit.start.field, hit.start.value);
    const s = store.getState();
    if (s.view === 'scan') void s.scan(hit.code);
    else if (s.current?.session.state === 'open' && !s.review) void s.sessionScan(hit.code);
  };
  const close = () => {
    store.getState().close();
    // Back to the button that opened the area.
    requestAnimationFrame(() => document.getElementById('count-open')?.focus());
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Escape') return;
    const t = e.target as HTMLInputElement;
    if ((t.tagName === 'INPUT' || t.tagName === 'TEXTAREA') && t.value !== '') return;
    e.preventDefault();
    close();
  };
  if (view === null) return null;
  return (
    <section className="count-area" aria-label={w.t('count.area')} data-scan-target="count" onKeyDown={onKeyDown} onKeyDownCapture={onKeyDownCapture}>
      <div className="count-bar">
        <div role="tablist" aria-label={w.t('count.area')}>
          {(['scan', 'sessions'] as const).map((v) => (
            <button key={v} type="button" role="tab" aria-selected={view === v} onClick={() => store.getState().open(v)}>
              {w.t(v === 'scan' ? 'count.tabScan' : 'count.tabSessions')}
            </button>
          ))}
        </div>
        <label className="count-sound">
          <input type="checkbox" checked={!muted} onChange={(e) => store.getState().setMuted(!e.target.checked)} /> {w.t('count.sound')}
        </label>
        <button ref={closeRef} type="button" onClick={close}>
          {w.t('count.close')}
        </button>
      </div>
      <div role="tabpanel">{view === 'scan' ? <ScanCount /> : <CountSession />}</div>
    </section>
  );
}

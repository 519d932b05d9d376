/**
 * The scan box of the Count area: every Enter is a code (a scanner's or one typed), sent on and
 * cleared at once so the next scan can follow; focus stays here (and comes back after a button).
 * `data-scan-target` tells the grid's scanner detector that this box takes scans itself.
 */
import { type KeyboardEvent, type RefObject, useEffect, useRef } from 'react';
import { ScanDetector, strokeOf } from '../scanner.js';
import { useStockWords } from '../words.js';

export function ScanBox({
  id,
  onScan,
  inputRef,
  disabled,
}: {
  id: string;
  onScan: (code: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
  disabled?: boolean;
}) {
  const w = useStockWords();
  // Every Enter is a code; a Tab only when it ends a scanner's burst (scanners set to end with Tab).
  const detector = useRef(new ScanDetector());
  useEffect(() => inputRef.current?.focus(), [inputRef]);
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const scan = detector.current.key(strokeOf(e.nativeEvent));
    if (e.key !== 'Enter' && !scan) return;
    e.preventDefault();
    e.stopPropagation();
    const code = e.currentTarget.value;
    e.currentTarget.value = '';
    if (code.trim() !== '') onScan(code);
  };
  return (
    <div className="count-scan-box">
      <label htmlFor={id}>{w.t('count.scanLabel')}</label>
      <input
        ref={inputRef}
        id={id}
        type="text"
        inputMode="text"
        autoComplete="off"
        spellCheck={false}
        placeholder={w.t('count.scanPlaceholder')}
        data-scan-target="count"
        disabled={disabled}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}

/** The last confirmation or error, read out by screen readers (one line per scan). */
export function CountStatus({
  text,
  tone,
  seq,
  detail,
}: {
  text: string | undefined;
  tone: 'ok' | 'error' | undefined;
  seq: number | undefined;
  /** The core's message the text does not show (an error's tooltip). */
  detail?: string | undefined;
}) {
  return (
    <p className="count-status" role="status" aria-live="polite" aria-atomic="true" data-tone={tone} data-seq={seq} title={detail}>
      {tone === 'error' ? <span aria-hidden="true">! </span> : null}
      {text ?? ''}
    </p>
  );
}

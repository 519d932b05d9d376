/**
 * A scan while another tab than Stock is shown (issue 27): the stock screen is hidden and takes no
 * scans (renderer/stock/scanner.ts), so the scan would otherwise type its code into whatever has
 * focus and press Enter there. Here it is caught the same way (what it typed undone, its Enter or
 * Tab never reaching the field), and the frame says so with the code, offering to show it in Stock.
 */
import { useEffect, useState } from 'react';
import type { I18n } from '../i18n/index.js';
import { type BurstStart, ScanDetector, fieldOf, restore, strokeOf } from '../stock/scanner.js';

export function AwayScans({ active, i18n, onShow }: { active: boolean; i18n: I18n; onShow: (code: string) => void }) {
  const [code, setCode] = useState<{ code: string; seq: number } | null>(null);
  useEffect(() => {
    if (!active) {
      setCode(null);
      return;
    }
    const detector = new ScanDetector<BurstStart>();
    const onKeyDown = (e: KeyboardEvent) => {
      const target = e.target instanceof Element ? e.target : null;
      const hit = detector.key(strokeOf(e), () => {
        const field = fieldOf(target);
        return { field, value: field?.value ?? '' };
      });
      if (!hit) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      if (hit.start?.field?.isConnected) restore(hit.start.field, hit.start.value);
      setCode((c) => ({ code: hit.code, seq: (c?.seq ?? 0) + 1 }));
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [active]);
  const { t } = i18n;
  return (
    <div className="away-scan" role="status" aria-live="polite" data-seq={code?.seq}>
      {code ? (
        <>
          <span aria-hidden="true">! </span>
          {t('frame.scanAway', { code: code.code })}{' '}
          <button
            type="button"
            onClick={() => {
              setCode(null);
              onShow(code.code);
            }}
          >
            {t('frame.scanAwayShow')}
          </button>{' '}
          <button type="button" onClick={() => setCode(null)}>
            {t('frame.scanAwayDismiss')}
          </button>
        </>
      ) : null}
    </div>
  );
}

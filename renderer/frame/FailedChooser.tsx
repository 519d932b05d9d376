import { useState } from 'react';
import type { StockroomApi } from '../../common/contract/api.js';
import type { I18n } from '../i18n/index.js';

/** What failed, by screen: stock changes (the grid) and replies (the inbox, by conversation). */
export interface FailedSplit {
  stock: number;
  messages: number;
  /** The conversations of the failed replies, newest entry first. */
  packs: number[];
}

/** Reads the failed entries of the outbox, split into stock changes and replies (issue 27). */
export async function failedSplit(api: StockroomApi): Promise<FailedSplit | null> {
  const [all, messages] = await Promise.all([
    api.outbox.list({ state: 'failed', limit: 1 }),
    api.outbox.list({ kind: 'message', state: 'failed', limit: 200 }),
  ]);
  if (!all.ok || !messages.ok) return null;
  const packs = [...new Set(messages.value.entries.flatMap((e) => (e.message ? [e.message.packId] : [])))];
  return { stock: all.value.total - messages.value.total, messages: messages.value.total, packs };
}

/**
 * The status bar's failed count opens what failed (issue 27): the grid's failed cells when only
 * stock changes failed, the inbox's failed replies when only replies did, and when both, this
 * small choice of the two.
 */
export function useShowFailed(api: StockroomApi, go: { stock: () => void; inbox: (packs: number[]) => void }) {
  const [choice, setChoice] = useState<FailedSplit | null>(null);
  const showFailed = async () => {
    const split = await failedSplit(api);
    if (split === null || split.messages === 0) go.stock();
    else if (split.stock <= 0) go.inbox(split.packs);
    else setChoice(split);
  };
  return { showFailed, choice, close: () => setChoice(null) };
}

export function FailedChooser({
  i18n,
  choice,
  onStock,
  onInbox,
  onClose,
}: {
  i18n: I18n;
  choice: FailedSplit;
  onStock: () => void;
  onInbox: (packs: number[]) => void;
  onClose: () => void;
}) {
  const { t } = i18n;
  return (
    <div
      className="failed-chooser"
      role="dialog"
      aria-label={t('frame.failedWhat')}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <p>{t('frame.failedWhat')}</p>
      <button
        type="button"
        autoFocus
        onClick={() => {
          onClose();
          onStock();
        }}
      >
        {t('frame.failedStock', { count: choice.stock })}
      </button>{' '}
      <button
        type="button"
        onClick={() => {
          onClose();
          onInbox(choice.packs);
        }}
      >
        {t('frame.failedMessages', { count: choice.messages })}
      </button>{' '}
      <button type="button" aria-label={t('common.close')} onClick={onClose}>
        <span aria-hidden="true">✕</span>
      </button>
    </div>
  );
}

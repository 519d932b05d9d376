import { useId, useMemo, useRef, useState } from 'react';
import { errorDetail } from '../i18n/errors.js';
import { useI18n } from '../i18n/index.js';
import { type Segment, TEMPLATE_FIELDS, checkComposer, segments } from './compose.js';
import { useInbox, useInboxActions } from './context.js';
import { DraftFiles } from './DropZone.js';
import { QuickReplies } from './QuickReplies.js';
import { BUYER_MAX_MESSAGE_LENGTH, SELLER_MAX_MESSAGE_LENGTH } from './rules.js';
import { blockedText, failureText, warningText } from './words.js';

export interface ComposerProps {
  packId: number;
  /** Why sending is blocked (SPEC 7.6), or null: a blocked composer says why and is disabled. */
  blocked: string | null;
  /** Who writes: a seller has 350 characters, a buyer 3,500 (the thread's answer may say otherwise). */
  role?: 'seller' | 'buyer';
  max?: number;
}

/**
 * The reply box: a live counter against the limit, the characters the marketplace would refuse
 * highlighted in place (a layer under the transparent text area) and listed in words, the
 * moderation warnings of the same rules as the server, the files, the quick replies, and Send
 * (Ctrl+Enter). Sending works offline: the answer is "queued" and the thread shows it until sent.
 */
export function Composer({ packId, blocked, role = 'seller', max }: ComposerProps) {
  const i = useI18n();
  const { t } = i;
  const id = useId();
  const actions = useInboxActions();
  const text = useInbox((s) => s.drafts[packId]?.text ?? '');
  const files = useInbox((s) => s.drafts[packId]?.files);
  const sending = useInbox((s) => s.sending[packId] ?? IDLE);
  const backdrop = useRef<HTMLDivElement>(null);
  const limit = max ?? (role === 'buyer' ? BUYER_MAX_MESSAGE_LENGTH : SELLER_MAX_MESSAGE_LENGTH);
  const check = useMemo(() => checkComposer(text, limit), [text, limit]);
  // Every warning at once (several of one reason too), each warned part highlighted in place.
  const warnings = check.warnings;
  const parts: Segment[] = useMemo(() => segments(text, check.unsupported, warnings), [text, check.unsupported, warnings]);
  const conversation = useInbox((s) => (s.selected?.packId === packId ? s.selected : null));
  const filesBusy = (files ?? []).some((f) => f.state === 'reading' || f.state === 'staging');
  const disabled = blocked !== null;
  const canSend = !disabled && check.sendable && !filesBusy && sending.status !== 'sending';
  // A text with moderation warnings goes only once the person confirms it (issue 27); typing again asks again.
  const [confirming, setConfirming] = useState<string | null>(null);
  const askFirst = warnings.length > 0 && confirming !== text;

  const send = () => {
    if (!canSend) return;
    if (askFirst) setConfirming(text);
    else {
      setConfirming(null);
      void actions.send(packId);
    }
  };

  const problemsId = `${id}-problems`;
  const counterId = `${id}-counter`;
  return (
    <section className="composer" aria-label={t('composer.label')} data-blocked={disabled}>
      {blocked ? (
        <p className="blocked" role="note">
          <span aria-hidden="true">⊘ </span>
          {blockedText(i, blocked)}
        </p>
      ) : null}
      <label htmlFor={id} className="visually-hidden">
        {t('composer.label')}
      </label>
      <div className="composer-field">
        <div className="composer-backdrop" ref={backdrop} aria-hidden="true" data-testid="composer-highlight">
          {parts.map((p, n) =>
            p.refused ? (
              <mark key={n}>{p.text}</mark>
            ) : p.warning !== undefined ? (
              <mark key={n} className="warn" data-reason={p.warning}>
                {p.text}
              </mark>
            ) : (
              <span key={n}>{p.text}</span>
            ),
          )}
          {'\n'}
        </div>
        <textarea
          id={id}
          data-pack={packId}
          value={text}
          rows={4}
          disabled={disabled}
          placeholder={t('composer.placeholder')}
          aria-describedby={`${counterId} ${problemsId}`}
          aria-invalid={check.unsupported.length > 0 || check.over > 0}
          onChange={(e) => actions.setText(packId, e.target.value)}
          onScroll={(e) => {
            if (backdrop.current) backdrop.current.scrollTop = e.currentTarget.scrollTop;
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              send();
            }
          }}
        />
      </div>
      <div className="composer-status">
        <span id={counterId} className="counter" data-over={check.over > 0} aria-label={t('composer.counterLabel', { length: check.length, max: limit })}>
          {check.over > 0 ? <span aria-hidden="true">⚠ </span> : null}
          {t('composer.counter', { length: check.length, max: limit })}
        </span>
        <span className="shortcut">{t('composer.shortcut')}</span>
      </div>
      <div id={problemsId} className="composer-problems" aria-live="polite">
        {check.over > 0 ? (
          <p className="problem too-long">
            <span aria-hidden="true">✕ </span>
            {t('composer.tooLong', { count: check.over, max: limit })}
          </p>
        ) : null}
        {check.unsupported.length > 0 ? (
          <p className="problem unsupported">
            <span aria-hidden="true">✕ </span>
            {t('composer.unsupported', {
              count: check.unsupported.length,
              chars: i.formatList([...new Set(check.unsupported.map((u) => `${u.char} (${u.codePoint})`))]),
            })}
          </p>
        ) : null}
        {check.unfilled.length > 0 ? (
          <p className="problem unfilled">
            <span aria-hidden="true">✕ </span>
            {t('composer.unknownFields', {
              count: check.unfilled.length,
              fields: i.formatList(check.unfilled),
              known: i.formatList(TEMPLATE_FIELDS.map((f) => `{${f}}`)),
            })}
          </p>
        ) : null}
        {warnings.length > 0 ? (
          <div className="warnings" role="group" aria-label={t('composer.warnings')}>
            <ul>
              {warnings.map((w) => (
                <li key={`${w.reason}-${w.index}`} className="warning" data-reason={w.reason} data-index={w.index}>
                  <span aria-hidden="true">⚠ </span>
                  {warningText(i, w.reason, w.match)}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
      <DraftFiles packId={packId} disabled={disabled} />
      <div className="composer-actions">
        <QuickReplies packId={packId} disabled={disabled} text={text} conversation={conversation} max={limit} />
        <button type="button" className="primary send" disabled={!canSend} onClick={send}>
          {sending.status === 'sending' ? t('composer.sending') : t('composer.send')}
        </button>
      </div>
      {confirming === text && warnings.length > 0 ? (
        <div className="confirm-warnings" role="alertdialog" aria-label={t('composer.warnings')}>
          <p>
            <span aria-hidden="true">⚠ </span>
            {t('composer.confirmWarnings', { count: warnings.length })}
          </p>
          <button type="button" className="send-anyway" disabled={!canSend} onClick={send}>
            {t('composer.sendAnyway')}
          </button>{' '}
          <button
            type="button"
            onClick={() => {
              setConfirming(null);
              document.getElementById(id)?.focus();
            }}
          >
            {t('composer.keepEditing')}
          </button>
        </div>
      ) : null}
      <SendState packId={packId} />
    </section>
  );
}

const IDLE = { status: 'idle' } as const;

function SendState({ packId }: { packId: number }) {
  const i = useI18n();
  const { t } = i;
  const actions = useInboxActions();
  const s = useInbox((st) => st.sending[packId] ?? IDLE);
  // The queued message as the open thread shows it: gone once sent ("queued" is old news then), or refused.
  const entry = useInbox((st) =>
    s.status === 'queued' && st.thread.packId === packId && st.thread.view ? (st.thread.view.queued.find((q) => q.entryId === s.entryId) ?? null) : undefined,
  );
  const online = useInbox((st) => st.online);
  if (s.status === 'sent')
    return (
      <p className="send-state sent" role="status">
        <span aria-hidden="true">✓ </span>
        {t('composer.sent')}
      </p>
    );
  if (s.status === 'queued' && entry?.state === 'failed')
    return (
      <p className="send-state refused" role="alert">
        <span aria-hidden="true">✕ </span>
        {t('composer.refused')}
      </p>
    );
  if (s.status === 'queued' && entry !== null)
    return (
      <p className="send-state queued" role="status">
        <span aria-hidden="true">◷ </span>
        {online === true ? t('composer.queuedOnline') : t('composer.queued')}
      </p>
    );
  if (s.status === 'failed')
    return (
      <div className="send-state failed" role="alert">
        <p title={errorDetail(s.error, i.language)}>
          <span aria-hidden="true">✕ </span>
          {t('composer.sendFailed', { reason: failureText(i, s.error) })}
        </p>
        <button type="button" onClick={() => void actions.send(packId)}>
          {t('thread.retry')}
        </button>
      </div>
    );
  return null;
}

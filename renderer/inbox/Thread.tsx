import { memo, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { ApiError, AttachmentView, ConversationView, MessageView, QueuedMessageView } from '../../common/contract/contract.js';
import { displayFileName } from '../../common/messages/file-names.js';
import { errorDetail, errorText, errorWords } from '../i18n/errors.js';
import { useI18n } from '../i18n/index.js';
import { useInbox, useInboxActions, useInboxApi } from './context.js';
import type { InboxActions } from './store.js';
import { buyerName, failureText, moderationStatus, queuedError, reasonText } from './words.js';

/** Whether sending is blocked, by the same rule as the composer's (the thread's status, else the list's). */
function blockedNow(status: Record<string, unknown> | null, listed: string | null): boolean {
  return status?.status === 'blocked' || listed !== null;
}

/** Puts a rejected message's text into the reply box, to fix what moderation found and send again. */
function editAndResend(actions: InboxActions, packId: number, text: string) {
  actions.setText(packId, text);
  const box = document.querySelector<HTMLTextAreaElement>(`.composer textarea[data-pack="${packId}"]`);
  box?.focus();
}

/** The messages of the open conversation, oldest at the top, then what still waits in the outbox. */
export function Thread({ conversation }: { conversation: ConversationView }) {
  const i = useI18n();
  const { t } = i;
  const thread = useInbox((s) => s.thread);
  const actions = useInboxActions();
  const end = useRef<HTMLDivElement>(null);
  const view = thread.view;
  const newest = view?.messages[0]?.id;
  const queued = view?.queued.length ?? 0;

  // Show the newest message when a conversation opens or a message arrives (not when older ones load).
  useLayoutEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [conversation.packId, newest, queued]);

  if (thread.status === 'loading' || thread.status === 'idle' || (thread.status === 'ready' && !view)) {
    return (
      <p className="state loading" role="status">
        {t('common.loading')}
      </p>
    );
  }
  if (thread.status === 'error' || !view) {
    return (
      <div className="state error" role="alert">
        <p title={errorDetail(thread.error, i.language)}>
          <span aria-hidden="true">⚠ </span>
          {t('common.error', { message: errorText(thread.error, i.language) })}
        </p>
        <button type="button" onClick={() => void actions.open(conversation)}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  const total = view.paging?.total ?? view.messages.length;
  const messages = [...view.messages].reverse();
  return (
    <div className="thread">
      {view.messages.length < total ? (
        <button type="button" className="older" disabled={thread.loadingOlder} onClick={() => void actions.loadOlder()}>
          {thread.loadingOlder ? t('common.loading') : t('thread.older')}
        </button>
      ) : null}
      {messages.length === 0 && view.queued.length === 0 ? (
        // A blocked conversation has a disabled composer: "write the first one below" would be a false promise.
        <p className="state empty">{blockedNow(view.conversation_status, conversation.blocked) ? t('thread.emptyBlocked') : t('thread.empty')}</p>
      ) : null}
      <ol className="messages" aria-label={t('thread.messages')}>
        {messages.map((m, n) => (
          <Message
            key={m.id}
            message={m}
            conversation={conversation}
            resent={m.message_moderation.status === 'rejected' && delivered(messages.slice(n + 1), m)}
          />
        ))}
        {view.queued.map((q) => (
          <Queued key={`q${q.entryId}`} entry={q} />
        ))}
      </ol>
      <div ref={end} />
    </div>
  );
}

/**
 * A rejected message was sent again once a later message of the same sender was delivered (moderated
 * clean, or not moderated): its "Edit and resend" is then done (issue 27). `later`: oldest first.
 */
function delivered(later: readonly MessageView[], rejected: MessageView): boolean {
  return later.some(
    (m) => m.from.user_id === rejected.from.user_id && (m.message_moderation.status === 'clean' || m.message_moderation.status === 'non_moderated'),
  );
}

const Message = memo(function Message({ message: m, conversation, resent }: { message: MessageView; conversation: ConversationView; resent: boolean }) {
  const i = useI18n();
  const { t } = i;
  const own = m.from.user_id !== conversation.buyer.id;
  const status = moderationStatus(i, m.message_moderation.status);
  const rejected = m.message_moderation.status === 'rejected';
  const actions = useInboxActions();
  return (
    <li className={`message ${own ? 'own' : 'theirs'}`} data-id={m.id} data-moderation={m.message_moderation.status}>
      <p className="meta">
        <span className="who">{own ? t('thread.fromYou') : t('thread.fromBuyer', { buyer: buyerName(i, conversation.buyer) })}</span>{' '}
        <time dateTime={m.message_date.created}>{i.formatDate(m.message_date.created)}</time>
      </p>
      <p className="text">{m.text}</p>
      {m.message_attachments && m.message_attachments.length > 0 ? (
        <ul className="attachments" aria-label={t('thread.attachments')}>
          {m.message_attachments.map((a) => (
            <li key={a.filename}>
              <Attachment attachment={a} />
            </li>
          ))}
        </ul>
      ) : null}
      {own ? (
        <p className="state-line">
          <span className={`moderation ${m.message_moderation.status}`}>
            <span aria-hidden="true">{status.icon} </span>
            {status.text}
          </span>
          {!rejected ? (
            <span className="read">
              {' · '}
              {m.message_date.read ? t('thread.readAt', { date: i.formatDate(m.message_date.read) }) : t('thread.notRead')}
            </span>
          ) : null}
        </p>
      ) : null}
      {own && rejected ? (
        <div className="rejection" role="note">
          <p>
            <strong>{t('thread.rejected')}</strong> {reasonText(i, m.message_moderation.reason)}
          </p>
          {resent ? (
            <p className="resent">{t('thread.resent')}</p>
          ) : (
            <button type="button" className="edit-resend" onClick={() => editAndResend(actions, conversation.packId, m.text)}>
              {t('thread.editResend')}
            </button>
          )}
        </div>
      ) : null}
    </li>
  );
});

/**
 * A message still in the outbox, by what the person is told of it (issue 24): queued, sending,
 * not confirmed (sent, its answer lost: the buyer may have it; Retry and Discard say what they
 * do), being checked on the marketplace, or refused with the marketplace's reason.
 */
function Queued({ entry: q }: { entry: QueuedMessageView }) {
  const i = useI18n();
  const { t } = i;
  const actions = useInboxActions();
  const hintId = useId();
  const unknown = q.phase === 'unknown';
  const checking = q.phase === 'checking';
  // Retry and Discard wait for the person: a refused message, or one not confirmed.
  const actionable = !checking && (q.state === 'failed' || q.state === 'conflict');
  return (
    <li className={`message own queued ${q.state}`} data-entry={q.entryId} data-state={q.state} data-phase={q.phase}>
      <p className="meta">
        <span className="who">{t('thread.fromYou')}</span> <time dateTime={new Date(q.createdAt).toISOString()}>{i.formatDate(q.createdAt)}</time>
      </p>
      <p className="text">{q.text}</p>
      {q.files.length > 0 ? (
        <ul className="attachments" aria-label={t('thread.attachments')}>
          {q.files.map((f, n) => (
            <li key={n}>
              <span aria-hidden="true">▤ </span>
              {f}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="state-line" role={unknown || checking ? 'status' : actionable ? 'alert' : undefined}>
        {checking ? (
          <>
            <span aria-hidden="true">◷ </span>
            {t('thread.checking')}
          </>
        ) : unknown ? (
          <>
            <span aria-hidden="true">? </span>
            {t('thread.unknown')}
          </>
        ) : q.state === 'pending' ? (
          <>
            <span aria-hidden="true">◷ </span>
            {t('thread.queued')}
          </>
        ) : q.state === 'in_flight' ? (
          <>
            <span aria-hidden="true">↗ </span>
            {t('thread.sending')}
          </>
        ) : (
          <>
            <span aria-hidden="true">✕ </span>
            {q.lastError
              ? t(q.state === 'conflict' ? 'thread.conflict' : 'thread.failed', { reason: failureText(i, queuedError(q.lastError)) })
              : t('thread.failedNoReason')}
          </>
        )}
      </p>
      {unknown ? (
        <ul className="choices">
          <li id={`${hintId}-retry`}>{t('thread.retryUnknown')}</li>
          <li id={`${hintId}-discard`}>{t('thread.discardUnknown')}</li>
        </ul>
      ) : null}
      {actionable ? (
        <p className="actions">
          <button type="button" aria-describedby={unknown ? `${hintId}-retry` : undefined} onClick={() => void actions.retry(q.entryId)}>
            {t('thread.retry')}
          </button>{' '}
          <button type="button" aria-describedby={unknown ? `${hintId}-discard` : undefined} onClick={() => void actions.discard(q.entryId)}>
            {t('thread.discard')}
          </button>
        </p>
      ) : null}
    </li>
  );
}

/** Bytes of a Blob part (a copy on a plain ArrayBuffer, as Blob's types want). */
const blobOf = (bytes: Uint8Array, type: string) => new Blob([new Uint8Array(bytes)], { type });

/** An attachment: images previewed (bytes through the API, never a path), other files saved through the main process. */
function Attachment({ attachment: a }: { attachment: AttachmentView }) {
  const i = useI18n();
  const { t } = i;
  const api = useInboxApi();
  const actions = useInboxActions();
  const image = a.type.startsWith('image/') && !a.potential_security_threat;
  // The remote's name under the app's own name rules (no RLO, no separators), stored before this one too.
  const name = displayFileName(a.original_filename);
  const [preview, setPreview] = useState<{ url: string | null; error: ApiError | null }>({ url: null, error: null });

  useEffect(() => {
    if (!image) return;
    let live = true;
    let url: string | null = null;
    void api.messages.readAttachment({ attachmentId: a.filename }).then((r) => {
      if (!live) return;
      if (r.ok) {
        url = URL.createObjectURL(blobOf(r.value.bytes, r.value.type));
        setPreview({ url, error: null });
      } else setPreview({ url: null, error: r.error });
    });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [api, a.filename, image]);

  const save = async () => {
    const r = await api.messages.saveAttachment({ attachmentId: a.filename });
    if (r.ok) {
      actions.setNotice({
        kind: 'info',
        text: r.value.saved && r.value.path ? t('thread.attachmentSaved', { path: r.value.path }) : t('thread.attachmentNotSaved'),
      });
      return;
    }
    if (r.error.code !== 'unsupported') {
      actions.setNotice({ kind: 'error', ...errorWords(r.error, i.language) });
      return;
    }
    // The browser mode has no save dialog in the main process: the browser's own download saves the bytes.
    const bytes = await api.messages.readAttachment({ attachmentId: a.filename });
    if (!bytes.ok) {
      actions.setNotice({ kind: 'error', ...errorWords(bytes.error, i.language) });
      return;
    }
    const url = URL.createObjectURL(blobOf(bytes.value.bytes, 'application/octet-stream'));
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  const label = t('thread.attachment', { name, size: i.formatBytes(a.size) });
  return (
    <figure className="attachment" data-type={a.type}>
      {image ? (
        preview.url ? (
          <img src={preview.url} alt={t('thread.preview', { name })} />
        ) : preview.error ? (
          <p className="error" title={errorDetail(preview.error, i.language)}>
            {t('thread.attachmentError', { name, message: errorText(preview.error, i.language) })}
          </p>
        ) : (
          <p className="loading">{t('thread.attachmentLoading', { name })}</p>
        )
      ) : null}
      <figcaption>
        <span aria-hidden="true">▤ </span>
        {label}
        {a.potential_security_threat ? (
          <span className="threat">
            {' '}
            <span aria-hidden="true">⚠ </span>
            {t('thread.attachmentThreat')}
          </span>
        ) : (
          <>
            {' '}
            <button type="button" onClick={() => void save()}>
              {t('thread.attachmentSave', { name })}
            </button>
          </>
        )}
      </figcaption>
    </figure>
  );
}

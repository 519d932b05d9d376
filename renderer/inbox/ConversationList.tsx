import { type KeyboardEvent, memo, useEffect, useState } from 'react';
import type { ConversationView } from '../../common/contract/contract.js';
import { errorDetail, errorText } from '../i18n/errors.js';
import { useI18n } from '../i18n/index.js';
import { useInbox, useInboxActions } from './context.js';
import type { Filter } from './store.js';
import { buyerFullName } from './OrderPanel.js';
import { ordersText } from './words.js';
import { SearchBox } from './SearchBox.js';
import '../ui/ui.css';

const FILTERS: Filter[] = ['all', 'unread', 'to_reply', 'blocked', 'with_attachments', 'failed'];
/**
 * Conversations in the list's first frame: more than a tall window shows. The rest of the page
 * (50) is rendered once that frame is painted, so the first paint lays out only what is in view.
 */
export const FIRST_PAINT = 16;

/** Arrow keys move between the conversations (Tab leaves the list; Enter or Space opens one). */
function moveFocus(e: KeyboardEvent<HTMLUListElement>) {
  if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
  const buttons = Array.from(e.currentTarget.querySelectorAll<HTMLButtonElement>('button.conversation'));
  if (buttons.length === 0) return;
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const next = e.key === 'Home' ? 0 : e.key === 'End' ? buttons.length - 1 : e.key === 'ArrowDown' ? Math.min(buttons.length - 1, at + 1) : Math.max(0, at - 1);
  e.preventDefault();
  buttons[next]?.focus();
}

export function ConversationList() {
  const i = useI18n();
  const { t } = i;
  const filter = useInbox((s) => s.filter);
  const search = useInbox((s) => s.search);
  const list = useInbox((s) => s.list);
  const selected = useInbox((s) => s.selected?.packId ?? null);
  const actions = useInboxActions();

  return (
    <nav className="inbox-list" aria-label={t('inbox.list')}>
      <div className="list-head">
        <SearchBox />
        <div className="filters" role="group" aria-label={t('inbox.filters')}>
          {FILTERS.map((f) => (
            <button key={f} type="button" aria-pressed={filter === f} onClick={() => void actions.setFilter(f)}>
              {t(`inbox.filter.${f}`)}
            </button>
          ))}
        </div>
      </div>
      {list.status === 'loading' || list.status === 'idle' ? (
        <p className="state loading" role="status">
          {t('common.loading')}
        </p>
      ) : list.status === 'error' ? (
        <div className="state error" role="alert">
          <p title={errorDetail(list.error, i.language)}>
            <span aria-hidden="true">⚠ </span>
            {t('common.error', { message: errorText(list.error, i.language) })}
          </p>
          <button type="button" onClick={() => void actions.loadList()}>
            {t('common.retry')}
          </button>
        </div>
      ) : list.conversations.length === 0 ? (
        <p className="state empty">{search.trim() !== '' ? t('inbox.noMatches', { search: search.trim() }) : t(`inbox.empty.${filter}`)}</p>
      ) : (
        <>
          <p className="count" aria-live="polite">
            {t('inbox.count', { count: list.total })}
          </p>
          <Conversations conversations={list.conversations} selected={selected} onOpen={actions.open} />
          {list.conversations.length < list.total ? (
            <button type="button" className="more" disabled={list.loadingMore} onClick={() => void actions.loadMore()}>
              {list.loadingMore ? t('common.loading') : t('inbox.more')}
            </button>
          ) : null}
        </>
      )}
    </nav>
  );
}

/** The list's items: a screenful at the list's first paint, the rest of the page in the next frame (FIRST_PAINT). */
function Conversations({
  conversations,
  selected,
  onOpen,
}: {
  conversations: ConversationView[];
  selected: number | null;
  onOpen: (c: ConversationView) => Promise<void>;
}) {
  // Once per mount: a list read again later (a filter, a new message) renders whole at once.
  const [whole, setWhole] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // After the frame that shows the first screenful: the next animation frame, then a task.
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setWhole(true), 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  const shown = whole ? conversations : conversations.slice(0, FIRST_PAINT);
  return (
    <ul className="conversations" onKeyDown={moveFocus}>
      {shown.map((c) => (
        <li key={c.packId}>
          <ConversationItem conversation={c} current={c.packId === selected} onOpen={onOpen} />
        </li>
      ))}
    </ul>
  );
}

/** One row; memoized, so opening a conversation re-renders the two rows that change, not the page. */
const ConversationItem = memo(function ConversationItem({
  conversation: c,
  current,
  onOpen,
}: {
  conversation: ConversationView;
  current: boolean;
  onOpen: (c: ConversationView) => Promise<void>;
}) {
  const i = useI18n();
  const { t } = i;
  const last = c.lastMessage;
  return (
    <button type="button" className="conversation" aria-current={current ? 'true' : undefined} data-pack={c.packId} onClick={() => void onOpen(c)}>
      <span className="line">
        <strong className="buyer" title={c.buyer.nickname ?? undefined}>
          {buyerFullName(i, c.buyer, true)}
        </strong>
        {last ? (
          <time dateTime={last.date} title={i.formatDate(last.date)}>
            {i.formatRelative(last.date)}
          </time>
        ) : null}
      </span>
      {c.product ? <span className="product">{c.product}</span> : null}
      <span className="orders">{ordersText(i, c.orderIds)}</span>
      <span className="preview">
        {last ? (
          <>
            {last.fromSeller ? `${t('inbox.you')}: ` : ''}
            {last.text}
          </>
        ) : (
          t('inbox.noMessages')
        )}
      </span>
      <span className="ui-badge badges">
        {c.unread > 0 ? (
          <span className="ui-badge badge unread">
            <span aria-hidden="true">● </span>
            {t('inbox.unread', { count: c.unread })}
          </span>
        ) : null}
        {c.needsReply ? (
          <span className="ui-badge badge to-reply">
            <span aria-hidden="true">↩ </span>
            {t('inbox.toReply')}
          </span>
        ) : null}
        {c.queued > 0 ? (
          <span className="ui-badge badge queued">
            <span aria-hidden="true">◷ </span>
            {t('inbox.queuedCount', { count: c.queued })}
          </span>
        ) : null}
        {(c.failed ?? 0) > 0 ? (
          <span className="ui-badge badge failed">
            <span aria-hidden="true">✕ </span>
            {t('inbox.failedCount', { count: c.failed ?? 0 })}
          </span>
        ) : null}
        {c.blocked ? (
          <span className="ui-badge badge blocked">
            <span aria-hidden="true">⊘ </span>
            {t('inbox.blockedShort')}
          </span>
        ) : null}
      </span>
    </button>
  );
});

import { memo, useEffect, useState } from 'react';
import type { StockroomApi } from '../../common/contract/api.js';
import type { ConversationView } from '../../common/contract/contract.js';
import { useI18n } from '../i18n/index.js';
import { Composer } from './Composer.js';
import { ConversationList } from './ConversationList.js';
import { InboxContext, useInbox, useInboxActions } from './context.js';
import { DropZone } from './DropZone.js';
import { OrderPanel, buyerFullName } from './OrderPanel.js';
import { createInboxStore } from './store.js';
import { Thread } from './Thread.js';
import { blockedText, buyerName, ordersText, siteName } from './words.js';
import './inbox.css';

/**
 * The inbox: conversations | the open thread with its composer | the order. Memoized: the frame
 * re-renders on its own events (the sync status, the summary), which change nothing here.
 */
export const InboxScreen = memo(function InboxScreen({
  api,
  onUnreadChanged,
  reveal,
}: {
  api: StockroomApi;
  onUnreadChanged?: () => void;
  /**
   * A conversation to open (a clicked notification); `seq` makes a second click on the same one
   * open it again; `failed`: among the conversations with failed replies (the status bar's count).
   */
  reveal?: { packId: number; seq: number; failed?: boolean } | null;
}) {
  const [store] = useState(() => createInboxStore(api));
  useEffect(() => {
    void store.getState().loadList();
    return store.getState().start();
  }, [store]);
  useEffect(() => {
    if (!reveal) return;
    const s = store.getState();
    if (reveal.failed) void s.setFilter('failed').then(() => s.openPack(reveal.packId));
    else void s.openPack(reveal.packId);
  }, [store, reveal]);
  // Reading a conversation changes the unread count the frame shows on the tab.
  useEffect(() => {
    if (!onUnreadChanged) return;
    const unread = (s: ReturnType<typeof store.getState>) => s.list.conversations.reduce((n, c) => n + c.unread, 0);
    let last = unread(store.getState());
    let wasReady = store.getState().list.status === 'ready';
    return store.subscribe((s) => {
      const now = unread(s);
      // Not the first load: the frame counted the unread itself, and reading its summary again
      // then would compete with the list's first paint.
      if (now !== last && s.list.status === 'ready' && wasReady) onUnreadChanged();
      last = now;
      wasReady ||= s.list.status === 'ready';
    });
  }, [store, onUnreadChanged]);
  return (
    <InboxContext.Provider value={{ api, store }}>
      <div className="inbox">
        <ConversationList />
        <OpenConversation />
        <Notice />
      </div>
    </InboxContext.Provider>
  );
});

function OpenConversation() {
  const { t } = useI18n();
  const selected = useInbox((s) => s.selected);
  if (!selected) {
    return (
      <section className="inbox-main empty" aria-label={t('thread.messages')}>
        <p className="state empty">{t('inbox.pick')}</p>
      </section>
    );
  }
  return <Conversation key={selected.packId} conversation={selected} />;
}

function Conversation({ conversation }: { conversation: ConversationView }) {
  const i = useI18n();
  const { t } = i;
  const view = useInbox((s) => (s.thread.packId === conversation.packId ? s.thread.view : null));
  const status = view?.conversation_status as { status?: string; substatus?: string | null } | null | undefined;
  const blocked = (status?.status === 'blocked' ? (status.substatus ?? 'blocked') : null) ?? conversation.blocked;
  const name = buyerName(i, conversation.buyer);
  return (
    <>
      <section className="inbox-main" aria-labelledby={`thread-title-${conversation.packId}`}>
        <header className="thread-header">
          <h2 id={`thread-title-${conversation.packId}`}>{t('thread.title', { buyer: name })}</h2>
          <p>{ordersText(i, conversation.orderIds)}</p>
        </header>
        <DropZone packId={conversation.packId} disabled={blocked !== null}>
          <Thread conversation={conversation} />
          <Composer packId={conversation.packId} blocked={blocked} max={view?.seller_max_message_length} />
        </DropZone>
      </section>
      {/* Focusable: the panel scrolls on its own, and the keyboard must be able to scroll it (issue 28's audit). */}
      <aside className="inbox-order" aria-label={t('order.title')} tabIndex={0}>
        <h3>{t('order.title')}</h3>
        <OrderPanel conversation={conversation} />
        <dl>
          <dt>{t('order.buyer')}</dt>
          <dd className="order-buyer">{buyerFullName(i, conversation.buyer)}</dd>
          <dt>{t('order.orders')}</dt>
          <dd>
            <ul>
              {conversation.orderIds.map((o) => (
                <li key={o}>{o}</li>
              ))}
            </ul>
          </dd>
          <dt>{t('order.site')}</dt>
          <dd>{siteName(conversation.siteId)}</dd>
          <dt>{t('order.status')}</dt>
          <dd>
            {blocked ? (
              <>
                <span aria-hidden="true">⊘ </span>
                {t('order.blocked')}: {blockedText(i, blocked)}
              </>
            ) : (
              <>
                <span aria-hidden="true">✓ </span>
                {t('order.active')}
              </>
            )}
          </dd>
        </dl>
      </aside>
    </>
  );
}

function Notice() {
  const { t } = useI18n();
  const notice = useInbox((s) => s.notice);
  const actions = useInboxActions();
  if (!notice) return null;
  return (
    <div className={`inbox-notice ${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'} title={notice.detail}>
      <span aria-hidden="true">{notice.kind === 'error' ? '⚠ ' : 'ℹ '}</span>
      {notice.text}{' '}
      <button type="button" onClick={() => actions.setNotice(null)}>
        {t('common.close')}
      </button>
    </div>
  );
}

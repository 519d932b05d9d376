/**
 * The inbox's data for its component tests: conversations, messages and threads as the core
 * answers them, with the demo seller and buyer. The fake API itself is test/support/fake-api.ts.
 *
 * No Node or DOM types here: the renderer's component tests compile this file too.
 */
import type { ConversationView, MessageView, QueuedMessageView, ThreadView } from '../../common/contract/contract.js';

export const SELLER = 1780493260;
export const BUYER = 1780493262;

export function conversation(over: Partial<ConversationView> = {}): ConversationView {
  return {
    packId: 2000003000001,
    siteId: 'MLA',
    buyer: { id: BUYER, nickname: 'COMPRADOR_TEST' },
    orderIds: [2000009000001],
    blocked: null,
    lastMessage: { id: 'm1', text: 'Hola, ¿viene con funda?', date: '2026-11-18T13:05:00Z', fromSeller: false, moderation: 'clean' },
    unread: 1,
    needsReply: true,
    queued: 0,
    ...over,
  };
}

export function message(
  over: Partial<MessageView> & { fromSeller?: boolean; moderation?: { status: MessageView['message_moderation']['status']; reason?: string | null } } = {},
): MessageView {
  const { fromSeller, moderation, ...rest } = over;
  const from = fromSeller ? SELLER : BUYER;
  return {
    id: 'm1',
    site_id: 'MLA',
    client_id: null,
    from: { user_id: from },
    to: { user_id: from === SELLER ? BUYER : SELLER },
    status: 'available',
    subject: null,
    text: 'Hola, ¿viene con funda?',
    message_date: { received: '2026-11-18T13:05:00Z', available: '2026-11-18T13:05:01Z', notified: null, created: '2026-11-18T13:05:00Z', read: null },
    message_moderation: {
      status: moderation?.status ?? 'clean',
      reason: moderation?.reason ?? null,
      source: 'online',
      moderation_date: '2026-11-18T13:05:01Z',
    },
    message_attachments: null,
    message_resources: [{ id: '2000003000001', name: 'packs' }],
    conversation_first_message: false,
    ...rest,
  };
}

export function thread(over: Partial<ThreadView> = {}): ThreadView {
  const messages = over.messages ?? [message()];
  return {
    packId: 2000003000001,
    paging: { limit: 50, offset: 0, total: messages.length },
    conversation_status: { status: 'active', substatus: null },
    messages,
    seller_max_message_length: 350,
    buyer_max_message_length: 3500,
    queued: [],
    ...over,
  };
}

/** What each stored state is told as when nothing else is said (main/sync/model.ts phaseOf). */
const PHASE_OF_STATE: Record<QueuedMessageView['state'], QueuedMessageView['phase']> = {
  pending: 'queued',
  in_flight: 'on_wire',
  conflict: 'conflict',
  failed: 'refused',
};

/** A message still in the outbox: queued by default; its phase follows its state unless given. */
export function queuedMessage(over: Partial<QueuedMessageView> & Pick<QueuedMessageView, 'entryId'>): QueuedMessageView {
  const state = over.state ?? 'pending';
  return {
    state,
    phase: PHASE_OF_STATE[state],
    text: 'Hola',
    files: [],
    createdAt: Date.parse('2026-11-18T15:00:00Z'),
    lastError: null,
    ...over,
  };
}

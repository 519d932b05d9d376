import type { AttachmentView, MessageView, ModerationStatus } from '../../../common/views.js';
import type { MessageRow } from '../../db/repos/messages.js';
import type { Principal } from '../auth/auth.js';
import { BUYER_MAX_MESSAGE_LENGTH, SELLER_MAX_MESSAGE_LENGTH } from '../../../common/messages/text-rules.js';
import { joinBytes } from './joined-bytes.js';
import type { ConversationStatus } from './orders.js';

/** SPEC 2.8: one shape for the service's answers and the inbox (common/views.ts). */
export type { AttachmentView, MessageView };

/**
 * What the messages area needs from the attachments area (`service.attachments`); the messages
 * area codes against this shape only.
 */
export interface AttachmentsPort {
  /** Validates the `attachments` body field (count, ownership, not yet attached); returns the ids. */
  requireAttachable(principal: Principal, ids: unknown, siteId: string): string[];
  /** Links uploads to a message; called inside the send transaction. */
  attach(messageId: string, ids: string[]): void;
  /** Attachments of each message, in one query. */
  forMessages(messageIds: string[]): Map<string, AttachmentView[]>;
  /** Content check of a message's files: threat flag, and readable text to moderate. */
  inspect(messageId: string): Promise<{ threat: boolean; text: string }>;
}

/** SPEC 2.10. */
export interface MessageList {
  paging: { limit: number; offset: number; total: number } | null;
  conversation_status: ConversationStatus | null;
  messages: MessageView[];
  seller_max_message_length: number;
  buyer_max_message_length: number;
}

/** SPEC 2.8 / 4.10, legacy shape. */
export interface LegacyMessageView {
  message_id: string;
  date_received: string;
  date: string;
  date_available: string | null;
  date_notified: string | null;
  date_read: string | null;
  from: { user_id: number };
  to: { user_id: number };
  subject: string | null;
  text: { plain: string };
  attachments: AttachmentView[];
  attachments_validations: {
    invalid_size: string[];
    invalid_extension: string[];
    forbidden: string[];
    internal_error: string[];
  };
  site_id: string;
  resource: 'orders';
  /** A string, as the marketplace's documentation and its client libraries have it. */
  resource_id: string;
  status: 'available';
  moderation: { status: ModerationStatus; date_moderated: string | null; source: string | null };
}

export function toMessageView(m: MessageRow, attachments: AttachmentView[], sellerId: number): MessageView {
  return {
    id: m.id,
    site_id: m.site_id,
    client_id: m.client_id,
    from: { user_id: m.from_user_id },
    to: { user_id: m.to_user_id },
    status: m.status,
    subject: m.subject,
    text: m.text,
    message_date: {
      received: m.date_received,
      available: m.date_available,
      notified: m.date_notified,
      created: m.date_created,
      read: m.date_read,
    },
    message_moderation: {
      status: m.moderation_status,
      reason: m.moderation_reason,
      source: m.moderation_source,
      moderation_date: m.moderation_date,
    },
    message_attachments: attachments.length > 0 ? attachments : null,
    message_resources: [
      { id: String(m.pack_key), name: 'packs' },
      { id: String(sellerId), name: 'sellers' },
    ],
    conversation_first_message: m.conversation_first_message === 1,
  };
}

/**
 * attachments_validations: the spec names four lists of attachment file names. Size, extension
 * and storage problems are refused at upload (4.12), so a stored message never has any; a file
 * the content check flagged (potential_security_threat) is listed under `forbidden`.
 */
export function toLegacyView(m: MessageRow, attachments: AttachmentView[]): LegacyMessageView {
  return {
    message_id: m.id,
    date_received: m.date_received,
    date: m.date_created,
    date_available: m.date_available,
    date_notified: m.date_notified,
    date_read: m.date_read,
    from: { user_id: m.from_user_id },
    to: { user_id: m.to_user_id },
    subject: m.subject,
    text: { plain: m.text },
    attachments,
    attachments_validations: {
      invalid_size: [],
      invalid_extension: [],
      forbidden: attachments.filter((a) => a.potential_security_threat).map((a) => a.filename),
      internal_error: [],
    },
    site_id: m.site_id,
    resource: 'orders',
    resource_id: String(m.order_id),
    status: m.status,
    moderation: { status: m.moderation_status, date_moderated: m.moderation_date, source: m.moderation_source },
  };
}

export function messageList(messages: MessageView[], paging: MessageList['paging'], conversation: ConversationStatus | null): MessageList {
  return {
    paging,
    conversation_status: conversation,
    messages,
    seller_max_message_length: SELLER_MAX_MESSAGE_LENGTH,
    buyer_max_message_length: BUYER_MAX_MESSAGE_LENGTH,
  };
}

const COMMA = Buffer.from(',');
const LIST_TAIL = Buffer.from(`],"seller_max_message_length":${SELLER_MAX_MESSAGE_LENGTH},"buyer_max_message_length":${BUYER_MAX_MESSAGE_LENGTH}}`);

/**
 * The UTF-8 JSON of `messageList(messages, paging, conversation)` around messages that are UTF-8
 * JSON already (built by SQLite, kept encoded by the repo): the same keys in the same order, byte
 * for byte. Bytes, not text: encoding a 33 KB page per answer cost about 40 µs, half of the
 * server's CPU per page read; copying kept bytes costs about 8.
 */
export function messageListJson(messages: readonly Buffer[], paging: MessageList['paging'], conversation: ConversationStatus | null): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"paging":${JSON.stringify(paging)},"conversation_status":${JSON.stringify(conversation)},"messages":[`)];
  messages.forEach((m, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(m);
  });
  parts.push(LIST_TAIL);
  return joinBytes(parts);
}

import type { I18n, Key } from '../i18n/index.js';
import { MODERATION_REASONS, type ModerationReason } from './rules.js';

const BLOCKS = ['blocked_by_cancelled_order', 'blocked_by_mediation', 'blocked_by_fulfillment'] as const;

/** Why a conversation is blocked, in words (SPEC 7.6 block reasons). */
export function blockedText(i: I18n, reason: string): string {
  return (BLOCKS as readonly string[]).includes(reason)
    ? i.t(`composer.blocked.${reason as (typeof BLOCKS)[number]}`)
    : i.t('composer.blocked.other', { reason });
}

/** The marketplace's refusals that mean a blocked conversation (SPEC 7.6), by their message or cause. */
const BLOCK_MESSAGES: [RegExp, (typeof BLOCKS)[number]][] = [
  [/blocked_conversation_send_message_forbidden|blocked_by_cancelled_order/, 'blocked_by_cancelled_order'],
  [/mediation is in process|blocked_by_mediation/, 'blocked_by_mediation'],
  [/platform fulfillment|blocked_by_fulfillment/, 'blocked_by_fulfillment'],
];

/** Why the marketplace refused a message, in words where the refusal is a known one; its own message otherwise. */
export function failureText(i: I18n, message: string, cause?: readonly unknown[]): string {
  const text = `${message} ${(cause ?? []).map(String).join(' ')}`;
  const block = BLOCK_MESSAGES.find(([re]) => re.test(text));
  return block ? blockedText(i, block[1]) : message;
}

export const isReason = (r: string | null | undefined): r is ModerationReason => !!r && (MODERATION_REASONS as readonly string[]).includes(r);

/** The sentence for a moderation reason (SPEC 2.8), or a plain "rejected" when the reason is unknown. */
export function reasonText(i: I18n, reason: string | null | undefined): string {
  return isReason(reason) ? i.t(`moderation.reason.${reason}`) : i.t('thread.rejectedUnknown');
}

export function warningText(i: I18n, reason: string, match: string): string {
  return isReason(reason) ? i.t(`moderation.warn.${reason}`, { match: match.length > 60 ? `${match.slice(0, 57)}…` : match }) : match;
}

const STATUS_KEYS: Record<string, Key> = {
  clean: 'thread.status.clean',
  non_moderated: 'thread.status.non_moderated',
  pending: 'thread.status.pending',
  rejected: 'thread.status.rejected',
};
/** An own message's moderation status in words, with an icon that is never the only signal. */
export function moderationStatus(i: I18n, status: string): { icon: string; text: string } {
  const key = STATUS_KEYS[status];
  const icon = status === 'rejected' ? '✕' : status === 'pending' ? '◷' : '✓';
  return { icon, text: key ? i.t(key) : status };
}

export function buyerName(i: I18n, buyer: { id: number; nickname: string | null }): string {
  return buyer.nickname ?? i.t('inbox.buyerUnknown', { id: String(buyer.id) });
}

export function ordersText(i: I18n, orderIds: readonly number[]): string {
  if (orderIds.length === 1) return i.t('inbox.order', { id: String(orderIds[0]) });
  return i.t('inbox.orders', { ids: i.formatList(orderIds.map(String)) });
}

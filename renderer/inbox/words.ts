import { siteById } from '../../common/marketplace.js';
import { errorText } from '../i18n/errors.js';
import type { I18n } from '../i18n/index.js';
import { MODERATION_REASONS, type ModerationReason } from './rules.js';

type Block = 'blocked_by_cancelled_order' | 'blocked_by_mediation' | 'blocked_by_fulfillment';

/** Why a conversation is blocked, in words (SPEC 7.6 block reasons; another reason humanized in a sentence). */
export function blockedText(i: I18n, reason: string): string {
  return i.code('composer.blocked', reason);
}

/** The marketplace's refusals that mean a blocked conversation (SPEC 7.6), by their message or cause. */
const BLOCK_MESSAGES: [RegExp, Block][] = [
  [/blocked_conversation_send_message_forbidden|blocked_by_cancelled_order/, 'blocked_by_cancelled_order'],
  [/mediation is in process|blocked_by_mediation/, 'blocked_by_mediation'],
  [/platform fulfillment|blocked_by_fulfillment/, 'blocked_by_fulfillment'],
];

/**
 * Why the marketplace refused a message, in words: a known block (SPEC 7.6) by its message or cause,
 * otherwise the error in the person's language (`errorText`). A queued message's last error is
 * only text: the marketplace's refusal (`remote_error`).
 */
export function failureText(i: I18n, error: { code: string; message: string; cause?: readonly unknown[] | undefined }): string {
  const text = `${error.message} ${(error.cause ?? []).map(String).join(' ')}`;
  const block = BLOCK_MESSAGES.find(([re]) => re.test(text));
  return block ? blockedText(i, block[1]) : errorText(error, i.language);
}

/** A queued message's last error (text only, the marketplace's refusal) as an error. */
export const queuedError = (lastError: string) => ({ code: 'remote_error', message: lastError });

export const isReason = (r: string | null | undefined): r is ModerationReason => !!r && (MODERATION_REASONS as readonly string[]).includes(r);

/** The sentence for a moderation reason (SPEC 2.8), or a plain "rejected" when the reason is unknown. */
export function reasonText(i: I18n, reason: string | null | undefined): string {
  return isReason(reason) ? i.t(`moderation.reason.${reason}`) : i.t('thread.rejectedUnknown');
}

export function warningText(i: I18n, reason: string, match: string): string {
  return isReason(reason) ? i.t(`moderation.warn.${reason}`, { match: match.length > 60 ? `${match.slice(0, 57)}…` : match }) : match;
}

/** An own message's moderation status in words, with an icon that is never the only signal. */
export function moderationStatus(i: I18n, status: string): { icon: string; text: string } {
  const icon = status === 'rejected' ? '✕' : status === 'pending' ? '◷' : '✓';
  return { icon, text: i.code('thread.status', status) };
}

/** A person's name from its parts, empty when none is known. */
const fullName = (first?: string | null, last?: string | null): string =>
  [first, last].filter((s): s is string => typeof s === 'string' && s.trim() !== '').join(' ');

/** The buyer as a person reads them: first and last name when the order has them, the nickname otherwise. */
export function buyerName(i: I18n, buyer: { id: number; nickname: string | null; firstName?: string | null; lastName?: string | null }): string {
  return fullName(buyer.firstName, buyer.lastName) || buyer.nickname || i.t('inbox.buyerUnknown', { id: String(buyer.id) });
}

/** The site (country) of a conversation or a brand by its name; an unknown site id as it is (`MLA` style ids are names of their own). */
export function siteName(siteId: string | null | undefined): string {
  return siteById(siteId)?.name ?? siteId ?? '';
}

export function ordersText(i: I18n, orderIds: readonly number[]): string {
  if (orderIds.length === 1) return i.t('inbox.order', { id: String(orderIds[0]) });
  return i.t('inbox.orders', { ids: i.formatList(orderIds.map(String)) });
}

/**
 * The message rules the server applies, for the composer's live checks: the same pure functions
 * (no Node API in them), so the counter, the highlighted characters and the moderation warnings
 * agree with what the marketplace answers on send.
 */
export {
  BUYER_MAX_MESSAGE_LENGTH,
  SELLER_MAX_MESSAGE_LENGTH,
  checkText,
  textLength,
  unsupportedCharacters,
  type TextProblem,
  type UnsupportedCharacter,
} from '../../common/messages/text-rules.js';
export { MODERATION_REASONS, findIssues, type Finding, type ModerationReason } from '../../common/messages/moderation/index.js';

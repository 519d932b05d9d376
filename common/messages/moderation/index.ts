/** Public API of the moderation engine (SPEC 2.8 moderation reasons). */
export type { Finding, ModerationContext, ModerationReason, Verdict } from './types.js';
export { MODERATION_REASONS } from './types.js';
export { findIssues, moderate, REASON_PRIORITY, RULES } from './engine.js';
export type { Rule } from './rule.js';
export { AUTOMATIC_MESSAGE_MIN_LENGTH, AUTOMATIC_MESSAGE_THRESHOLD, AUTOMATIC_MESSAGE_WINDOW_MS, normalizeForRepetition } from './automatic-message.js';

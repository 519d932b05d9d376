/**
 * Types of the moderation engine (SPEC 2.8: moderation reasons of a message).
 */

/** The seven moderation reasons of SPEC 2.8, listed once; the type is derived from the list. */
export const MODERATION_REASONS = [
  'OUT_OF_PLACE_LANGUAGE',
  'SOCIAL_NETWORK_LINK',
  'LINK_SHORT_URL',
  'AUTOMATIC_MESSAGE',
  'PERSONAL_DATA',
  'LINK_PAYMENT',
  'EVASION_CLAIM_SELLER',
] as const;

export type ModerationReason = (typeof MODERATION_REASONS)[number];

/** One thing a rule found in a text. */
export interface Finding {
  reason: ModerationReason;
  /** Identifier of the rule that matched, e.g. `personal.email`. */
  rule: string;
  /** The matched part of the original text (as the user wrote it). */
  match: string;
  /** UTF-16 index of `match` in the original text, for highlighting. */
  index: number;
  /** Plain-English explanation for a UI. */
  message: string;
}

export type Verdict = { status: 'clean'; findings: [] } | { status: 'rejected'; reason: ModerationReason; findings: Finding[] };

/** Facts about the text that the text alone cannot tell; computed by the caller (server). */
export interface ModerationContext {
  /**
   * How many identical texts (same `normalizeForRepetition` value) the same sender already sent
   * in OTHER packs within AUTOMATIC_MESSAGE_WINDOW_MS. Absent means unknown, treated as 0.
   */
  identicalTextsInOtherPacks?: number;
}

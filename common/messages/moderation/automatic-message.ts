/**
 * AUTOMATIC_MESSAGE: a text that the same sender already sent, identical, to many OTHER packs is
 * treated as sent by an integrator's automation rather than written for this buyer.
 *
 * The text alone cannot tell; the server counts the sender's earlier messages in other packs,
 * within AUTOMATIC_MESSAGE_WINDOW_MS, whose `normalizeForRepetition` value equals this text's, and
 * passes the count as `context.identicalTextsInOtherPacks`.
 *
 * Rejected when that count is >= AUTOMATIC_MESSAGE_THRESHOLD.
 * False positives avoided:
 * - repeats inside the SAME pack (a seller re-sending "¿Pudiste recibirlo?") never count;
 * - short stock phrases ("Gracias!", "Ya fue despachado") that a person naturally types to every
 *   buyer: texts whose normalized form is shorter than AUTOMATIC_MESSAGE_MIN_LENGTH are exempt.
 * Known gap: templates that differ per buyer (a name, an order number) are not identical and pass.
 */
import type { Rule } from './rule.js';
import type { Finding } from './types.js';

/** Identical texts already sent to other packs at which the next one is rejected. */
export const AUTOMATIC_MESSAGE_THRESHOLD = 5;
/** The window the server counts identical texts in: 24 hours. */
export const AUTOMATIC_MESSAGE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Normalized texts shorter than this (in code points) are never treated as automatic. */
export const AUTOMATIC_MESSAGE_MIN_LENGTH = 20;

/**
 * The form under which two texts count as identical: NFKC, lower case (case folding), every run
 * of whitespace collapsed to one space, trimmed. Accents and punctuation are kept. The server
 * stores this (or a hash of it) with each message.
 */
export function normalizeForRepetition(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

export const repeatedTextRule: Rule = {
  id: 'automatic.repeated-text',
  reason: 'AUTOMATIC_MESSAGE',
  message: 'The same text was already sent to many other buyers: automatic messages are rejected.',
  find(text, context): Finding[] {
    const count = context.identicalTextsInOtherPacks ?? 0;
    if (count < AUTOMATIC_MESSAGE_THRESHOLD) return [];
    if (Array.from(normalizeForRepetition(text.original)).length < AUTOMATIC_MESSAGE_MIN_LENGTH) return [];
    const { reason, id, message } = repeatedTextRule;
    return [{ reason, rule: id, match: text.original, index: 0, message }];
  },
};

export const automaticMessageRules: readonly Rule[] = [repeatedTextRule];

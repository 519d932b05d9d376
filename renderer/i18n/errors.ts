/**
 * A core error in the person's language: the one way the screens show `{ ok: false, error }`.
 *
 * The rule:
 * - English shows the core's own message as it is: it is written for people and is often more
 *   precise than any sentence per code ("The field 'text' is required").
 * - Spanish and Portuguese show the sentence of the code (`error.code`, a `select` on it: what
 *   happened and what to do). Where the code's message carries data the person needs (a field, a
 *   line, the marketplace's reason: DETAILED below, and any code the words do not know), that
 *   message follows the sentence in parentheses; otherwise it stays available as `detail` (for a
 *   `title` tooltip), never lost.
 * - An empty message shows the sentence in every language; an unknown code reads as words.
 */
import { type ErrorCode, isErrorCode } from '../../common/errors.js';
import type { Language } from '../../common/contract/contract.js';
import { translate, translateCode, useI18nStore } from './index.js';

/** An error as data (an ApiError), or anything with a code and a message (a code the words may not know). */
export interface ErrorLike {
  code: string;
  message: string;
}

/** What the screen says (`text`) and the core's message when `text` does not already show it. */
export interface ErrorWords {
  text: string;
  detail: string | undefined;
}

/**
 * Codes whose message names what the person must fix or read (a field, a line, a file, an id, the
 * marketplace's or the sign-in's reason): shown in every language after the sentence.
 */
const DETAILED: ReadonlySet<string> = new Set<ErrorCode>([
  'bad_request',
  'validation_error',
  'invalid_parameter',
  'not_found',
  'conflict',
  'forbidden',
  'remote_error',
  'pull_failed',
  'sign_in_failed',
  'fixtures',
  'invalid_request',
  'invalid_grant',
]);

/** The sentences' `select` option for a code: ICU options are words, so `body.invalid_…` becomes `body_invalid_…`. */
export const selectKeyOf = (code: string): string => code.replace(/[^A-Za-z0-9_]/g, '_');

/** The words of an error in the current language (or `language`): see the rule at the top of this file. */
export function errorWords(error: ErrorLike, language: Language = useI18nStore.getState().language): ErrorWords {
  const message = error.message.trim();
  // No code at all (never from the core, whose errors always carry one): the app's own "went wrong".
  const sentence = translateCode(language, 'error.code', selectKeyOf(error.code.trim() || 'internal_error'));
  if (message === '') return { text: sentence, detail: undefined };
  if (language === 'en') return { text: message, detail: undefined };
  // A code outside common/errors.ts has no sentence of its own: its message is all there is to say.
  if (DETAILED.has(error.code) || !isErrorCode(error.code)) {
    return { text: translate(language, 'error.withDetail', { text: sentence, detail: message }), detail: undefined };
  }
  return { text: sentence, detail: message };
}

/** An error as the person reads it, in the current language (or `language`); '' for no error. */
export function errorText(error: ErrorLike | null | undefined, language: Language = useI18nStore.getState().language): string {
  return error ? errorWords(error, language).text : '';
}

/** The core's message when `errorText` does not show it (Spanish, Portuguese): for a `title` or a "Details". */
export function errorDetail(error: ErrorLike | null | undefined, language: Language = useI18nStore.getState().language): string | undefined {
  return error ? errorWords(error, language).detail : undefined;
}

/**
 * The code of an error known only by its HTTP status (a failed edit of the outbox: status and the
 * marketplace's message), so it reads as the same words; no status is the marketplace's refusal.
 */
export function codeOfStatus(status: number | null | undefined): ErrorCode {
  if (status === null || status === undefined) return 'remote_error';
  if (status === 400) return 'bad_request';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'payload_too_large';
  if (status === 422) return 'validation_error';
  if (status === 429) return 'too_many_requests';
  if (status >= 500) return 'server_error';
  return 'remote_error';
}

/** An error known by its status and message alone (a cell's failed edit) as an error with a code. */
export const errorOfStatus = (e: { status: number | null; message: string }): ErrorLike => ({ code: codeOfStatus(e.status), message: e.message });

/**
 * Text rules of a post-sale message (SPEC 4.11, 7.6, 8): which characters may be sent and how
 * long a text may be. Pure functions shared by the server (send validation) and the desktop
 * composer (live highlighting of refused characters and a character counter).
 *
 * Allowed characters
 * - ISO-8859-1 (U+0000-U+00FF) minus control characters: C0 controls (U+0000-U+001F) are refused
 *   except TAB, LF and CR; DEL (U+007F) and the C1 block (U+0080-U+009F) are refused (invisible,
 *   and in practice mojibake from Windows-1252, e.g. U+0092 standing for a right quote).
 *   NBSP (U+00A0) and the soft hyphen (U+00AD) are graphic ISO-8859-1 characters and are allowed.
 * - Plus the emoticons of EMOTICON_ALLOW_LIST, checked per grapheme cluster (what a user sees as
 *   one character):
 *   - the emoji variation selector U+FE0F (and the text one, U+FE0E) is optional everywhere in an
 *     allowed emoticon: "❤" and "❤️" are both accepted, whatever the keyboard sent;
 *   - a skin-tone modifier (U+1F3FB-U+1F3FF) is accepted right after a code point marked as
 *     modifiable (hands and the shrugging person); a skin tone does not change the meaning and
 *     phone keyboards add it silently. A lone modifier, or one after any other emoji, is refused;
 *   - a ZWJ sequence (e.g. 🤷‍♀️, 👨‍💻) is accepted only when the whole sequence is on the list;
 *     its parts being allowed on their own is not enough;
 *   - flags, keycaps (1️⃣) and Latin-1 symbols in emoji presentation ("©️") are not on the list.
 * - No normalization happens here: the text is checked as given. A decomposed "é" (e + U+0301)
 *   is refused; the composer should send NFC text (what keyboards and browsers produce).
 *   Typographic punctuation outside Latin-1 (’ “ ” – … •) is refused too, as the spec demands.
 *
 * Length (textLength): ISO-8859-1 characters count one each (CR LF counts two, as it is two bytes
 * in ISO-8859-1); an allowed emoticon counts one, whatever its code points (variation selector,
 * skin tone, ZWJ parts); any other character counts one per code point. So one emoji is one
 * character, and a surrogate pair is never counted twice.
 *
 * checkText order: empty (or whitespace only) → unsupported characters → too long.
 */

export const SELLER_MAX_MESSAGE_LENGTH = 350;
export const BUYER_MAX_MESSAGE_LENGTH = 3500;

export type SenderRole = 'seller' | 'buyer';

export interface UnsupportedCharacter {
  /** UTF-16 index of the first code unit of the refused grapheme cluster in the text. */
  index: number;
  /** The refused grapheme cluster, as found in the text. */
  char: string;
  /** Its code points, e.g. "U+2019" or "U+1F468 U+200D U+1F4BB". */
  codePoint: string;
}

export type TextProblem =
  | { code: 'empty'; message: string }
  | { code: 'unsupported_characters'; message: string; characters: UnsupportedCharacter[] }
  | { code: 'too_long'; message: string; max: number; length: number };

/** SPEC 7.6, byte for byte. */
export const UNSUPPORTED_CHARACTERS_MESSAGE = 'The text has character/s that is/are not supported.';
export const tooLongMessage = (max: number) => `The message content is too long, max characters allowed are ${max}`;
/** Not given by the spec (it only says the text is required); worded like the spec's field errors. */
export const EMPTY_TEXT_MESSAGE = "The field 'text' is required";

interface Emoticon {
  /** The emoticon as offered by a picker (with U+FE0F where it is usually written). */
  readonly emoji: string;
  readonly name: string;
  /** Accepts a skin-tone modifier after its base code point. */
  readonly modifiable?: true;
}

/**
 * Emoticons sellers commonly use in post-sale messages: friendly faces, a few sad/doubtful faces
 * to acknowledge a problem, hands (thanks, OK, greeting), confirmations, and shipping/gift symbols.
 * Deliberately absent: flags, alcohol, weapons, money bags, phones and envelopes (they invite
 * off-platform contact or payment), and anything that reads as rude.
 */
const EMOTICONS: readonly Emoticon[] = [
  { emoji: '🙂', name: 'slightly smiling face' },
  { emoji: '😀', name: 'grinning face' },
  { emoji: '😃', name: 'grinning face with big eyes' },
  { emoji: '😄', name: 'grinning face with smiling eyes' },
  { emoji: '😁', name: 'beaming face' },
  { emoji: '😅', name: 'grinning face with sweat' },
  { emoji: '😂', name: 'face with tears of joy' },
  { emoji: '😉', name: 'winking face' },
  { emoji: '😊', name: 'smiling face with smiling eyes' },
  { emoji: '😇', name: 'smiling face with halo' },
  { emoji: '😍', name: 'smiling face with heart-eyes' },
  { emoji: '😘', name: 'face blowing a kiss' },
  { emoji: '😎', name: 'smiling face with sunglasses' },
  { emoji: '🤗', name: 'hugging face' },
  { emoji: '🤔', name: 'thinking face' },
  { emoji: '😐', name: 'neutral face' },
  { emoji: '😕', name: 'confused face' },
  { emoji: '🙁', name: 'slightly frowning face' },
  { emoji: '☹️', name: 'frowning face' },
  { emoji: '😢', name: 'crying face' },
  { emoji: '😞', name: 'disappointed face' },
  { emoji: '😔', name: 'pensive face' },
  { emoji: '😮', name: 'face with open mouth' },
  { emoji: '👍', name: 'thumbs up', modifiable: true },
  { emoji: '👎', name: 'thumbs down', modifiable: true },
  { emoji: '👋', name: 'waving hand', modifiable: true },
  { emoji: '🙏', name: 'folded hands', modifiable: true },
  { emoji: '👌', name: 'OK hand', modifiable: true },
  { emoji: '👏', name: 'clapping hands', modifiable: true },
  { emoji: '🙌', name: 'raising hands', modifiable: true },
  { emoji: '✌️', name: 'victory hand', modifiable: true },
  { emoji: '💪', name: 'flexed biceps', modifiable: true },
  { emoji: '🤝', name: 'handshake', modifiable: true },
  { emoji: '🤷', name: 'person shrugging', modifiable: true },
  { emoji: '🤷‍♀️', name: 'woman shrugging', modifiable: true },
  { emoji: '🤷‍♂️', name: 'man shrugging', modifiable: true },
  { emoji: '❤️', name: 'red heart' },
  { emoji: '💙', name: 'blue heart' },
  { emoji: '💚', name: 'green heart' },
  { emoji: '💛', name: 'yellow heart' },
  { emoji: '✅', name: 'check mark button' },
  { emoji: '✔️', name: 'check mark' },
  { emoji: '❌', name: 'cross mark' },
  { emoji: '⚠️', name: 'warning' },
  { emoji: '📦', name: 'package' },
  { emoji: '🚚', name: 'delivery truck' },
  { emoji: '⭐', name: 'star' },
  { emoji: '🌟', name: 'glowing star' },
  { emoji: '🎁', name: 'wrapped gift' },
  { emoji: '🎉', name: 'party popper' },
  { emoji: '🔥', name: 'fire' },
  { emoji: '💯', name: 'hundred points' },
];

/** The permitted emoticons beyond ISO-8859-1, in picker order (see EMOTICONS for the policy). */
export const EMOTICON_ALLOW_LIST: readonly string[] = Object.freeze(EMOTICONS.map((e) => e.emoji));

const VARIATION_SELECTORS = /[\uFE0E\uFE0F]/gu;
const isSkinTone = (cp: number) => cp >= 0x1f3fb && cp <= 0x1f3ff;

const stripSelectors = (s: string) => s.replace(VARIATION_SELECTORS, '');

/** Allowed emoticons keyed by their form without variation selectors. */
const ALLOWED_KEYS: ReadonlySet<string> = new Set(EMOTICONS.map((e) => stripSelectors(e.emoji)));
/** Code points after which a skin-tone modifier is accepted. */
const MODIFIABLE_BASES: ReadonlySet<number> = new Set(EMOTICONS.filter((e) => e.modifiable).map((e) => e.emoji.codePointAt(0) ?? 0));

/** TAB, LF, CR, printable ASCII and U+00A0-U+00FF. */
const LATIN1_ALLOWED_CHAR = /^[\t\n\r\x20-\x7E\xA0-\xFF]$/u;
const ALL_LATIN1_ALLOWED = /^[\t\n\r\x20-\x7E\xA0-\xFF]*$/u;

export function isAllowedLatin1(char: string): boolean {
  return LATIN1_ALLOWED_CHAR.test(char);
}

/** The key of a grapheme cluster in ALLOWED_KEYS: variation selectors and permitted skin tones removed. */
function emoticonKey(cluster: string): string {
  let key = '';
  let previous = -1;
  for (const ch of stripSelectors(cluster)) {
    const cp = ch.codePointAt(0) ?? 0;
    if (isSkinTone(cp) && MODIFIABLE_BASES.has(previous)) continue;
    key += ch;
    previous = cp;
  }
  return key;
}

/** Whether a grapheme cluster is one of the permitted emoticons (with optional selector / skin tone). */
export function isAllowedEmoticon(cluster: string): boolean {
  const key = emoticonKey(cluster);
  return key !== '' && ALLOWED_KEYS.has(key);
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

const describe = (cluster: string) => Array.from(cluster, (ch) => `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');

type ClusterKind = 'latin1' | 'emoticon' | 'unsupported';

function classify(cluster: string): ClusterKind {
  if (ALL_LATIN1_ALLOWED.test(cluster)) return 'latin1';
  return isAllowedEmoticon(cluster) ? 'emoticon' : 'unsupported';
}

/**
 * Every grapheme cluster that is neither allowed ISO-8859-1 text nor a permitted emoticon, in text
 * order. A cluster is reported whole (a refused ZWJ sequence is one entry, at its first index).
 */
export function unsupportedCharacters(text: string): UnsupportedCharacter[] {
  if (ALL_LATIN1_ALLOWED.test(text)) return [];
  const found: UnsupportedCharacter[] = [];
  for (const { segment, index } of graphemes.segment(text)) {
    if (classify(segment) === 'unsupported') found.push({ index, char: segment, codePoint: describe(segment) });
  }
  return found;
}

/** Length counted against the limits: Latin-1 characters one each, an allowed emoticon one, anything else per code point. */
export function textLength(text: string): number {
  if (ALL_LATIN1_ALLOWED.test(text)) return text.length;
  let length = 0;
  for (const { segment } of graphemes.segment(text)) {
    const kind = classify(segment);
    if (kind === 'emoticon') length += 1;
    else if (kind === 'latin1') length += segment.length;
    else length += Array.from(segment).length;
  }
  return length;
}

export function maxMessageLength(role: SenderRole): number {
  return role === 'seller' ? SELLER_MAX_MESSAGE_LENGTH : BUYER_MAX_MESSAGE_LENGTH;
}

/** The first problem of a text, in the order empty → unsupported characters → too long; null when sendable. */
export function checkText(text: string, role: SenderRole): TextProblem | null {
  if (text.trim() === '') return { code: 'empty', message: EMPTY_TEXT_MESSAGE };
  const characters = unsupportedCharacters(text);
  if (characters.length > 0) {
    return { code: 'unsupported_characters', message: UNSUPPORTED_CHARACTERS_MESSAGE, characters };
  }
  const max = maxMessageLength(role);
  const length = textLength(text);
  if (length > max) return { code: 'too_long', message: tooLongMessage(max), max, length };
  return null;
}

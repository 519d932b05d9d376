/**
 * `normalized_name` of an official store (SPEC 2.7): the name without accents, umlauts, double
 * spaces and similar. Case and punctuation are kept. Derived from Unicode data only, with no
 * hand-made table of letters:
 *
 * 1. NFKD: compatibility decomposition splits accented letters into base letter + combining mark
 *    (é → e + ◌́, Ñ → N + ◌̃, ü → u + ◌̈) and folds compatibility forms (ligature ﬁ → fi, full-width
 *    Ａ → A, no-break space → space).
 * 2. Remove every combining mark (`\p{M}`).
 * 3. Letters that carry their diacritic inside the code point, so NFKD leaves them alone (ß, ø, æ,
 *    œ, ł, đ, ð, ħ), are folded with the Unicode Collation Algorithm (root collation through ICU's
 *    `Intl.Collator`, primary strength): such a letter becomes the ASCII letter or letter pair the
 *    collation treats as the same base letters (ß → ss, ø → o, æ → ae, ł → l). Uppercase letters
 *    give uppercase (Ø → O, Æ → AE, ẞ → SS). Letters the collation treats as letters of their own
 *    (þ, ŋ, ı, and non-Latin scripts such as Cyrillic or CJK) are kept unchanged.
 * 4. Remove invisible format characters (`\p{Cf}`: zero-width space, soft hyphen, ...), turn any run
 *    of whitespace or control characters into one space, trim.
 * 5. NFC, so what is left (Hangul syllables split by step 1, for instance) is recomposed.
 *
 * The fold of step 3 is looked up by binary search over the collation order of a..z and aa..zz,
 * and cached per character, so it costs a few comparisons the first time a letter is seen.
 */

// Root collation ('en' resolves to it; 'und' would fall back to the machine's locale, and a Danish
// locale, for one, sorts ø as a letter of its own).
const collator = new Intl.Collator('en', { sensitivity: 'base', usage: 'search' });

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const CANDIDATES: string[] = (() => {
  const list: string[] = [...LETTERS];
  for (const a of LETTERS) for (const b of LETTERS) list.push(a + b);
  return list.sort((x, y) => collator.compare(x, y));
})();

const MAX_CACHE = 4096;
const foldCache = new Map<string, string>();

/** The ASCII letters one letter folds to, or the letter itself when the collation gives none. */
function foldLetter(ch: string): string {
  const cached = foldCache.get(ch);
  if (cached !== undefined) return cached;
  let lo = 0;
  let hi = CANDIDATES.length - 1;
  let found: string | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const candidate = CANDIDATES[mid]!;
    const order = collator.compare(ch, candidate);
    if (order === 0) {
      found = candidate;
      break;
    }
    if (order < 0) hi = mid - 1;
    else lo = mid + 1;
  }
  const upper = ch !== ch.toLowerCase();
  const folded = found === undefined ? ch : upper ? found.toUpperCase() : found;
  if (foldCache.size < MAX_CACHE) foldCache.set(ch, folded);
  return folded;
}

/** A letter outside ASCII that survived NFKD + mark removal. */
const NON_ASCII_LETTER = /[^\p{ASCII}]/u;
const LETTER = /\p{L}/u;

export function normalizeName(name: string): string {
  const stripped = name.normalize('NFKD').replace(/\p{M}+/gu, '');
  let folded = '';
  for (const ch of stripped) {
    folded += NON_ASCII_LETTER.test(ch) && LETTER.test(ch) ? foldLetter(ch) : ch;
  }
  return folded
    .replace(/\p{Cf}+/gu, '')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim()
    .normalize('NFC');
}

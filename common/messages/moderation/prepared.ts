/**
 * Text normalization before matching. Rules match against a normalized VIEW of the text and report
 * positions in the ORIGINAL text, so every code unit of a view remembers the grapheme cluster of
 * the original it came from.
 *
 * Views (built per grapheme cluster, so a decomposed "n + U+0303" is handled like "ñ"):
 * - `lower`: NFKC (fullwidth "ｂｉｔ．ｌｙ" → "bit.ly", "ﬁ" → "fi") + lower case, with default-ignorable
 *   code points removed (soft hyphen, zero-width space/joiner, variation selectors, bidi marks),
 *   so "mier\u00ADda" or "bit\u200B.ly" cannot slip through.
 * - `folded`: `lower` without diacritics ("teléfono" → "telefono", "reclamação" → "reclamacao"),
 *   except that "ñ" is kept: in Spanish it is a letter of its own ("coño" is not "cono", "año" is
 *   not "ano"). Rules match `folded` unless they say otherwise, so accents never matter.
 */

export type View = 'lower' | 'folded';

export interface PreparedText {
  readonly original: string;
  readonly lower: string;
  readonly folded: string;
  /** For each view, for each code unit: [start, end) of its grapheme cluster in `original`. */
  readonly origin: Readonly<Record<View, { readonly starts: readonly number[]; readonly ends: readonly number[] }>>;
}

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const MARKS = /\p{M}/gu;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Removes diacritics except the tilde of ñ. Input is already lower case. */
export function foldAccents(s: string): string {
  const nfd = s.normalize('NFD');
  return nfd.replace(MARKS, (mark: string, offset: number) => (mark === '\u0303' && nfd[offset - 1] === 'n' ? mark : '')).normalize('NFC');
}

export function prepare(text: string): PreparedText {
  let lower = '';
  let folded = '';
  const lowerStarts: number[] = [];
  const lowerEnds: number[] = [];
  const foldedStarts: number[] = [];
  const foldedEnds: number[] = [];
  for (const { segment, index } of graphemes.segment(text)) {
    const end = index + segment.length;
    const l = segment.normalize('NFKC').toLowerCase().replace(IGNORABLE, '');
    const f = foldAccents(l);
    lower += l;
    folded += f;
    for (let i = 0; i < l.length; i++) {
      lowerStarts.push(index);
      lowerEnds.push(end);
    }
    for (let i = 0; i < f.length; i++) {
      foldedStarts.push(index);
      foldedEnds.push(end);
    }
  }
  return {
    original: text,
    lower,
    folded,
    origin: {
      lower: { starts: lowerStarts, ends: lowerEnds },
      folded: { starts: foldedStarts, ends: foldedEnds },
    },
  };
}

/** Maps [start, end) of a view back to the original text. */
export function locate(text: PreparedText, view: View, start: number, end: number): { index: number; match: string } {
  const { starts, ends } = text.origin[view];
  const index = starts[start] ?? text.original.length;
  const last = end > start ? ends[end - 1] : undefined;
  const stop = last ?? index;
  return { index, match: text.original.slice(index, stop) };
}

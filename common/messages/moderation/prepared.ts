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
 *
 * `prepareByGraphemes` is the definition; `prepare` gives the same result many times faster (the
 * segmenter runs only where clusters are not known in advance, its results are cached, and
 * `origin` is built only when a rule reports a finding).
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

/** The views of one grapheme cluster: the definition every path of `prepare` follows. */
interface ClusterViews {
  readonly lower: string;
  readonly folded: string;
}

function clusterViews(segment: string): ClusterViews {
  const lower = segment.normalize('NFKC').toLowerCase().replace(IGNORABLE, '');
  return { lower, folded: foldAccents(lower) };
}

type Origin = PreparedText['origin'];

/** Longest argument list given to String.fromCharCode at once. */
const CHUNK = 4096;

/** A string built from code units: fromCharCode gives a flat string (+= would give a rope to flatten). */
class UnitsBuffer {
  private readonly units: number[] = [];

  append(s: string): void {
    for (let i = 0; i < s.length; i++) this.units.push(s.charCodeAt(i));
  }

  toString(): string {
    const units = this.units;
    if (units.length <= CHUNK) return String.fromCharCode.apply(null, units);
    let out = '';
    for (let i = 0; i < units.length; i += CHUNK) out += String.fromCharCode.apply(null, units.slice(i, i + CHUNK));
    return out;
  }
}

/** Collects the views cluster by cluster, or (with `origin`) for each code unit of a view its cluster in the original. */
class ViewsBuilder {
  private readonly lower: UnitsBuffer | undefined;
  private readonly folded: UnitsBuffer | undefined;
  private readonly lowerStarts: number[] = [];
  private readonly lowerEnds: number[] = [];
  private readonly foldedStarts: number[] = [];
  private readonly foldedEnds: number[] = [];

  constructor(private readonly withOrigin: boolean) {
    this.lower = withOrigin ? undefined : new UnitsBuffer();
    this.folded = withOrigin ? undefined : new UnitsBuffer();
  }

  add(start: number, end: number, views: ClusterViews): void {
    const { lower, folded } = views;
    if (!this.withOrigin) {
      this.lower?.append(lower);
      this.folded?.append(folded);
      return;
    }
    for (let i = 0; i < lower.length; i++) {
      this.lowerStarts.push(start);
      this.lowerEnds.push(end);
    }
    for (let i = 0; i < folded.length; i++) {
      this.foldedStarts.push(start);
      this.foldedEnds.push(end);
    }
  }

  views(): { lower: string; folded: string } {
    return { lower: this.lower?.toString() ?? '', folded: this.folded?.toString() ?? '' };
  }

  origin(): Origin {
    return {
      lower: { starts: this.lowerStarts, ends: this.lowerEnds },
      folded: { starts: this.foldedStarts, ends: this.foldedEnds },
    };
  }
}

/**
 * The definition of `prepare`: Intl.Segmenter over the whole text, every cluster normalized on its
 * own. Slow (the segmenter alone costs about a microsecond per character); kept as the reference
 * that tests compare `prepare` with.
 */
export function prepareByGraphemes(text: string): PreparedText {
  const strings = new ViewsBuilder(false);
  const origin = new ViewsBuilder(true);
  for (const { segment, index } of graphemes.segment(text)) {
    const views = clusterViews(segment);
    strings.add(index, index + segment.length, views);
    origin.add(index, index + segment.length, views);
  }
  return { original: text, ...strings.views(), origin: origin.origin() };
}

const CR = 0x0d;
const LF = 0x0a;

/**
 * "Simple" code units: U+0000-U+02FF (ASCII, Latin-1, Latin Extended, IPA, spacing modifiers)
 * except CR; U+2000-U+20CF (general punctuation, super/subscripts, currency signs) except ZWNJ
 * and ZWJ; U+2100-U+214F (letterlike symbols). None is a surrogate, Extend, ZWJ, SpacingMark,
 * Prepend, Regional_Indicator or Hangul jamo, so by UAX #29 (GB3-GB999) there is a grapheme
 * boundary between any two consecutive simple code units whatever surrounds them, and the rules
 * that look further left (GB9c, GB11, GB12/13) never look past one. A test checks every ordered
 * pair against Intl.Segmenter.
 */
export const isSimple = (c: number): boolean =>
  c < 0x300 ? c !== CR : c >= 0x2000 && c < 0x2150 && c !== 0x200c && c !== 0x200d && (c < 0x20d0 || c >= 0x2100);

/** Views of each simple code unit as a cluster of its own, filled on first use. */
const simpleViews = new Array<ClusterViews | undefined>(0x300 + 0x150).fill(undefined);
function simpleCluster(c: number): ClusterViews {
  const slot = c < 0x300 ? c : c - 0x2000 + 0x300;
  let views = simpleViews[slot];
  if (views === undefined) {
    views = clusterViews(String.fromCharCode(c));
    simpleViews[slot] = views;
  }
  return views;
}

const CR_VIEWS = clusterViews('\r');
const CRLF_VIEWS = clusterViews('\r\n');

interface Cluster {
  readonly index: number;
  readonly length: number;
  readonly views: ClusterViews;
}

/**
 * The clusters of the stretches that go through the segmenter (around emoji, decomposed accents,
 * fullwidth letters...), kept while few and short: the same ones come back message after message.
 */
const stretchCache = new Map<string, readonly Cluster[]>();
const STRETCH_CACHE_SIZE = 1024;
const STRETCH_CACHE_KEY_LENGTH = 32;

function clustersOf(stretch: string): readonly Cluster[] {
  let clusters = stretchCache.get(stretch);
  if (clusters === undefined) {
    clusters = Array.from(graphemes.segment(stretch), ({ segment, index }) => ({ index, length: segment.length, views: clusterViews(segment) }));
    if (stretch.length <= STRETCH_CACHE_KEY_LENGTH) {
      if (stretchCache.size >= STRETCH_CACHE_SIZE) stretchCache.clear();
      stretchCache.set(stretch, clusters);
    }
  }
  return clusters;
}

/**
 * Adds every cluster of `text` to `out`, in order, as `prepareByGraphemes` finds them, without the
 * segmenter where the clusters are known: a simple code unit followed by a simple one (or by CR,
 * or at the end) is a cluster of its own, and so is CR or CR LF (GB3-GB5: boundaries on both sides
 * of CR, CR LF and LF). Only the stretches between such known boundaries go through the segmenter;
 * a stretch starts and ends at a boundary and no rule looks left past a simple code unit, CR or
 * LF, so splitting it alone gives the clusters that splitting the whole text gives.
 */
function addClusters(text: string, out: ViewsBuilder): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === CR) {
      const crlf = i + 1 < n && text.charCodeAt(i + 1) === LF;
      out.add(i, crlf ? i + 2 : i + 1, crlf ? CRLF_VIEWS : CR_VIEWS);
      i += crlf ? 2 : 1;
      continue;
    }
    if (isSimple(c)) {
      const next = i + 1 < n ? text.charCodeAt(i + 1) : CR;
      if (next === CR || isSimple(next)) {
        out.add(i, i + 1, simpleCluster(c));
        i++;
        continue;
      }
    }
    let j = i + 1;
    while (j < n) {
      const d = text.charCodeAt(j);
      if (d === CR || (isSimple(d) && isSimple(text.charCodeAt(j - 1)))) break;
      j++;
    }
    for (const { index, length, views } of clustersOf(text.slice(i, j))) out.add(i + index, i + index + length, views);
    i = j;
  }
}

/** The views of a text (equal to `prepareByGraphemes(text)`); `origin` is built on first use. */
export function prepare(text: string): PreparedText {
  const strings = new ViewsBuilder(false);
  addClusters(text, strings);
  const { lower, folded } = strings.views();
  let origin: Origin | undefined;
  return {
    original: text,
    lower,
    folded,
    get origin(): Origin {
      if (origin === undefined) {
        const builder = new ViewsBuilder(true);
        addClusters(text, builder);
        origin = builder.origin();
      }
      return origin;
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

/**
 * OUT_OF_PLACE_LANGUAGE: insults, slurs and vulgar words, in Spanish (Argentine usage first),
 * Portuguese (Brazilian) and English.
 *
 * Matching
 * - whole words only, on the `folded` view: lower case, accents removed ("imbécil" = "imbecil"),
 *   but "ñ" kept ("coño" is listed, "cono" — a cone — is not); several-word entries ("hijo de
 *   puta", "vai se foder", "son of a bitch") match consecutive words;
 * - common disguises: digits and signs for letters inside a word that has letters ("m1erda",
 *   "$h1t": 0→o 1→i 3→e 4→a 5→s 7→t @→a $→s), stretched letters ("mierdaaa", "fuuuck": runs of a
 *   letter collapse), and asterisk masks of the same length ("p*ta", "f**k", "m**rda").
 *
 * False positives avoided
 * - substrings of innocent words never match: "computadora", "disputa", "reputación", "diputado",
 *   "Scunthorpe", "análisis", "assistant", "class", "cocktail", "Dickens", "shiitake", "Essex";
 * - words with an innocent main meaning in this market are left out: "forro" (a cover/lining,
 *   "forro para celular"), "concha" (a shell; a surname) — only "concha de tu madre" is listed —,
 *   "veado" (deer), "piranha", "cacete", "gonorrea", "prick", "damn", "crap", "estúpido"/"stupid"
 *   ("un error estúpido"), "tarado";
 * - "cu" alone is not listed (copper, "Cu", in product descriptions; "c/u" = cada uno), only
 *   "vai tomar no cu" and "cuzão"; "moron" is not listed (Morón, a Buenos Aires district, is
 *   often written without its accent), nor "dick" ("Moby Dick"), only "dickhead".
 * Known false positives: titles that contain a listed word ("El idiota" by Dostoievski).
 */
import type { PreparedText } from './prepared.js';
import { finding, type Rule } from './rule.js';
import type { Finding, ModerationReason } from './types.js';

const REASON: ModerationReason = 'OUT_OF_PLACE_LANGUAGE';

/** `stem` + each ending: inflect('bolud', ['o', 'a']) = ['boludo', 'boluda']. */
const inflect = (stem: string, endings: readonly string[]) => endings.map((e) => stem + e);
const GENDER_NUMBER = ['o', 'a', 'os', 'as'];

/** Spanish (folded: no accents, ñ kept). */
export const SPANISH_WORDS: readonly string[] = [
  'puta',
  'putas',
  'puto',
  'putos',
  'putita',
  'putito',
  'puton',
  'hijo de puta',
  'hija de puta',
  'hijos de puta',
  'hdp',
  'la puta madre',
  'puta madre',
  'ptm',
  'mierda',
  'mierdas',
  'mierdoso',
  'mierdosa',
  'carajo',
  ...inflect('bolud', GENDER_NUMBER),
  ...inflect('pelotud', GENDER_NUMBER),
  'pelotudez',
  ...inflect('pendej', GENDER_NUMBER),
  'cabron',
  'cabrona',
  'cabrones',
  'gilipollas',
  'imbecil',
  'imbeciles',
  'idiota',
  'idiotas',
  ...inflect('mogolic', GENDER_NUMBER),
  'culiado',
  'culiada',
  'culiao',
  'culeado',
  'culeada',
  ...inflect('conchud', GENDER_NUMBER),
  'concha de tu madre',
  'concha tu madre',
  'chupala',
  'chupame',
  'chupamela',
  ...inflect('pajer', GENDER_NUMBER),
  'verga',
  'vergas',
  'pija',
  'pijas',
  'orto',
  'culo',
  'joder',
  'jodete',
  'coño',
  'marica',
  'maricon',
  'maricones',
  'trolo',
  'trola',
  'malparido',
  'malparida',
  'ctm',
  'la concha de tu madre',
];

/** Portuguese (folded). */
export const PORTUGUESE_WORDS: readonly string[] = [
  'porra',
  'caralho',
  'caraio',
  'krl',
  'crl',
  'merda',
  'merdas',
  'foda',
  'fodase',
  'foda se',
  'foder',
  'fodido',
  'fodida',
  'fudido',
  'fudida',
  'puta',
  'puto',
  'putaria',
  'filho da puta',
  'filha da puta',
  'fdp',
  'pqp',
  'puta que pariu',
  'vsf',
  'vai se foder',
  'vai se fuder',
  'vai tomar no cu',
  'cuzao',
  'arrombado',
  'arrombada',
  'babaca',
  'otario',
  'otaria',
  'imbecil',
  'idiota',
  'buceta',
  'boceta',
  'viado',
  'desgracado',
  'desgracada',
  'corno',
  'escroto',
  'bosta',
  'punheta',
  'retardado',
  'retardada',
  'vagabunda',
];

/** English. */
export const ENGLISH_WORDS: readonly string[] = [
  'fuck',
  'fucks',
  'fucked',
  'fucking',
  'fuckin',
  'fucker',
  'fuckers',
  'motherfucker',
  'motherfuckers',
  'fck',
  'fuk',
  'fuking',
  'wtf',
  'stfu',
  'shit',
  'shits',
  'shitty',
  'bullshit',
  'bitch',
  'bitches',
  'son of a bitch',
  'bastard',
  'bastards',
  'asshole',
  'assholes',
  'dickhead',
  'cunt',
  'cunts',
  'idiot',
  'idiots',
  'retard',
  'retarded',
  'whore',
  'whores',
  'slut',
  'sluts',
  'piss off',
  'screw you',
  'dumbass',
  'jackass',
];

interface Token {
  /** Candidate spellings of the word (as written, undisguised, de-stretched). */
  readonly forms: readonly string[];
  readonly start: number;
  readonly end: number;
  /**
   * Whether a form is a word or a phrase's first word of some list, or has an asterisk (a mask):
   * a token that is not a candidate is no listed word and starts no listed phrase.
   */
  readonly candidate: boolean;
}

const LEET: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
const TOKEN = /[\p{L}\p{N}@$*]+/gu;

/** The definition of a token's forms; `forms` takes a shortcut for most words. */
export function formsByRules(raw: string): string[] {
  const word = raw.replace(/^\*+|\*+$/g, '');
  const out = new Set<string>([word]);
  const hasLetter = /\p{L}/u.test(word);
  const undisguised = hasLetter && /[\d@$]/.test(word) ? word.replace(/[013457@$]/g, (c) => LEET[c] ?? c) : word;
  out.add(undisguised);
  out.add(undisguised.replace(/(\p{L})\1{2,}/gu, '$1'));
  out.add(undisguised.replace(/(\p{L})\1+/gu, '$1'));
  return [...out].filter((f) => f !== '');
}

/**
 * Whether `formsByRules(raw)` is just `[raw]`: only a-z and 0-9, not letters and digits together
 * (no disguise to undo), and no letter twice in a row (nothing stretched). Most words are.
 */
function isPlainWord(raw: string): boolean {
  let letters = false;
  let digits = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) {
      if (c === raw.charCodeAt(i - 1)) return false;
      letters = true;
    } else if (c >= 0x30 && c <= 0x39) digits = true;
    else return false;
  }
  return !(letters && digits);
}

/** formsByRules of recent tokens that are not plain words ("señor", "llegara"), kept while few and short. */
const formsCache = new Map<string, readonly string[]>();
const FORMS_CACHE_SIZE = 4096;
const FORMS_CACHE_KEY_LENGTH = 32;

export function forms(raw: string): readonly string[] {
  if (isPlainWord(raw)) return [raw];
  let found = formsCache.get(raw);
  if (found === undefined) {
    found = formsByRules(raw);
    if (raw.length <= FORMS_CACHE_KEY_LENGTH) {
      if (formsCache.size >= FORMS_CACHE_SIZE) formsCache.clear();
      formsCache.set(raw, found);
    }
  }
  return found;
}

/** The last text tokenized and its tokens: the three word-list rules run one after the other on the same text. */
let lastText: PreparedText | undefined;
let lastTokens: readonly Token[] = [];

function tokenize(text: PreparedText): readonly Token[] {
  if (text !== lastText) {
    const tokens: Token[] = [];
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(text.folded); m !== null; m = TOKEN.exec(text.folded)) {
      const raw = m[0];
      const tokenForms = forms(raw);
      tokens.push({ forms: tokenForms, start: m.index, end: m.index + raw.length, candidate: tokenForms.some(mayBeListed) });
    }
    lastText = text;
    lastTokens = tokens;
  }
  return lastTokens;
}

/** Asterisk mask ("p*ta") against a listed word of the same length. */
function maskMatches(form: string, word: string): boolean {
  if (!form.includes('*') || form.length !== word.length) return false;
  const letters = form.replace(/\*/g, '').length;
  if (letters < 2 || letters * 2 < form.length) return false;
  return Array.from(form).every((c, i) => c === '*' || c === word[i]);
}

class WordList {
  private readonly single: ReadonlySet<string>;
  private readonly singleList: readonly string[];
  private readonly phrases: readonly (readonly string[])[];
  /** First words of the phrases: a token without one of them (or a mask) starts none. */
  private readonly phraseStarts: ReadonlySet<string>;

  constructor(words: readonly string[]) {
    this.singleList = words.filter((w) => !w.includes(' '));
    this.single = new Set(this.singleList);
    this.phrases = words
      .filter((w) => w.includes(' '))
      .map((w) => w.split(' '))
      .sort((a, b) => b.length - a.length);
    this.phraseStarts = new Set(this.phrases.map((p) => p[0] as string));
  }

  private matchesWord(token: Token, word: string): boolean {
    return token.forms.some((f) => f === word || maskMatches(f, word));
  }

  private isListed(token: Token): boolean {
    return token.forms.some((f) => this.single.has(f) || (f.includes('*') && this.singleList.some((w) => maskMatches(f, w))));
  }

  /** Single words and first words of phrases: what a token must be (unless masked) to start a match. */
  starts(): string[] {
    return [...this.singleList, ...this.phraseStarts];
  }

  /** [start token, end token) of every listed word or phrase, phrases first at each position. */
  find(tokens: readonly Token[]): [number, number][] {
    const spans: [number, number][] = [];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i] as Token;
      if (!token.candidate) continue;
      const mayStartPhrase = token.forms.some((f) => this.phraseStarts.has(f) || f.includes('*'));
      const phrase =
        mayStartPhrase &&
        this.phrases.find((p) =>
          p.every((w, k) => {
            const next = tokens[i + k];
            return next !== undefined && this.matchesWord(next, w);
          }),
        );
      if (phrase) spans.push([i, i + phrase.length]);
      else if (this.isListed(token)) spans.push([i, i + 1]);
    }
    return spans;
  }
}

const SPANISH = new WordList(SPANISH_WORDS);
const PORTUGUESE = new WordList(PORTUGUESE_WORDS);
const ENGLISH = new WordList(ENGLISH_WORDS);
const STARTS: ReadonlySet<string> = new Set([SPANISH, PORTUGUESE, ENGLISH].flatMap((list) => list.starts()));
const mayBeListed = (form: string) => STARTS.has(form) || form.includes('*');

function wordListRule(id: string, language: string, list: WordList): Rule {
  const rule: Rule = {
    id,
    reason: REASON,
    message: `Looks like offensive or vulgar language (${language}): messages with out-of-place language are rejected.`,
    find(text: PreparedText): Finding[] {
      const tokens = tokenize(text);
      return list.find(tokens).map(([from, to]) => {
        const first = tokens[from] as Token;
        const last = tokens[to - 1] as Token;
        return finding(rule, text, 'folded', first.start, last.end);
      });
    },
  };
  return rule;
}

export const spanishLanguageRule = wordListRule('language.es', 'Spanish', SPANISH);
export const portugueseLanguageRule = wordListRule('language.pt', 'Portuguese', PORTUGUESE);
export const englishLanguageRule = wordListRule('language.en', 'English', ENGLISH);

export const languageRules: readonly Rule[] = [spanishLanguageRule, portugueseLanguageRule, englishLanguageRule];

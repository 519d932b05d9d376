/**
 * The engine's shortcuts give the results of the definitions they replace: `prepare` equals
 * `prepareByGraphemes` (Intl.Segmenter over the whole text), a rule's `requires` passes wherever
 * its pattern matches, and a token's `forms` equals `formsByRules`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANY_RATING, RATING } from '../../../../common/messages/moderation/claim-evasion.js';
import { RULES } from '../../../../common/messages/moderation/index.js';
import {
  ENGLISH_WORDS,
  PORTUGUESE_WORDS,
  SPANISH_WORDS,
  englishLanguageRule,
  forms,
  formsByRules,
  portugueseLanguageRule,
  spanishLanguageRule,
} from '../../../../common/messages/moderation/language.js';
import { isSimple, prepare, prepareByGraphemes } from '../../../../common/messages/moderation/prepared.js';
import type { PatternRule, Rule } from '../../../../common/messages/moderation/rule.js';

/** Pieces that matter to segmentation and normalization, and to the rules. */
const TRICKY = [
  'a',
  'A',
  'Z',
  ' ',
  '\t',
  '\r',
  '\n',
  '\r\n',
  '\u0000',
  '\u0085',
  '\u00a0',
  'é',
  'É',
  'e\u0301',
  '\u0301',
  '\u0303',
  'ñ',
  'n\u0303',
  'ç',
  'ã',
  '¼',
  '´',
  'ª',
  '²',
  'µ',
  '©',
  '®',
  '™',
  '€',
  '\u2019',
  '…',
  'İ',
  'ß',
  'Σ',
  'ǅ',
  'ﬁ',
  'ｂ',
  'Ｍ',
  '．',
  '\u00ad',
  '\u034f',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\u202e',
  '\u2028',
  '\ufe0f',
  '\u20d0',
  '\u02b0',
  '\u0600',
  'क',
  '्',
  'ष',
  '\u0e33',
  'ᄀ',
  'ᅡ',
  '가',
  '👍',
  '🏽',
  '👍🏽',
  '🤷‍♀️',
  '🇦',
  '🇦🇷',
  '\ud83d',
  '\udc4d',
  '@',
  '.',
  '/',
  ':',
  '-',
  '+',
  '(',
  ')',
  '$',
  '*',
  '0',
  '1',
  '5',
  '9',
];

/** ASCII-heavy pieces: words, numbers, addresses and links the rules look for. */
const WORDS = [
  'hola',
  'tu',
  'pedido',
  '2000009000001',
  'cel',
  'whatsapp',
  'wpp',
  '11 4444-5555',
  '4444-5555',
  '+54 9 11 4444-5555',
  '(11) 4444-5555',
  '1234567',
  '0285000301000123456789',
  'cbu',
  'alias',
  'tienda.ropa.mp',
  'dni',
  '30.123.456',
  'cuit',
  '20-30123456-3',
  'cpf',
  '529.982.247-25',
  'cnpj',
  '11.222.333/0001-81',
  'ana',
  'ana@x.com',
  'gmail',
  'arroba',
  'at',
  'dot',
  'punto',
  '(at)',
  '[dot]',
  '.com',
  'https://',
  'www.',
  'bit.ly/3abc',
  'tinyurl.com',
  't.co',
  'mpago.la/x',
  'mercadopago.com.ar/x',
  'paypal.me/x',
  'paypal',
  'pix',
  'chave pix',
  'link de pago',
  'te mando el',
  'datos bancarios',
  'cuenta',
  'instagram.com/x',
  'wa.me/5491144445555',
  '@tienda.x',
  'insta',
  'ig:',
  'seguime en',
  'escribime por',
  'cerrá el reclamo',
  'reclamo',
  'no abras una',
  'disputa',
  'calificame',
  'positivo',
  '5 estrellas',
  'nota',
  'fiscal',
  'a cambio',
  'te devuelvo',
  'boludo',
  'hijo de puta',
  'p*ta',
  'm1erda',
  'mierdaaa',
  'f**k',
];

const SEPARATORS = [' ', ' ', ' ', '', '\n', '. ', ', ', ': ', '\r\n', '\u00a0', '  ', '!'];

const anyText = fc.oneof(
  fc.array(fc.constantFrom(...TRICKY), { maxLength: 30 }).map((pieces) => pieces.join('')),
  fc.array(fc.tuple(fc.constantFrom(...WORDS, ...TRICKY), fc.constantFrom(...SEPARATORS)), { maxLength: 12 }).map((pairs) => pairs.flat().join('')),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x2200 }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.string({ unit: fc.constantFrom(...'abcdeilmnoprstu0123456789 .@-/:+()*$\n'), maxLength: 80 }),
);

/** Each simple code unit followed by each one, every ordered pair once (a de Bruijn sequence). */
function everySimplePair(): string[] {
  const simple: number[] = [];
  for (let c = 0; c <= 0xffff; c++) if (isSimple(c)) simple.push(c);
  const sequence: number[] = [];
  for (let i = 0; i < simple.length; i++) {
    sequence.push(simple[i] as number);
    for (let j = i + 1; j < simple.length; j++) sequence.push(simple[i] as number, simple[j] as number);
  }
  sequence.push(simple[0] as number);
  // Chunks overlap by one code unit so that pairs across chunk ends are checked too.
  const chunks: string[] = [];
  for (let start = 0; start < sequence.length - 1; start += 255) chunks.push(String.fromCharCode(...sequence.slice(start, start + 256)));
  return chunks;
}

describe('prepare', () => {
  it('simple code units (ASCII, Latin-1, punctuation...) are each a grapheme cluster whatever follows', () => {
    expect(isSimple('a'.charCodeAt(0))).toBe(true);
    expect(isSimple(0x0d)).toBe(false);
    expect(isSimple(0x0301)).toBe(false);
    expect(isSimple(0x200d)).toBe(false);
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    let pairs = 0;
    for (const chunk of everySimplePair()) {
      pairs += chunk.length - 1;
      const clusters = Array.from(segmenter.segment(chunk), (s) => s.segment);
      expect(clusters.length, JSON.stringify(clusters.find((s) => s.length > 1))).toBe(chunk.length);
    }
    expect(pairs).toBeGreaterThan(1_000_000);
  });

  it('gives what the grapheme-by-grapheme definition gives, origins included', () => {
    const texts = [
      '',
      'Hola! Tu pedido 123 sale hoy por la tarde, gracias por tu compra.',
      '¡Hola! Llegará el miércoles, señor. ¿Algo más?',
      'ＴＥＬÉＦＯＮＯ: mier\u00ADda 👍🏽',
      'linea 1\r\nlinea 2\rlinea 3\n\r\n',
      'e\u0301\u0301 n\u0303 a\u200db \u0600a 🇦🇷🇦 क्ष İ ß ﬁ ¼ ´',
      '\r\u0301 \n\u0301 \u0301',
    ];
    for (const text of texts) expect(prepare(text), JSON.stringify(text)).toEqual(prepareByGraphemes(text));
  });

  it('property: equals prepareByGraphemes on any text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(prepare(text)).toEqual(prepareByGraphemes(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('property: every rule finds the same with either preparation', () => {
    const viaDefinition = (text: string) => RULES.flatMap((rule) => rule.find(prepareByGraphemes(text), {}));
    const viaPrepare = (text: string) => RULES.flatMap((rule) => rule.find(prepare(text), {}));
    fc.assert(
      fc.property(anyText, (text) => {
        expect(viaPrepare(text)).toEqual(viaDefinition(text));
      }),
      { numRuns: 500 },
    );
  });
});

const patternRules = RULES.filter((rule: Rule): rule is PatternRule => 'pattern' in rule);
const withRequires = patternRules.filter((rule) => rule.requires !== undefined);

/** At least one text per rule with a `requires` that the rule reports. */
const EXAMPLES: Record<string, string> = {
  'claim.withdraw-request': 'por favor cerrá el reclamo',
  'claim.discourage': 'no abras un reclamo',
  'payment.provider-link': 'pagá en mpago.la/2xYz',
  'payment.link-offer': 'te mando el link de pago',
  'payment.pix': 'minha chave pix é 11999998888',
  'payment.paypal': 'mandame por paypal',
  'payment.cbu': 'cbu 0285000301000123456789',
  'payment.bank-alias': 'alias: tienda.ropa.mp',
  'payment.bank-data': 'te paso mis datos bancarios',
  'personal.email': 'escribime a ana@x.com',
  'personal.email-obfuscated': 'martin arroba gmail punto com',
  'personal.phone-international': 'llamá al +54 9 11 4444-5555',
  'personal.phone-formatted': 'mi fijo 11 4444-5555',
  'personal.phone-local': 'llamá al 4444-5555',
  'personal.identity-document': 'DNI 30.123.456',
  'personal.cuit': 'CUIT 20-30123456-7',
  'personal.cpf': 'cpf 529.982.247-25',
  'personal.cnpj': 'cnpj 11.222.333/0001-81',
  'social.link': 'seguime en instagram.com/tienda',
  'social.profile': 'ig: tienda.x',
  'social.handle': 'seguime en insta @tienda.x',
  'short-url.link': 'mirá bit.ly/3abc',
};

/** Whether the rule's pattern alone (no `requires`) matches the view. */
const patternMatches = (rule: PatternRule, view: string) => new RegExp(rule.pattern.source, rule.pattern.flags.replace('g', '')).test(view);

describe('requires (the pre-check that skips a rule pattern)', () => {
  it('every rule with one has an example it reports', () => {
    expect(withRequires.length).toBeGreaterThan(15);
    for (const rule of withRequires) {
      const example = EXAMPLES[rule.id];
      expect(example, rule.id).toBeDefined();
      const found = rule.find(prepare(example ?? ''), {});
      expect(found.length, `${rule.id}: ${example}`).toBeGreaterThan(0);
    }
  });

  it('property: passes wherever the rule pattern matches', () => {
    const examples = Object.values(EXAMPLES);
    const text = fc.oneof(
      anyText,
      fc.array(fc.constantFrom(...examples, ...WORDS, ...SEPARATORS), { minLength: 1, maxLength: 8 }).map((p) => p.join(' ')),
    );
    fc.assert(
      fc.property(text, (t) => {
        const prepared = prepare(t);
        for (const rule of withRequires) {
          const view = prepared[rule.view];
          if (patternMatches(rule, view)) expect(rule.requires?.test(view), `${rule.id}: ${JSON.stringify(t)}`).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('property: the rating words of a sentence are rating words of the whole text', () => {
    const piece = fc.constantFrom(
      'nota',
      'fiscal',
      'calificame',
      'review',
      'stars',
      'estrellas',
      'x',
      ' ',
      '\n',
      '.',
      '!',
      '?',
      ' nota\nfiscal',
      'nota. fiscal',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const folded = prepare(pieces.join('')).folded;
        const anySentence = [...folded.matchAll(/[^.!?\n]+/g)].some((s) => RATING.test(s[0]));
        if (anySentence) expect(ANY_RATING.test(folded)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('language forms', () => {
  it('property: forms equals formsByRules for any token', () => {
    const token = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789@$*ñéü𝐀'), minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(token, (raw) => {
        expect(forms(raw)).toEqual(formsByRules(raw));
        expect(forms(raw)).toEqual(formsByRules(raw));
      }),
      { numRuns: 5000 },
    );
    for (const raw of ['hola', 'llega', 'mierdaaa', 'm1erda', '123', 'a1', 'p*ta', '*', 'señor', 'aa']) expect(forms(raw)).toEqual(formsByRules(raw));
  });

  it('the word-list rules give the same findings in any order on one text', () => {
    const language = RULES.filter((rule) => rule.id.startsWith('language.'));
    const text = prepare('Sos un boludo, la concha de tu madre, vai se foder, f**k you, m1erda');
    const forward = language.map((rule) => rule.find(text, {}));
    const backward = [...language].reverse().map((rule) => rule.find(text, {}));
    expect(backward.reverse()).toEqual(forward);
    expect(forward.every((found) => found.length > 0)).toBe(true);
  });

  it('every listed word and phrase, also masked, is found by its list (tokens skipped as no candidate are none of them)', () => {
    const lists = [
      [spanishLanguageRule, SPANISH_WORDS],
      [portugueseLanguageRule, PORTUGUESE_WORDS],
      [englishLanguageRule, ENGLISH_WORDS],
    ] as const;
    for (const [rule, words] of lists) {
      for (const word of words) {
        const masked = word.length >= 3 ? `${word[0] ?? ''}*${word.slice(2)}` : word;
        for (const text of [`ok ${word} ok`, `ok ${masked} ok`]) expect(rule.find(prepare(text), {}).length, `${rule.id}: ${text}`).toBeGreaterThan(0);
      }
    }
  });
});

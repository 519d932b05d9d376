import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUYER_MAX_MESSAGE_LENGTH,
  EMOTICON_ALLOW_LIST,
  SELLER_MAX_MESSAGE_LENGTH,
  checkText,
  isAllowedEmoticon,
  textLength,
  unsupportedCharacters,
} from '../../../common/messages/text-rules.js';

/** Printable ISO-8859-1 plus TAB, LF, CR. */
const LATIN1_PRINTABLE = [
  '\t',
  '\n',
  '\r',
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)),
  ...Array.from({ length: 0x100 - 0xa0 }, (_, i) => String.fromCharCode(0xa0 + i)),
];

const MODIFIABLE = ['👍', '👎', '👋', '🙏', '👌', '👏', '🙌', '✌️', '💪', '🤝', '🤷', '🤷‍♀️', '🤷‍♂️'];
const withTone = (emoji: string, tone: string) => {
  const [base = '', ...rest] = Array.from(emoji);
  return base + tone + rest.join('');
};

describe('limits', () => {
  it('are 350 for sellers and 3500 for buyers (SPEC 8)', () => {
    expect(SELLER_MAX_MESSAGE_LENGTH).toBe(350);
    expect(BUYER_MAX_MESSAGE_LENGTH).toBe(3500);
  });
});

describe('EMOTICON_ALLOW_LIST', () => {
  it('holds between 30 and 60 distinct emoticons, none of them ISO-8859-1', () => {
    expect(EMOTICON_ALLOW_LIST.length).toBeGreaterThanOrEqual(30);
    expect(EMOTICON_ALLOW_LIST.length).toBeLessThanOrEqual(60);
    expect(new Set(EMOTICON_ALLOW_LIST).size).toBe(EMOTICON_ALLOW_LIST.length);
    for (const e of EMOTICON_ALLOW_LIST) expect(Array.from(e).some((c) => (c.codePointAt(0) ?? 0) > 0xff)).toBe(true);
  });

  it('is accepted entirely, and each entry is one character long', () => {
    const all = EMOTICON_ALLOW_LIST.join('');
    expect(unsupportedCharacters(all)).toEqual([]);
    expect(textLength(all)).toBe(EMOTICON_ALLOW_LIST.length);
  });

  it('cannot be modified at run time', () => {
    expect(Object.isFrozen(EMOTICON_ALLOW_LIST)).toBe(true);
  });
});

describe('unsupportedCharacters', () => {
  it('accepts Spanish and Portuguese text with every Latin-1 letter and sign', () => {
    expect(unsupportedCharacters('¡Hola! ¿Cómo estás? Ñandú, pingüino. Ação, coração, você. 50% · ½ · © ® ° ª º « » £ ¥')).toEqual([]);
  });

  it('accepts TAB, LF, CR, no-break space and soft hyphen', () => {
    expect(unsupportedCharacters('a\tb\nc\r\nd\u00A0e\u00ADf')).toEqual([]);
  });

  it('reports typographic punctuation and the euro sign with UTF-16 index and code point', () => {
    expect(unsupportedCharacters('It’s 10 € – ok')).toEqual([
      { index: 2, char: '’', codePoint: 'U+2019' },
      { index: 8, char: '€', codePoint: 'U+20AC' },
      { index: 10, char: '–', codePoint: 'U+2013' },
    ]);
  });

  it('refuses C0 controls other than TAB/LF/CR, DEL and the C1 block', () => {
    const found = unsupportedCharacters('a\u0000b\u0007c\u001Bd\u007Fe\u0085f\u0092g');
    expect(found.map((c) => c.codePoint)).toEqual(['U+0000', 'U+0007', 'U+001B', 'U+007F', 'U+0085', 'U+0092']);
    expect(found.map((c) => c.index)).toEqual([1, 3, 5, 7, 9, 11]);
  });

  it('accepts listed emoticons and gives UTF-16 indexes after surrogate pairs', () => {
    expect(unsupportedCharacters('Gracias 🙂👍 📦🚚')).toEqual([]);
    // "ok " (0-2), 🙂 (3-4), " " (5), 🍺 (6-7), " " (8), ’ (9)
    expect(unsupportedCharacters('ok 🙂 🍺 ’')).toEqual([
      { index: 6, char: '🍺', codePoint: 'U+1F37A' },
      { index: 9, char: '’', codePoint: 'U+2019' },
    ]);
  });

  it('treats the emoji variation selector as optional', () => {
    expect(unsupportedCharacters('\u2764')).toEqual([]); // ❤ text presentation
    expect(unsupportedCharacters('\u2764\uFE0F')).toEqual([]); // ❤️
    expect(unsupportedCharacters('\u2B50\uFE0F \u2B50')).toEqual([]); // ⭐️ ⭐
    expect(unsupportedCharacters('\u2714\uFE0E')).toEqual([]); // ✔︎ with the text selector
  });

  it('refuses a variation selector on its own or after a Latin-1 character', () => {
    expect(unsupportedCharacters('\uFE0F')).toEqual([{ index: 0, char: '\uFE0F', codePoint: 'U+FE0F' }]);
    expect(unsupportedCharacters('©\uFE0F')).toEqual([{ index: 0, char: '©\uFE0F', codePoint: 'U+00A9 U+FE0F' }]);
  });

  it('accepts skin tones on hands, refuses them alone or on faces', () => {
    expect(unsupportedCharacters('👍🏽 🙏🏻 👋🏿 ✌🏼 🤷🏾')).toEqual([]);
    expect(unsupportedCharacters('🏽')).toEqual([{ index: 0, char: '🏽', codePoint: 'U+1F3FD' }]);
    expect(unsupportedCharacters('😀🏽')).toEqual([{ index: 0, char: '😀🏽', codePoint: 'U+1F600 U+1F3FD' }]);
  });

  it('accepts a ZWJ sequence only when the whole sequence is listed', () => {
    expect(unsupportedCharacters('🤷‍♀️ 🤷‍♂️ 🤷🏽‍♀️')).toEqual([]);
    expect(unsupportedCharacters('👨‍💻')).toEqual([{ index: 0, char: '👨‍💻', codePoint: 'U+1F468 U+200D U+1F4BB' }]);
    // both parts are listed, the joined sequence is not
    expect(unsupportedCharacters('x👍\u200D👎')).toEqual([{ index: 1, char: '👍\u200D👎', codePoint: 'U+1F44D U+200D U+1F44E' }]);
    // a listed emoji followed by a dangling joiner
    expect(unsupportedCharacters('👍\u200D')).toHaveLength(1);
  });

  it('refuses flags, keycaps and a lone surrogate', () => {
    expect(unsupportedCharacters('🇦🇷')).toEqual([{ index: 0, char: '🇦🇷', codePoint: 'U+1F1E6 U+1F1F7' }]);
    expect(unsupportedCharacters('1️⃣')).toHaveLength(1);
    expect(unsupportedCharacters('a\uD83Db')).toEqual([{ index: 1, char: '\uD83D', codePoint: 'U+D83D' }]);
  });

  it('refuses decomposed accents (the composer sends NFC)', () => {
    expect(unsupportedCharacters('cafe\u0301')).toEqual([{ index: 3, char: 'e\u0301', codePoint: 'U+0065 U+0301' }]);
    expect(unsupportedCharacters('cafe\u0301'.normalize('NFC'))).toEqual([]);
  });

  it('property: printable ISO-8859-1 text has no unsupported characters', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LATIN1_PRINTABLE), { maxLength: 400 }), (chars) => {
        expect(unsupportedCharacters(chars.join(''))).toEqual([]);
      }),
    );
  });

  it('property: every reported character is found in the text at its index, outside Latin-1', () => {
    const outside = fc.integer({ min: 0x100, max: 0x2fff }).map((cp) => String.fromCodePoint(cp));
    const piece = fc.oneof(fc.constantFrom(...LATIN1_PRINTABLE), outside, fc.constantFrom(...EMOTICON_ALLOW_LIST));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join('');
        for (const c of unsupportedCharacters(text)) {
          expect(text.slice(c.index, c.index + c.char.length)).toBe(c.char);
          expect(isAllowedEmoticon(c.char)).toBe(false);
          expect(/^[\t\n\r\x20-\x7E\xA0-\xFF]+$/.test(c.char)).toBe(false);
        }
      }),
    );
  });
});

describe('textLength', () => {
  it('counts Latin-1 characters one each, CR LF as two', () => {
    expect(textLength('')).toBe(0);
    expect(textLength('Hola, ¿cómo estás?')).toBe(18);
    expect(textLength('a\r\nb')).toBe(4);
  });

  it('counts an allowed emoticon as one, whatever its code points', () => {
    expect(textLength('👍')).toBe(1);
    expect(textLength('❤️')).toBe(1);
    expect(textLength('👍🏽')).toBe(1);
    expect(textLength('🤷🏽‍♀️')).toBe(1);
    expect(textLength('ok 👍🏽!')).toBe(5);
  });

  it('counts other characters per code point, never per UTF-16 unit', () => {
    expect(textLength('🍺')).toBe(1);
    expect(textLength('’')).toBe(1);
    expect(textLength('👨‍💻')).toBe(3);
  });

  it('property: a string of allowed emoticons (with or without selector and skin tone) is as long as their count', () => {
    const emoticon = fc.oneof(
      fc.constantFrom(...EMOTICON_ALLOW_LIST),
      fc.constantFrom(...EMOTICON_ALLOW_LIST).map((e) => e.replace(/\uFE0F/g, '')),
      fc.tuple(fc.constantFrom(...MODIFIABLE), fc.integer({ min: 0x1f3fb, max: 0x1f3ff })).map(([e, tone]) => withTone(e, String.fromCodePoint(tone))),
    );
    fc.assert(
      fc.property(fc.array(emoticon, { maxLength: 80 }), (list) => {
        const text = list.join('');
        expect(unsupportedCharacters(text)).toEqual([]);
        expect(textLength(text)).toBe(list.length);
      }),
    );
  });
});

describe('checkText', () => {
  const tooLong = 'The message content is too long, max characters allowed are 350';

  it('refuses empty and whitespace-only text first', () => {
    expect(checkText('', 'seller')).toEqual({ code: 'empty', message: "The field 'text' is required" });
    expect(checkText(' \n\t ', 'buyer')?.code).toBe('empty');
  });

  it('reports unsupported characters with the spec message and the characters', () => {
    expect(checkText('Gracias por tu compra ’', 'seller')).toEqual({
      code: 'unsupported_characters',
      message: 'The text has character/s that is/are not supported.',
      characters: [{ index: 22, char: '’', codePoint: 'U+2019' }],
    });
  });

  it('checks characters before length', () => {
    expect(checkText('a'.repeat(400) + '’', 'seller')?.code).toBe('unsupported_characters');
  });

  it('accepts exactly 350 characters from a seller and refuses 351 with the spec message', () => {
    expect(checkText('a'.repeat(SELLER_MAX_MESSAGE_LENGTH), 'seller')).toBeNull();
    expect(checkText('a'.repeat(351), 'seller')).toEqual({ code: 'too_long', message: tooLong, max: 350, length: 351 });
  });

  it('applies 3500 to a buyer, with the same sentence', () => {
    expect(checkText('a'.repeat(351), 'buyer')).toBeNull();
    expect(checkText('a'.repeat(3500), 'buyer')).toBeNull();
    expect(checkText('a'.repeat(3501), 'buyer')).toEqual({
      code: 'too_long',
      message: 'The message content is too long, max characters allowed are 3500',
      max: 3500,
      length: 3501,
    });
  });

  it('counts emoji as one character against the limit', () => {
    const text = '👍🏽'.repeat(350);
    expect(text.length).toBe(1400);
    expect(checkText(text, 'seller')).toBeNull();
    expect(checkText(text + '!', 'seller')?.code).toBe('too_long');
  });

  it('accepts an ordinary seller message', () => {
    expect(checkText('¡Hola! Tu pedido ya fue despachado 📦🚚. Cualquier duda, escribinos por acá 🙂', 'seller')).toBeNull();
  });
});

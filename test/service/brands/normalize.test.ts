import { describe, expect, it } from 'vitest';
import { normalizeName } from '../../../main/service/brands/normalize.js';

describe('normalizeName', () => {
  it('removes accents and keeps case', () => {
    expect(normalizeName('Crème Brûlée Café')).toBe('Creme Brulee Cafe');
    expect(normalizeName('ÁÉÍÓÚ áéíóú ñÑ çÇ')).toBe('AEIOU aeiou nN cC');
  });

  it('removes umlauts', () => {
    expect(normalizeName('Müller Göteborg Über')).toBe('Muller Goteborg Uber');
  });

  it('collapses double spaces, tabs and newlines and trims', () => {
    expect(normalizeName('  Aurora Kids  Ñandú ')).toBe('Aurora Kids Nandu');
    expect(normalizeName('a\t\tb\n c')).toBe('a b c');
    // a no-break space counts as whitespace
    expect(normalizeName('Tienda\u00a0 Oficial')).toBe('Tienda Oficial');
  });

  it('folds letters that do not decompose: ß, ø, æ, œ, ł, đ', () => {
    expect(normalizeName('Straße')).toBe('Strasse');
    expect(normalizeName('ẞ')).toBe('SS');
    expect(normalizeName('Øl smørrebrød')).toBe('Ol smorrebrod');
    expect(normalizeName('Æble æble')).toBe('AEble aeble');
    expect(normalizeName('Œuvre')).toBe('OEuvre');
    expect(normalizeName('Łódź')).toBe('Lodz');
    expect(normalizeName('Đakovo')).toBe('Dakovo');
  });

  it('folds compatibility forms and removes invisible characters', () => {
    expect(normalizeName('ﬁne ＡＢＣ')).toBe('fine ABC');
    expect(normalizeName('Zero\u200bWidth Soft\u00adHyphen')).toBe('ZeroWidth SoftHyphen');
  });

  it('keeps letters of their own and other scripts, recomposed', () => {
    expect(normalizeName('Þór')).toBe('Þor');
    expect(normalizeName('한국 브랜드')).toBe('한국 브랜드');
    expect(normalizeName('Москва')).toBe('Москва');
  });

  it('keeps punctuation and digits, and is idempotent', () => {
    const once = normalizeName("L'Oréal  Paris & Co. — Nº 5");
    expect(once).toBe("L'Oreal Paris & Co. — No 5");
    expect(normalizeName(once)).toBe(once);
  });

  it('gives an empty string for a name made only of spaces and marks', () => {
    expect(normalizeName(' \u0301 \t')).toBe('');
  });
});

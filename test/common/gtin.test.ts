import { describe, expect, it } from 'vitest';
import { gtinCheckDigit, isGtin } from '../../common/gtin.js';

describe('GTIN check digits', () => {
  it('accepts real codes of every length: EAN-8, UPC-A, EAN-13, GTIN-14', () => {
    // Published examples, and the demo data's EAN-8 (its EAN-13s are made up: their check digits are wrong).
    for (const code of ['96385074', '00123457', '036000291452', '4006381333931', '10012345678902']) expect(isGtin(code), code).toBe(true);
  });

  it('computes the digit by the 3-1 weights from the right', () => {
    expect(gtinCheckDigit('0012345')).toBe(7);
    expect(gtinCheckDigit('400638133393')).toBe(1);
    expect(gtinCheckDigit('03600029145')).toBe(2);
  });

  it('refuses a wrong check digit, other lengths, and anything but digits', () => {
    expect(isGtin('00123456')).toBe(false);
    expect(isGtin('4006381333932')).toBe(false);
    for (const text of ['', '30', '123457', '1234567', '123456789', '1234567890123456', '0012345A', '+00123457', '00 123457'])
      expect(isGtin(text), text).toBe(false);
  });

  it('every one digit changed in a valid code is caught', () => {
    const code = '4006381333931';
    for (let i = 0; i < code.length; i++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === code[i]) continue;
        expect(isGtin(code.slice(0, i) + d + code.slice(i + 1))).toBe(false);
      }
    }
  });

  it('spaces around are allowed', () => expect(isGtin(' 00123457 ')).toBe(true));
});

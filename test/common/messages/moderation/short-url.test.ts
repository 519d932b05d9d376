import { describe, expect, it } from 'vitest';
import { SHORTENER_DOMAINS } from '../../../../common/messages/moderation/short-url.js';
import { expectClean, expectRejected } from './helpers.js';

describe('LINK_SHORT_URL', () => {
  it.each([
    ['Mirá: bit.ly/3abcXYZ', 'bit.ly/3abcXYZ'],
    ['https://bit.ly/3abc', 'https://bit.ly/3abc'],
    ['http://tinyurl.com/y2k8abc', 'http://tinyurl.com/y2k8abc'],
    ['www.tinyurl.com/abc', 'www.tinyurl.com/abc'],
    ['goo.gl/maps/AbC123', 'goo.gl/maps/AbC123'],
    ['https://t.co/AbC', 'https://t.co/AbC'],
    ['https://t.co', 'https://t.co'],
    ['ow.ly/abc', 'ow.ly/abc'],
    ['is.gd/abc', 'is.gd/abc'],
    ['cutt.ly/xyz', 'cutt.ly/xyz'],
    ['rebrand.ly/promo', 'rebrand.ly/promo'],
    ['shorturl.at/abc12', 'shorturl.at/abc12'],
    ['acortar.link/AbC', 'acortar.link/AbC'],
    ['Veja em encurtador.com.br/abc', 'encurtador.com.br/abc'],
    ['BIT.LY/ABC', 'BIT.LY/ABC'],
    ['(see bit.ly/abc)', 'bit.ly/abc'],
    ['Entrá a bit.ly/oferta.', 'bit.ly/oferta'],
  ])('%s', (text, match) => expectRejected(text, 'LINK_SHORT_URL', 'short-url.link', match));

  it.each([
    'no usamos bit.ly ni links acortados',
    'habit.ly/abc no es un acortador',
    'art.co/abc',
    'kiss.id/abc',
    'La app t.co no existe',
    'Visitá nuestra tienda oficial en la plataforma',
  ])('not a short link: %s', (text) => expectClean(text));

  it('knows at least the shorteners of the brief', () => {
    for (const d of ['bit.ly', 'tinyurl.com', 'goo.gl', 't.co', 'ow.ly', 'is.gd', 'cutt.ly', 'rebrand.ly', 'shorturl.at']) {
      expect(SHORTENER_DOMAINS).toContain(d);
    }
  });
});

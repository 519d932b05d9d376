import { describe, expect, it } from 'vitest';
import { findIssues, moderate } from '../../../../common/messages/moderation/index.js';
import { ENGLISH_WORDS, PORTUGUESE_WORDS, SPANISH_WORDS } from '../../../../common/messages/moderation/language.js';
import { expectClean, expectRejected } from './helpers.js';

describe('OUT_OF_PLACE_LANGUAGE', () => {
  it.each([
    ['Sos un boludo', 'language.es', 'boludo'],
    ['Qué PELOTUDO que sos', 'language.es', 'PELOTUDO'],
    ['la concha de tu madre', 'language.es', 'la concha de tu madre'],
    ['Andate a la mierda', 'language.es', 'mierda'],
    ['sos un hijo de puta', 'language.es', 'hijo de puta'],
    ['¡Imbécil!', 'language.es', 'Imbécil'],
    ['qué coño pasa', 'language.es', 'coño'],
    ['Vai se foder', 'language.pt', 'Vai se foder'],
    ['que porra é essa', 'language.pt', 'porra'],
    ['seu otário', 'language.pt', 'otário'],
    ['foda-se', 'language.pt', 'foda-se'],
    ['what the fuck', 'language.en', 'fuck'],
    ['this is bullshit', 'language.en', 'bullshit'],
    ['you are an idiot', 'language.en', 'idiot'],
  ])('%s', (text, rule, match) => expectRejected(text, 'OUT_OF_PLACE_LANGUAGE', rule, match));

  it.each([
    ['m1erda', 'm1erda'],
    ['$h1t happens', '$h1t'],
    ['mierdaaaa', 'mierdaaaa'],
    ['fuuuuck', 'fuuuuck'],
    ['p*ta', 'p*ta'],
    ['f**k you', 'f**k'],
    ['m**rda', 'm**rda'],
    ['mier\u00ADda', 'mier\u00ADda'],
    ['ＩＤＩＯＴＡ', 'ＩＤＩＯＴＡ'],
  ])('disguised: %s', (text, match) => {
    const verdict = moderate(text);
    expect(verdict.status === 'rejected' && verdict.reason).toBe('OUT_OF_PLACE_LANGUAGE');
    expect(findIssues(text).map((f) => f.match)).toContain(match);
  });

  it.each([
    'Necesito una computadora nueva',
    'La disputa entre marcas terminó',
    'Cuidamos nuestra reputación',
    'El diputado votó',
    'Scunthorpe United',
    'Hicimos un análisis del producto',
    'Our assistant will help with the class',
    'A cocktail of Dickens novels',
    'Hongos shiitake frescos',
    'Shipping to Essex',
    'Un cono de tránsito naranja',
    'Feliz año nuevo',
    'Forro para celular de silicona',
    'Concha acústica, de la marca Concha',
    'Precio $ 1.500 c/u',
    'Curso de cocina, tecnología de punta',
    'Computación, imputado, disputado',
    'Muy buen producto, gracias',
    'Cable de cobre (Cu) de 2,5 mm',
    'Hacemos envíos a Morón, Moron y Castelar',
    'Moby Dick, edición de bolsillo',
  ])('clean: %s', (text) => expectClean(text));

  it('lists are non-empty, lower case and accent-free (ñ kept)', () => {
    for (const list of [SPANISH_WORDS, PORTUGUESE_WORDS, ENGLISH_WORDS]) {
      expect(list.length).toBeGreaterThan(20);
      for (const w of list) expect(w).toMatch(/^[a-zñ ]+$/);
    }
  });
});

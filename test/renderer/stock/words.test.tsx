import { describe, expect, it } from 'vitest';
import { DICTIONARIES, LANGUAGES } from '../../../renderer/i18n/index.js';
import { stockText } from '../../../renderer/stock/words.js';

describe('stock words', () => {
  it('lives in the app dictionaries under stock., in every language (their keys and placeholders are compared in test/renderer/i18n)', () => {
    for (const lang of LANGUAGES) {
      const keys = Object.keys(DICTIONARIES[lang]).filter((k) => k.startsWith('stock.'));
      expect(keys.length).toBeGreaterThan(150);
      expect(stockText(lang, 'title')).toBe(DICTIONARIES[lang]['stock.title']);
    }
  });

  it('fills placeholders with numbers in the language and picks plurals', () => {
    expect(stockText('en', 'rows', { count: 1 })).toBe('1 product');
    expect(stockText('es', 'rows', { count: 100000 })).toBe('100.000 productos');
    expect(stockText('pt-BR', 'conflict.keepMine', { local: '40' })).toBe('Manter minha contagem (40)');
  });
});

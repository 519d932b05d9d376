import { describe, expect, it } from 'vitest';
import { STOCK_DICTIONARIES, type StockKey, stockText } from '../../../renderer/stock/words.js';

const placeholders = (e: string | object) => {
  const texts = typeof e === 'string' ? [e] : Object.values(e as Record<string, unknown>).filter((v): v is string => typeof v === 'string');
  return [...new Set(texts.flatMap((s) => Array.from(s.matchAll(/\{([A-Za-z0-9_]+)\}/g), (m) => m[1])))].sort();
};

describe('stock words', () => {
  it('has the same keys and the same placeholders in es, pt-BR and en', () => {
    const en = STOCK_DICTIONARIES.en;
    for (const lang of ['es', 'pt-BR'] as const) {
      const d = STOCK_DICTIONARIES[lang];
      expect(Object.keys(d).sort()).toEqual(Object.keys(en).sort());
      for (const key of Object.keys(en) as StockKey[]) expect([lang, key, placeholders(d[key])]).toEqual([lang, key, placeholders(en[key])]);
    }
  });

  it('fills placeholders with numbers in the language and picks plurals', () => {
    expect(stockText('en', 'rows', { count: 1 })).toBe('1 product');
    expect(stockText('es', 'rows', { count: 100000 })).toBe('100.000 productos');
    expect(stockText('pt-BR', 'conflict.keepMine', { local: '40' })).toBe('Manter minha contagem (40)');
  });
});

/**
 * The stock screens' words: the `stock.` entries of the app's dictionaries (renderer/i18n/locales,
 * es, pt-BR and en with the same keys), named here without their prefix. Numbers and dates go
 * through the i18n helpers' Intl formatters; the entries are ICU messages (`{name}` arguments,
 * `{count, plural, …}`), and `code()` gives a code of the core its words.
 */
import type { Language } from '../../common/contract/contract.js';
import { type I18n, type Key, type Vars, translate, useI18n } from '../i18n/index.js';

type WithoutStockPrefix<K> = K extends `stock.${infer Rest}` ? Rest : never;
/** A stock key without its `stock.` prefix. */
export type StockKey = WithoutStockPrefix<Key>;

export function stockText(language: Language, key: StockKey, vars?: Vars): string {
  return translate(language, `stock.${key}`, vars);
}

export interface StockWords extends Omit<I18n, 't'> {
  t(key: StockKey, vars?: Vars): string;
}

const bound = new Map<I18n, StockWords>();
/** The stock words and the Intl helpers of the current language; re-renders on a language change. */
export function useStockWords(): StockWords {
  const i = useI18n();
  let w = bound.get(i);
  if (!w) bound.set(i, (w = { ...i, t: (key, vars) => stockText(i.language, key, vars) }));
  return w;
}

/**
 * The app's words: `es`, `pt-BR` and `en` dictionaries with the same keys, `t(key, vars)`, a zustand
 * store holding the current language (from the settings, or the system's `navigator.language`
 * before they answer), the `useI18n()` hook that re-renders a component when the language changes,
 * and number / date / size formatters built on `Intl` in the current language.
 *
 * Adding words: add the key to locales/en.ts under its area's prefix (`stock.`, `inbox.`...) and
 * the same key to es.ts and pt-BR.ts (the compiler refuses a dictionary with a missing or an extra
 * key; test/renderer/i18n also compares placeholders). Plurals are `{ one, other }` objects chosen
 * with Intl.PluralRules from `vars.count`.
 */
import { create } from 'zustand';
import type { Language } from '../../preload/contract.js';
import type { Dictionary, Key } from './dictionary.js';
import { en } from './locales/en.js';
import { es } from './locales/es.js';
import { ptBR } from './locales/pt-BR.js';
import type { Entry, Plural, Vars } from './types.js';

export type { Key } from './dictionary.js';
export type { Entry, Plural, Vars } from './types.js';

export const LANGUAGES: readonly Language[] = ['es', 'pt-BR', 'en'];

export const DICTIONARIES: Readonly<Record<Language, Dictionary>> = { es, 'pt-BR': ptBR, en };

/** The app language for a locale such as `pt-BR`, `es-AR`, `en-US` (Spanish when unknown: the marketplace's main language). */
export function languageOf(locale: string | null | undefined): Language {
  const l = (locale ?? '').toLowerCase();
  if (l.startsWith('pt')) return 'pt-BR';
  if (l.startsWith('en')) return 'en';
  return 'es';
}

/** The system's language, in a browser or Electron's renderer; Spanish where there is no navigator (tests in Node). */
export function systemLanguage(): Language {
  const nav = (globalThis as { navigator?: { languages?: readonly string[]; language?: string } }).navigator;
  return languageOf(nav?.languages?.[0] ?? nav?.language);
}

const pluralRules = new Map<Language, Intl.PluralRules>();
function pluralOf(language: Language, entry: Plural, count: number): string {
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  const form = rules.select(count) as keyof Plural;
  return entry[form] ?? entry.other;
}

/** `{name}` placeholders replaced by `vars` (numbers formatted in the language); unknown placeholders stay visible. */
export function interpolate(language: Language, text: string, vars?: Vars): string {
  if (!vars) return text;
  return text.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) => {
    const v = vars[name];
    if (v === undefined) return whole;
    return typeof v === 'number' ? formatNumber(language, v) : v;
  });
}

/** The words of `key` in `language` (English if a dictionary were ever missing the key at runtime; the key itself as a last resort). */
export function translate(language: Language, key: Key, vars?: Vars): string {
  const entry: Entry | undefined = DICTIONARIES[language][key] ?? en[key];
  if (entry === undefined) return key;
  const text = typeof entry === 'string' ? entry : pluralOf(language, entry, typeof vars?.count === 'number' ? vars.count : 0);
  return interpolate(language, text, vars);
}

// ---------------------------------------------------------------- Intl formatters

const numberFormats = new Map<string, Intl.NumberFormat>();
export function formatNumber(language: Language, n: number, options?: Intl.NumberFormatOptions): string {
  const k = `${language}|${options ? JSON.stringify(options) : ''}`;
  let f = numberFormats.get(k);
  if (!f) numberFormats.set(k, (f = new Intl.NumberFormat(language, options)));
  return f.format(n);
}

export type DateStyle = 'date' | 'datetime' | 'time' | 'long';
const DATE_OPTIONS: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: 'medium' },
  datetime: { dateStyle: 'medium', timeStyle: 'short' },
  time: { hour: '2-digit', minute: '2-digit' },
  long: { dateStyle: 'long', timeStyle: 'short' },
};
const dateFormats = new Map<string, Intl.DateTimeFormat>();

const toDate = (d: string | number | Date): Date => (d instanceof Date ? d : new Date(d));

/** A date in the language's way; an unreadable date is shown as given (never "Invalid Date"). */
export function formatDate(language: Language, d: string | number | Date, style: DateStyle = 'datetime'): string {
  const date = toDate(d);
  if (Number.isNaN(date.getTime())) return typeof d === 'string' ? d : '';
  const k = `${language}|${style}`;
  let f = dateFormats.get(k);
  if (!f) dateFormats.set(k, (f = new Intl.DateTimeFormat(language, DATE_OPTIONS[style])));
  return f.format(date);
}

const relativeFormats = new Map<Language, Intl.RelativeTimeFormat>();
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** "5 minutes ago", "yesterday", "in 2 days": Intl.RelativeTimeFormat with numeric 'auto'. */
export function formatRelative(language: Language, d: string | number | Date, now: number = Date.now()): string {
  const date = toDate(d);
  if (Number.isNaN(date.getTime())) return typeof d === 'string' ? d : '';
  let f = relativeFormats.get(language);
  if (!f) relativeFormats.set(language, (f = new Intl.RelativeTimeFormat(language, { numeric: 'auto' })));
  const diff = date.getTime() - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === 'second') return f.format(Math.round(diff / ms), unit);
  }
  return f.format(0, 'second');
}

/** Bytes as B / KB / MB (1024-based, as the 25 MB limit is), one decimal at most. */
export function formatBytes(language: Language, bytes: number): string {
  if (bytes < 1024) return translate(language, 'common.bytes', { size: formatNumber(language, bytes) });
  if (bytes < 1024 * 1024) return translate(language, 'common.kb', { size: formatNumber(language, bytes / 1024, { maximumFractionDigits: 1 }) });
  return translate(language, 'common.mb', { size: formatNumber(language, bytes / (1024 * 1024), { maximumFractionDigits: 1 }) });
}

export function formatPercent(language: Language, fraction: number): string {
  return formatNumber(language, fraction, { style: 'percent', maximumFractionDigits: 0 });
}

const listFormats = new Map<Language, Intl.ListFormat>();
export function formatList(language: Language, items: readonly string[]): string {
  let f = listFormats.get(language);
  if (!f) listFormats.set(language, (f = new Intl.ListFormat(language, { style: 'long', type: 'conjunction' })));
  return f.format(items);
}

// ---------------------------------------------------------------- store and hook

interface I18nState {
  language: Language;
  setLanguage(language: Language): void;
}

/** The current language. The frame sets it from the settings (and their `settings.changed` event). */
export const useI18nStore = create<I18nState>()((set) => ({
  language: systemLanguage(),
  setLanguage: (language) => set((s) => (s.language === language ? s : { language })),
}));

/** Words in the current language, outside React (event handlers, stores). */
export function t(key: Key, vars?: Vars): string {
  return translate(useI18nStore.getState().language, key, vars);
}

export interface I18n {
  language: Language;
  t(key: Key, vars?: Vars): string;
  formatNumber(n: number, options?: Intl.NumberFormatOptions): string;
  formatDate(d: string | number | Date, style?: DateStyle): string;
  formatRelative(d: string | number | Date, now?: number): string;
  formatBytes(bytes: number): string;
  formatPercent(fraction: number): string;
  formatList(items: readonly string[]): string;
  setLanguage(language: Language): void;
}

const bound = new Map<Language, I18n>();
/** The helpers bound to one language (one object per language, so it is stable across renders). */
export function i18nFor(language: Language): I18n {
  let i = bound.get(language);
  if (!i) {
    i = {
      language,
      t: (key, vars) => translate(language, key, vars),
      formatNumber: (n, o) => formatNumber(language, n, o),
      formatDate: (d, s) => formatDate(language, d, s),
      formatRelative: (d, now) => formatRelative(language, d, now),
      formatBytes: (b) => formatBytes(language, b),
      formatPercent: (f) => formatPercent(language, f),
      formatList: (items) => formatList(language, items),
      setLanguage: (l) => useI18nStore.getState().setLanguage(l),
    };
    bound.set(language, i);
  }
  return i;
}

/** The words and formatters of the current language; the component re-renders when it changes. */
export function useI18n(): I18n {
  return i18nFor(useI18nStore((s) => s.language));
}

// The page's language follows the app's (screen readers pick their voice from it).
if (typeof document !== 'undefined') {
  document.documentElement.lang = useI18nStore.getState().language;
  useI18nStore.subscribe((s) => {
    document.documentElement.lang = s.language;
  });
}

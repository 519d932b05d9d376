/**
 * The app's words: `es`, `pt-BR` and `en` dictionaries of ICU MessageFormat strings with the same
 * keys, formatted by FormatJS (intl-messageformat); `t(key, vars)`, a zustand store holding the
 * current language (from the settings, or the system's `navigator.language` before they answer),
 * the `useI18n()` hook that re-renders a component when the language changes, and number / date /
 * size formatters built on `Intl` in the current language.
 *
 * Adding words: add the key to locales/en.ts under its area's prefix (`stock.`, `inbox.`...) and
 * the same key to es.ts and pt-BR.ts (the compiler refuses a dictionary with a missing or an extra
 * key; test/renderer/i18n parses every message and compares their arguments). Plurals are ICU
 * `plural`s on `count` (`=0` where the language says "none"); a code of the core (a status, a
 * type, a reason) gets its words from a `{code, select, …}` message through `translateCode`, whose
 * `other {{label}}` shows an unknown code humanized: no raw code reaches the screen. An error of
 * the core (`{ ok: false, error }`) is shown through errors.ts (`errorText`, `errorDetail`), never
 * by its `message` alone: that is English.
 */
import { type Formatters, IntlMessageFormat } from 'intl-messageformat';
import { create } from 'zustand';
import type { Language } from '../../common/contract/contract.js';
import type { CodeKey, Dictionary, Key } from './dictionary.js';
import { en } from './locales/en.js';
import { es } from './locales/es.js';
import { ptBR } from './locales/pt-BR.js';
import type { Vars } from './types.js';

export type { CodeKey, Key } from './dictionary.js';
export type { Entry, Vars } from './types.js';

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

// ---------------------------------------------------------------- ICU messages

/**
 * The parts of the parser's AST read here (@formatjs/icu-messageformat-parser's TYPE: 1 a plain
 * argument, 2 a number, 5 a select, 6 a plural, 8 a tag), structurally, so the screens do not
 * import the parser itself.
 */
interface AstNode {
  type: number;
  value?: unknown;
  options?: Record<string, { value: AstNode[] }>;
  children?: AstNode[];
}
type ArgumentKind = 'plain' | 'number' | 'select';
const KIND_OF: Record<number, ArgumentKind> = { 1: 'plain', 2: 'number', 5: 'select', 6: 'number' };

function argumentsOf(nodes: readonly AstNode[], into: Map<string, ArgumentKind>): Map<string, ArgumentKind> {
  for (const n of nodes) {
    const kind = KIND_OF[n.type];
    // A plural or a select decides the value's kind; a plain use elsewhere of the same name does not.
    if (kind && typeof n.value === 'string' && (kind !== 'plain' || !into.has(n.value))) into.set(n.value, kind);
    for (const option of Object.values(n.options ?? {})) argumentsOf(option.value, into);
    if (n.children) argumentsOf(n.children, into);
  }
  return into;
}

/** A compiled message: plain text needs no formatter; otherwise the formatter and its arguments' kinds. */
export type Compiled = { text: string } | { message: IntlMessageFormat; args: Map<string, ArgumentKind>; source: string };

/** One set of Intl objects for every message (intl-messageformat would otherwise keep its own per message). */
const intlCache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>(kind: string, locales: unknown, options: unknown, make: () => T): T {
  const k = `${kind}|${String(locales)}|${options === undefined ? '' : JSON.stringify(options)}`;
  let f = intlCache.get(k) as T | undefined;
  if (!f) intlCache.set(k, (f = make()));
  return f;
}
const FORMATTERS: Formatters = {
  getNumberFormat: (locales, options) => cached('n', locales, options, () => new Intl.NumberFormat(locales, options as Intl.NumberFormatOptions)),
  getDateTimeFormat: (locales, options) => cached('d', locales, options, () => new Intl.DateTimeFormat(locales, options)),
  getPluralRules: (locales, options) => cached('p', locales, options, () => new Intl.PluralRules(locales, options)),
};

/** Compiled messages per language and key: each is parsed once, on first use. */
const compiled: Record<Language, Map<Key, Compiled>> = { es: new Map(), 'pt-BR': new Map(), en: new Map() };

/** The ICU message `source` compiled for `language` (throws on a message that does not parse). */
export function compileMessage(language: Language, source: string): Compiled {
  // No braces and no apostrophes: nothing to parse.
  if (!/[{}']/.test(source)) return { text: source };
  const message = new IntlMessageFormat(source, language, undefined, { formatters: FORMATTERS, ignoreTag: true });
  const args = argumentsOf(message.getAst() as unknown as AstNode[], new Map());
  if (args.size === 0) return { text: String(message.format()) };
  return { message, args, source };
}

function compiledOf(language: Language, key: Key): Compiled {
  let c = compiled[language].get(key);
  if (!c) {
    const source: string | undefined = DICTIONARIES[language][key];
    try {
      // English if a dictionary were ever missing the key at runtime. A key no dictionary has (one
      // built from a code the words do not know yet, `stock.lock.${reason}`) shows its last part
      // humanized, never the key.
      c =
        source !== undefined
          ? compileMessage(language, source)
          : en[key] !== undefined
            ? compileMessage('en', en[key])
            : { text: humanizeCode(key.slice(key.lastIndexOf('.') + 1)) };
    } catch {
      // A message that does not parse (test/renderer/i18n parses them all) shows as written.
      c = { text: source ?? key };
    }
    compiled[language].set(key, c);
  }
  return c;
}

/**
 * A compiled message with `vars`: numbers given to a plain `{name}` are formatted in the language;
 * a missing argument stays visible as `{name}` (0 for a plural, `other` for a select).
 */
export function formatCompiled(language: Language, c: Compiled, vars?: Vars): string {
  if ('text' in c) return c.text;
  const values: Record<string, string | number> = {};
  for (const [name, kind] of c.args) {
    const v = vars?.[name];
    if (v === undefined) values[name] = kind === 'number' ? 0 : kind === 'select' ? 'other' : `{${name}}`;
    else values[name] = kind === 'plain' && typeof v === 'number' ? formatNumber(language, v) : v;
  }
  try {
    return String(c.message.format(values));
  } catch {
    return c.source;
  }
}

/** `text`, an ICU message, formatted in `language` with `vars` (for words not in the dictionaries yet, such as the update banner's). */
export function interpolate(language: Language, text: string, vars?: Vars): string {
  let c: Compiled;
  try {
    c = compileMessage(language, text);
  } catch {
    return text;
  }
  return formatCompiled(language, c, vars);
}

/** The words of `key` in `language`, its ICU message formatted with `vars`. */
export function translate(language: Language, key: Key, vars?: Vars): string {
  return formatCompiled(language, compiledOf(language, key), vars);
}

/**
 * A code as a person reads it, for a code no dictionary knows yet: `gold_special` → "Gold special",
 * `OUT_OF_PLACE_LANGUAGE` → "Out of place language"; a code without underscores keeps its case
 * (`MLA1902`), with a capital first letter.
 */
export function humanizeCode(code: string): string {
  const trimmed = code.trim();
  const words = trimmed.includes('_') ? trimmed.split(/_+/).filter(Boolean) : [trimmed];
  const text = words.map((w) => (trimmed.includes('_') && w === w.toUpperCase() ? w.toLowerCase() : w)).join(' ');
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/**
 * The words for a code of the core (a listing type, a status, a reason…): the `select` of `key`
 * on `code`; a code it does not list falls in `other {{label}}`, the code humanized.
 */
export function translateCode(language: Language, key: CodeKey, code: string | null | undefined, vars?: Vars): string {
  const c = code ?? '';
  return translate(language, key, { ...vars, code: c === '' ? 'other' : c, label: humanizeCode(c) });
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
  /** The words for a code of the core (`translateCode`): never the raw code. */
  code(key: CodeKey, code: string | null | undefined, vars?: Vars): string;
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
      code: (key, code, vars) => translateCode(language, key, code, vars),
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

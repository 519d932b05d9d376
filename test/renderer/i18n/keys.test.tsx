// @vitest-environment jsdom
import {
  type MessageFormatElement,
  isArgumentElement,
  isNumberElement,
  isPluralElement,
  isSelectElement,
  isTagElement,
  parse,
} from '@formatjs/icu-messageformat-parser';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Language } from '../../../common/contract/contract.js';
import { LanguageSwitch } from '../../../renderer/i18n/LanguageSwitch.js';
import {
  type CodeKey,
  DICTIONARIES,
  type Key,
  LANGUAGES,
  formatBytes,
  formatDate,
  formatNumber,
  formatRelative,
  humanizeCode,
  languageOf,
  t,
  translate,
  translateCode,
  useI18n,
  useI18nStore,
} from '../../../renderer/i18n/index.js';
import { en } from '../../../renderer/i18n/locales/en.js';
import { MODERATION_REASONS } from '../../../renderer/inbox/rules.js';

type Kind = 'plain' | 'number' | 'plural' | 'select';
/** Every argument of an ICU message with its kind (`count:plural`, `name:plain`), nested ones too. */
function argumentsOf(nodes: readonly MessageFormatElement[], into = new Map<string, Kind>()): Map<string, Kind> {
  for (const n of nodes) {
    if (isPluralElement(n)) into.set(n.value, 'plural');
    else if (isSelectElement(n)) into.set(n.value, 'select');
    else if (isNumberElement(n)) into.set(n.value, 'number');
    else if (isArgumentElement(n) && !into.has(n.value)) into.set(n.value, 'plain');
    if (isPluralElement(n) || isSelectElement(n)) for (const o of Object.values(n.options)) argumentsOf(o.value, into);
    if (isTagElement(n)) argumentsOf(n.children, into);
  }
  return into;
}
const ast = (language: Language, key: Key) => parse(DICTIONARIES[language][key], { ignoreTag: true });
const signature = (language: Language, key: Key) => [...argumentsOf(ast(language, key))].map(([name, kind]) => `${name}:${kind}`).sort();
/** The options of a message's top `select` on `code` (the codes it has words for). */
const codesOf = (language: Language, key: Key) => {
  const top = ast(language, key).find((n) => isSelectElement(n) && n.value === 'code');
  return top && isSelectElement(top) ? Object.keys(top.options).sort() : [];
};
const KEYS = Object.keys(en) as Key[];
/** The import's column names, which the person writes in the file as they are: the one snake_case words a message may say. */
const FILE_COLUMNS = /\b(user_product_id|item_id)\b/g;
const CODE_KEYS = KEYS.filter((k) => en[k].startsWith('{code, select, ')) as CodeKey[];

afterEach(() => act(() => useI18nStore.getState().setLanguage('es')));

describe('dictionaries', () => {
  it('have exactly the same keys in es, pt-BR and en', () => {
    const english = Object.keys(en).sort();
    expect(english.length).toBeGreaterThan(100);
    for (const language of LANGUAGES) {
      const keys = Object.keys(DICTIONARIES[language]).sort();
      expect({ language, missing: english.filter((k) => !keys.includes(k)), extra: keys.filter((k) => !english.includes(k)) }).toEqual({
        language,
        missing: [],
        extra: [],
      });
    }
  });

  it('are ICU messages with the same arguments, of the same kinds, in every language', () => {
    for (const key of KEYS) {
      for (const language of LANGUAGES) {
        expect({ key, language, args: signature(language, key) }).toEqual({ key, language, args: signature('en', key) });
      }
    }
  });

  it('every message of every language parses and formats with sample values, never empty, never a brace left', () => {
    for (const language of LANGUAGES) {
      for (const key of KEYS) {
        const args = argumentsOf(ast(language, key));
        const numbers = [0, 1, 2, 21, 1000];
        const codes = [...(args.get('code') === 'select' ? codesOf(language, key) : []), 'some_new_code'];
        for (const n of numbers) {
          for (const code of codes) {
            const vars: Record<string, string | number> = {};
            for (const [name, kind] of args)
              vars[name] = kind === 'plain' ? (name === 'label' ? humanizeCode(code) : `«${name}»`) : kind === 'select' ? code : n;
            const text = translate(language, key, vars);
            expect(text.trim(), `${language} ${key} ${JSON.stringify(vars)}`).not.toBe('');
            expect(text, `${language} ${key} ${JSON.stringify(vars)}`).not.toMatch(/[{}]/);
            expect(text.replace(FILE_COLUMNS, ''), `${language} ${key}`).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
          }
        }
      }
    }
  });

  it('give words to the same codes in every language, and an unknown code humanized', () => {
    expect(CODE_KEYS.length).toBeGreaterThan(5);
    for (const key of CODE_KEYS) {
      for (const language of LANGUAGES) {
        expect({ key, language, codes: codesOf(language, key) }).toEqual({ key, language, codes: codesOf('en', key) });
        expect(translateCode(language, key, 'brand_new_thing'), `${language} ${key}`).toContain('Brand new thing');
        expect(translateCode(language, key, null), `${language} ${key}`).not.toMatch(/[{}_]/);
      }
    }
    expect(translateCode('es', 'stock.listing.type', 'gold_special')).toBe('Clásica');
    expect(translateCode('pt-BR', 'stock.listing.type', 'gold_pro')).toBe('Premium');
    expect(translateCode('en', 'stock.listing.type', 'gold_new_tier')).toBe('Gold new tier');
    expect(translateCode('pt-BR', 'order.logistic', 'self_service')).toBe('Flex (você entrega)');
    expect(translateCode('en', 'composer.blocked', 'blocked_by_claim')).toBe('Messages cannot be sent in this conversation (Blocked by claim).');
  });

  it('humanize a code: underscores to spaces, a capital first letter, ids kept as they are', () => {
    expect(humanizeCode('gold_special')).toBe('Gold special');
    expect(humanizeCode('OUT_OF_PLACE_LANGUAGE')).toBe('Out of place language');
    expect(humanizeCode('no_inventory_id')).toBe('No inventory id');
    expect(humanizeCode('MLA1902')).toBe('MLA1902');
    expect(humanizeCode('paused')).toBe('Paused');
  });

  it('show a key no dictionary has by its last part humanized, never the key', () => {
    expect(translate('en', 'stock.lock.short.some_future_reason' as Key)).toBe('Some future reason');
  });

  it('say "none" in words where a count is 0: pt-BR never says "0 pendente"', () => {
    expect(translate('pt-BR', 'frame.pending', { count: 0 })).toBe('nenhum pendente');
    expect(translate('pt-BR', 'frame.conflicts', { count: 0 })).toBe('nenhum conflito');
    expect(translate('pt-BR', 'frame.pending', { count: 1 })).toBe('1 pendente');
    expect(translate('pt-BR', 'frame.pending', { count: 1500 })).toBe('1.500 pendentes');
    expect(translate('es', 'frame.pending', { count: 0 })).toBe('nada pendiente');
    expect(translate('es', 'frame.conflicts', { count: 0 })).toBe('sin conflictos');
    expect(translate('en', 'frame.conflicts', { count: 0 })).toBe('no conflicts');
    // A count missing from the values is 0 (as before ICU).
    expect(translate('pt-BR', 'frame.pending')).toBe('nenhum pendente');
    // pt-BR's plural rules put 0 in `one`: every plural that reads differently in the singular says 0 with `=0`.
    for (const key of KEYS) {
      const text = DICTIONARIES['pt-BR'][key];
      if (/\bone \{/.test(text)) expect(text, key).toContain('=0 {');
    }
  });

  it('say "Spanish" things in Spanish: "sin código de inventario", not "sin inventory id"', () => {
    expect(translate('es', 'stock.lock.short.no_inventory_id')).toBe('sin código de inventario');
    expect(translate('pt-BR', 'stock.lock.short.no_inventory_id')).toBe('sem código de inventário');
    for (const language of ['es', 'pt-BR'] as const) expect(translate(language, 'stock.lock.no_inventory_id')).not.toContain('inventory');
  });

  it('explain every moderation reason of SPEC 2.8 in one sentence per language, with a warning for the composer', () => {
    expect(MODERATION_REASONS).toHaveLength(7);
    for (const language of LANGUAGES) {
      const sentences = MODERATION_REASONS.map((r) => translate(language, `moderation.reason.${r}`));
      expect(new Set(sentences).size).toBe(7);
      for (const s of sentences) expect(s).toMatch(/^[^.]+\.$/);
      for (const r of MODERATION_REASONS) expect(translate(language, `moderation.warn.${r}`, { match: 'x' })).not.toContain('{');
    }
  });

  it('are not English copies: the languages differ where words exist', () => {
    expect(translate('es', 'composer.send')).toBe('Enviar');
    expect(translate('pt-BR', 'inbox.filter.unread')).toBe('Não lidas');
    expect(translate('en', 'inbox.filter.to_reply')).toBe('To reply');
    const same = KEYS.filter((k) => DICTIONARIES.es[k] === en[k]);
    expect(same.length).toBeLessThan(Object.keys(en).length / 5);
  });
});

describe('t', () => {
  it('fills arguments (numbers in the language) and picks plural forms with the language’s plural rules', () => {
    expect(translate('en', 'inbox.count', { count: 1 })).toBe('1 conversation');
    expect(translate('en', 'inbox.count', { count: 2000 })).toBe('2,000 conversations');
    expect(translate('es', 'inbox.count', { count: 2000 })).toBe('2000 conversaciones');
    expect(translate('pt-BR', 'inbox.unread', { count: 1 })).toBe('1 não lida');
    expect(translate('pt-BR', 'inbox.unread', { count: 3 })).toBe('3 não lidas');
    expect(translate('en', 'composer.counter', { length: 12, max: 350 })).toBe('12 / 350');
    expect(translate('en', 'stock.transfer.done', { units: 1200, from: 'A', to: 'B' })).toBe('Transfer of 1,200 from A to B saved.');
    expect(translate('pt-BR', 'stock.count.scanTotals', { count: 3, units: 1 })).toBe('3 leituras, 1 unidade');
    expect(translate('en', 'stock.csv.apply', { count: 1 })).toBe('Apply 1 change');
    // A missing argument stays visible rather than breaking the sentence.
    expect(translate('en', 'thread.title')).toBe('Conversation with {buyer}');
  });

  it('follows the store: t() outside React and useI18n() inside', () => {
    act(() => useI18nStore.getState().setLanguage('en'));
    expect(t('frame.inbox')).toBe('Inbox');
    act(() => useI18nStore.getState().setLanguage('pt-BR'));
    expect(t('frame.inbox')).toBe('Mensagens');
  });

  it('picks the language from a locale', () => {
    expect(languageOf('pt-BR')).toBe('pt-BR');
    expect(languageOf('pt-PT')).toBe('pt-BR');
    expect(languageOf('en-US')).toBe('en');
    expect(languageOf('es-AR')).toBe('es');
    expect(languageOf('fr-FR')).toBe('es');
    expect(languageOf(undefined)).toBe('es');
  });
});

describe('Intl formatters', () => {
  it('format numbers, sizes and dates in the language', () => {
    expect(formatNumber('en', 1234.5)).toBe('1,234.5');
    expect(formatNumber('pt-BR', 1234.5)).toBe('1.234,5');
    expect(formatBytes('en', 25 * 1024 * 1024)).toBe('25 MB');
    expect(formatBytes('es', 1536)).toBe('1,5 KB');
    expect(formatDate('en', '2026-03-05T12:00:00Z', 'date')).toMatch(/Mar 5, 2026/);
    expect(formatDate('pt-BR', '2026-03-05T12:00:00Z', 'date')).toMatch(/5 de mar\.? de 2026/);
    expect(formatDate('es', 'not a date')).toBe('not a date');
  });

  it('format relative times', () => {
    const now = Date.parse('2026-03-05T12:00:00Z');
    expect(formatRelative('en', now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(formatRelative('es', now - 24 * 3600_000, now)).toBe('ayer');
    expect(formatRelative('pt-BR', now - 3 * 24 * 3600_000, now)).toBe('há 3 dias');
  });
});

function Probe() {
  const { t: tr } = useI18n();
  return <p>{tr('composer.send')}</p>;
}

describe('LanguageSwitch', () => {
  it('switches the words at once and reports the choice', () => {
    const chosen: Language[] = [];
    render(
      <>
        <LanguageSwitch onChange={(l) => chosen.push(l)} />
        <Probe />
      </>,
    );
    expect(screen.getByText('Enviar')).toBeTruthy();
    const select = screen.getByLabelText<HTMLSelectElement>('Idioma');
    act(() => {
      select.value = 'en';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(screen.getByText('Send')).toBeTruthy();
    expect(screen.getByLabelText('Language')).toBeTruthy();
    expect(chosen).toEqual(['en']);
  });
});

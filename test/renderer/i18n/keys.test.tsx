// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Language } from '../../../preload/contract.js';
import { LanguageSwitch } from '../../../renderer/i18n/LanguageSwitch.js';
import {
  DICTIONARIES,
  LANGUAGES,
  type Entry,
  formatBytes,
  formatDate,
  formatNumber,
  formatRelative,
  languageOf,
  t,
  translate,
  useI18n,
  useI18nStore,
} from '../../../renderer/i18n/index.js';
import { en } from '../../../renderer/i18n/locales/en.js';
import { MODERATION_REASONS } from '../../../renderer/inbox/rules.js';

const placeholders = (e: Entry) => {
  const texts: string[] = typeof e === 'string' ? [e] : Object.values(e).filter((v): v is string => typeof v === 'string');
  return [...new Set(texts.flatMap((s) => Array.from(s.matchAll(/\{([A-Za-z0-9_]+)\}/g), (m: RegExpExecArray) => m[1])))].sort();
};

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

  it('use the same placeholders and the same plural shape for every key, with no empty text', () => {
    for (const [key, entry] of Object.entries(en) as [keyof typeof en, Entry][]) {
      for (const language of LANGUAGES) {
        const other = DICTIONARIES[language][key];
        expect({ key, language, plural: typeof other !== 'string' }).toEqual({ key, language, plural: typeof entry !== 'string' });
        expect({ key, language, vars: placeholders(other) }).toEqual({ key, language, vars: placeholders(entry) });
        const texts: unknown[] = typeof other === 'string' ? [other] : Object.values(other);
        for (const text of texts) expect(String(text).trim(), `${language} ${key}`).not.toBe('');
      }
    }
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
    const same = (Object.keys(en) as (keyof typeof en)[]).filter((k) => JSON.stringify(DICTIONARIES.es[k]) === JSON.stringify(en[k]));
    expect(same.length).toBeLessThan(Object.keys(en).length / 5);
  });
});

describe('t', () => {
  it('fills placeholders and picks plural forms with Intl.PluralRules', () => {
    expect(translate('en', 'inbox.count', { count: 1 })).toBe('1 conversation');
    expect(translate('en', 'inbox.count', { count: 2000 })).toBe('2,000 conversations');
    expect(translate('es', 'inbox.count', { count: 2000 })).toBe('2000 conversaciones');
    expect(translate('pt-BR', 'inbox.unread', { count: 1 })).toBe('1 não lida');
    expect(translate('pt-BR', 'inbox.unread', { count: 3 })).toBe('3 não lidas');
    expect(translate('en', 'composer.counter', { length: 12, max: 350 })).toBe('12 / 350');
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

// @vitest-environment jsdom
/**
 * renderer/theme/theme.ts: <html> always carries the resolved theme; "as the system says" follows
 * the system's scheme as it changes, a chosen theme does not; the choice is remembered for the next
 * start's first paint. The system's scheme is a real EventTarget whose `matches` the test sets and
 * whose change event it dispatches, as Chromium's MediaQueryList does.
 */
import { describe, expect, it } from 'vitest';
import { applyRememberedTheme, applyTheme, type SchemeQuery, type ThemeTarget } from '../../../renderer/theme/theme.js';

class Scheme extends EventTarget implements SchemeQuery {
  constructor(public matches: boolean) {
    super();
  }
  set(dark: boolean): void {
    this.matches = dark;
    this.dispatchEvent(new Event('change'));
  }
}

function target(dark: boolean, remembered: string | null = null): ThemeTarget & { scheme: Scheme; stored: Map<string, string> } {
  const stored = new Map<string, string>();
  if (remembered !== null) stored.set('stockroom.theme', remembered);
  const scheme = new Scheme(dark);
  return {
    root: document.createElement('html'),
    storage: { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v) },
    dark: scheme,
    scheme,
    stored,
  };
}

describe('the theme on <html>', () => {
  it('resolves "system" to the system\'s scheme and follows its changes', () => {
    const t = target(true);
    applyTheme('system', t);
    expect(t.root.dataset.theme).toBe('dark');
    t.scheme.set(false);
    expect(t.root.dataset.theme).toBe('light');
    t.scheme.set(true);
    expect(t.root.dataset.theme).toBe('dark');
  });

  it('keeps a chosen theme when the system changes, and follows it again after "system"', () => {
    const t = target(false);
    applyTheme('dark', t);
    expect(t.root.dataset.theme).toBe('dark');
    t.scheme.set(false);
    expect(t.root.dataset.theme).toBe('dark');
    applyTheme('system', t);
    expect(t.root.dataset.theme).toBe('light');
    t.scheme.set(true);
    expect(t.root.dataset.theme).toBe('dark');
    expect(t.stored.get('stockroom.theme')).toBe('system');
  });

  it('paints the remembered choice before the first render, "system" when nothing valid was kept', () => {
    const kept = target(true, 'light');
    expect(applyRememberedTheme(kept)).toBe('light');
    expect(kept.root.dataset.theme).toBe('light');
    const junk = target(true, 'purple');
    expect(applyRememberedTheme(junk)).toBe('system');
    expect(junk.root.dataset.theme).toBe('dark');
  });

  it('is light for "system" where the platform cannot tell the scheme', () => {
    const t = { ...target(true), dark: null };
    applyTheme('system', t);
    expect(t.root.dataset.theme).toBe('light');
  });
});

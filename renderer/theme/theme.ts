/**
 * The theme on <html>: always `data-theme="light|dark"`, the resolved one. "As the system says" is
 * resolved through matchMedia('(prefers-color-scheme: dark)') and follows its change event, so
 * tokens.css writes the dark palette once (under [data-theme='dark']). The choice lives in the
 * settings (the core's settings.json); a copy in localStorage lets the next start paint in it
 * before the first answer from the core arrives.
 */
import { useEffect } from 'react';
import type { StockroomApi } from '../../common/contract/api.js';
import type { Theme } from '../../common/contract/contract.js';

export const THEMES: readonly Theme[] = ['system', 'light', 'dark'];
const KEY = 'stockroom.theme';

const isTheme = (v: unknown): v is Theme => typeof v === 'string' && (THEMES as readonly string[]).includes(v);

/** The part of a MediaQueryList the theme reads: whether the system is dark, and when that changes. */
export type SchemeQuery = Pick<MediaQueryList, 'matches' | 'addEventListener'>;

/** Where the theme is written and remembered (the page's, or a test's). */
export interface ThemeTarget {
  root: HTMLElement;
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** The system's dark scheme; null where the platform cannot say (then "system" is light). */
  dark: SchemeQuery | null;
}

const pageTarget = (): ThemeTarget => {
  let storage: Storage | null = null;
  try {
    storage = window.localStorage;
  } catch {
    // Storage refused (a locked-down profile): the theme arrives with the settings instead.
  }
  const dark = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  return { root: document.documentElement, storage, dark };
};

/** The choice per <html>, read by the one change listener each root gets. */
const chosen = new WeakMap<HTMLElement, Theme>();

const resolve = (theme: Theme, target: ThemeTarget): 'light' | 'dark' => (theme === 'system' ? (target.dark?.matches ? 'dark' : 'light') : theme);

export function applyTheme(theme: Theme, target: ThemeTarget = pageTarget()): void {
  const { root, dark } = target;
  // One listener per root: "system" repaints when the system's setting changes, a chosen theme stays.
  if (!chosen.has(root) && dark) {
    dark.addEventListener('change', () => {
      const now = chosen.get(root);
      if (now === 'system') root.dataset.theme = resolve(now, target);
    });
  }
  chosen.set(root, theme);
  root.dataset.theme = resolve(theme, target);
  try {
    target.storage?.setItem(KEY, theme);
  } catch {
    // Full or refused: only the next start's first paint is affected.
  }
}

/** Before the first render: the theme of the last run, if one was remembered. */
export function applyRememberedTheme(target: ThemeTarget = pageTarget()): Theme {
  const read = (): unknown => {
    try {
      return target.storage?.getItem(KEY);
    } catch {
      return null;
    }
  };
  const remembered = read();
  const theme = isTheme(remembered) ? remembered : 'system';
  applyTheme(theme, target);
  return theme;
}

/** Keeps <html> on the settings' theme: read at start, then on every settings.changed. */
export function useSettingsTheme(api: StockroomApi): void {
  useEffect(() => {
    let live = true;
    void api.settings.get().then((r) => live && r.ok && applyTheme(r.value.theme ?? 'system'));
    const off = api.subscribe('settings.changed', (e) => applyTheme(e.settings.theme ?? 'system'));
    return () => {
      live = false;
      off();
    };
  }, [api]);
}

/**
 * The theme on <html>: `data-theme="light|dark"` for a chosen one, none for "as the system says"
 * (tokens.css follows prefers-color-scheme then). The choice lives in the settings (the core's
 * settings.json); a copy in localStorage lets the next start paint in it before the first answer
 * from the core arrives.
 */
import { useEffect } from 'react';
import type { StockroomApi } from '../../common/contract/api.js';
import type { Theme } from '../../common/contract/contract.js';

export const THEMES: readonly Theme[] = ['system', 'light', 'dark'];
const KEY = 'stockroom.theme';

const isTheme = (v: unknown): v is Theme => typeof v === 'string' && (THEMES as readonly string[]).includes(v);

/** Where the theme is written and remembered (the page's, or a test's). */
export interface ThemeTarget {
  root: HTMLElement;
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

const pageTarget = (): ThemeTarget => {
  let storage: Storage | null = null;
  try {
    storage = window.localStorage;
  } catch {
    // Storage refused (a locked-down profile): the theme arrives with the settings instead.
  }
  return { root: document.documentElement, storage };
};

export function applyTheme(theme: Theme, target: ThemeTarget = pageTarget()): void {
  if (theme === 'system') delete target.root.dataset.theme;
  else target.root.dataset.theme = theme;
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

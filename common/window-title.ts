import type { SessionView } from './views.js';

export const APP_NAME = 'Stockroom';

/** The marketplace's host, for a title (the full address is in Settings). */
function hostOf(baseUrl: string | null): string | null {
  if (!baseUrl) return null;
  try {
    return new URL(baseUrl).host;
  } catch {
    return null;
  }
}

/** The title's words in the app's language (the renderer's dictionaries give them; issue 27). */
export interface TitleWords {
  demo: string;
  seller: (id: number) => string;
  on: (who: string, host: string) => string;
  signedOut: string;
  offline: string;
}

export const ENGLISH_TITLE: TitleWords = {
  demo: 'Demo data',
  seller: (id) => `seller ${id}`,
  on: (who, host) => `${who} on ${host}`,
  signedOut: 'signed out',
  offline: 'offline',
};

/**
 * The window's title: the app and whose data is open, so that a person with two accounts (or the
 * demo and a real one) sees at a glance which one they are editing. One rule for the Electron
 * window, the browser tab and the taskbar entry, in the words given (English when none are).
 */
export function windowTitle(session: SessionView | null, words: TitleWords = ENGLISH_TITLE): string {
  if (!session) return APP_NAME;
  if (session.via === 'demo' || session.mode === 'local-only') return `${APP_NAME} — ${words.demo}`;
  const who = session.user ? (session.user.nickname ?? words.seller(session.user.id)) : null;
  const where = hostOf(session.baseUrl);
  const account = who !== null && where !== null ? words.on(who, where) : (who ?? where ?? '');
  const state = !session.signedIn ? ` (${words.signedOut})` : session.mode === 'offline' ? ` (${words.offline})` : '';
  return account ? `${APP_NAME} — ${account}${state}` : `${APP_NAME}${state}`;
}

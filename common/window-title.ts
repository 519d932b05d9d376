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

/**
 * The window's title: the app and whose data is open, so that a person with two accounts (or the
 * demo and a real one) sees at a glance which one they are editing. One rule for the Electron
 * window, the browser tab and the taskbar entry.
 */
export function windowTitle(session: SessionView | null): string {
  if (!session) return APP_NAME;
  if (session.via === 'demo' || session.mode === 'local-only') return `${APP_NAME} — Demo data`;
  const who = session.user ? (session.user.nickname ?? `seller ${session.user.id}`) : null;
  const where = hostOf(session.baseUrl);
  const account = [who, where].filter((x): x is string => x !== null).join(' on ');
  const state = !session.signedIn ? ' (signed out)' : session.mode === 'offline' ? ' (offline)' : '';
  return account ? `${APP_NAME} — ${account}${state}` : `${APP_NAME}${state}`;
}

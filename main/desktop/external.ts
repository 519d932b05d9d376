/**
 * Which links may leave the app for the system browser (Electron's shell.openExternal). Only https
 * links to hosts on the allow-list (and their subdomains), without credentials in the URL; the
 * configured marketplace's own origin is allowed too, also as http on a loopback address (a local
 * marketplace for development, where the browser sign-in page lives).
 */

/** Hosts whose https pages the app may open: the demo data's brand pages (add the marketplace's web domains here). */
export const DEFAULT_EXTERNAL_HOSTS: readonly string[] = ['example.com'];

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

export interface ExternalPolicy {
  /** Hosts (and their subdomains) whose https links may open. */
  hosts: readonly string[];
  /** Origins allowed as they are (the marketplace's base_url origin, for its sign-in page). */
  origins?: readonly string[];
}

export function externalUrlAllowed(raw: string, policy: ExternalPolicy): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  const origins = (policy.origins ?? []).flatMap((o) => {
    try {
      return [new URL(o).origin];
    } catch {
      return [];
    }
  });
  if (url.protocol === 'http:') return LOOPBACK.has(url.hostname) && origins.includes(url.origin);
  if (url.protocol !== 'https:') return false;
  if (origins.includes(url.origin)) return true;
  const host = url.hostname.toLowerCase();
  return policy.hosts.some((h) => host === h || host.endsWith(`.${h}`));
}

/**
 * Which links may leave the app for the system browser (Electron's shell.openExternal). Only https
 * links to hosts on the allow-list (and their subdomains), without credentials in the URL; and the
 * configured marketplace's sign-in page (its path only, not the rest of its site), also as http
 * on a loopback address (a local marketplace for development). A changed marketplace address thus
 * opens its sign-in page and nothing else.
 */
import { isLoopbackHost, signInPage } from '../../common/remote-address.js';

/** Hosts whose https pages the app may open: the demo data's brand pages (add the marketplace's web domains here). */
export const DEFAULT_EXTERNAL_HOSTS: readonly string[] = ['example.com'];

export interface ExternalPolicy {
  /** Hosts (and their subdomains) whose https links may open. */
  hosts: readonly string[];
  /** Marketplace base addresses whose sign-in page (`<base>/authorization`) may open. */
  signIn?: readonly string[];
}

export function externalUrlAllowed(raw: string, policy: ExternalPolicy): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  const pages = (policy.signIn ?? []).flatMap((base) => {
    try {
      return [signInPage(base)];
    } catch {
      return [];
    }
  });
  const isSignIn = pages.some((p) => p.origin === url.origin && p.pathname === url.pathname);
  if (url.protocol === 'http:') return isLoopbackHost(url.hostname) && isSignIn;
  if (url.protocol !== 'https:') return false;
  if (isSignIn) return true;
  const host = url.hostname.toLowerCase();
  return policy.hosts.some((h) => host === h || host.endsWith(`.${h}`));
}

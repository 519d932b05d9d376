/**
 * Which links may leave the app for the system browser (Electron's shell.openExternal). Only https
 * links to hosts on the allow-list (and their subdomains), without credentials in the URL; and the
 * configured marketplace's sign-in page (its path only, not the rest of its site), also as http
 * on a loopback address (a local marketplace for development). A changed marketplace address thus
 * opens its sign-in page and nothing else.
 */
import { z } from 'zod';
import { isLoopbackHost, signInPage } from '../../common/remote-address.js';

/**
 * Hosts whose https pages the app may open without configuration: none (issue 25: `example.com`
 * shipped here, a domain anyone can point anywhere). The marketplace's web domains are added by
 * STOCKROOM_LINK_HOSTS (see linkHosts).
 */
export const DEFAULT_EXTERNAL_HOSTS: readonly string[] = [];

// A host name of two labels or more: no scheme, port, path, wildcard or address.
const hostName = z.string().regex(/^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'a host name such as marketplace.com');

/** The allow-list: the defaults plus STOCKROOM_LINK_HOSTS (comma-separated host names); a bad entry stops the start. */
export function linkHosts(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  const raw = env.STOCKROOM_LINK_HOSTS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_EXTERNAL_HOSTS;
  const added = raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  const parsed = z.array(hostName).safeParse(added);
  if (!parsed.success)
    throw new Error(`STOCKROOM_LINK_HOSTS: ${parsed.error.issues.map((i) => `${String(added[Number(i.path[0])])} is not ${i.message}`).join('; ')}`);
  return [...DEFAULT_EXTERNAL_HOSTS, ...parsed.data];
}

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

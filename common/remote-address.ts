/**
 * Where the app may send a marketplace token: https anywhere, plain http only to this computer
 * (a marketplace served on loopback for development). Tokens never travel unencrypted over a
 * network. Used by the settings form, the contract's schema and the remote client.
 */
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

export const isLoopbackHost = (hostname: string) => LOOPBACK.has(hostname.toLowerCase());

/** Why `raw` cannot be a marketplace address, or null when it can. */
export function remoteAddressProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'The marketplace address is not a valid URL';
  }
  if (url.username !== '' || url.password !== '') return 'The marketplace address cannot carry a user name or password';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null;
  return 'The marketplace address must use https (plain http only for a marketplace on this computer)';
}

/** The marketplace's sign-in page for a base address (`<base>/authorization`). */
export function signInPage(baseUrl: string): URL {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return new URL('authorization', base);
}

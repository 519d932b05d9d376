/**
 * Redirect URI matching (RFC 6749 3.1.2, RFC 8252 7.3).
 *
 * A requested redirect URI matches when it equals a registered one character for character, or
 * when it is a loopback IP literal URI (`http://127.0.0.1:<port>/...` or `http://[::1]:<port>/...`)
 * whose host, path and query equal those of a registered loopback URI: native apps listen on an
 * ephemeral port, so the port is the one part allowed to differ. `localhost` is not a loopback
 * literal (RFC 8252 8.3) and must match exactly. Fragments and user info never match.
 */
export function redirectUriMatches(requested: string, registered: readonly string[]): boolean {
  if (requested.length === 0 || requested.length > 2048) return false;
  if (requested.includes('#')) return false;
  if (registered.includes(requested)) return true;
  const req = loopback(requested);
  if (!req) return false;
  return registered.some((r) => {
    const reg = loopback(r);
    return reg !== undefined && reg.hostname === req.hostname && reg.pathname === req.pathname && reg.search === req.search;
  });
}

function loopback(uri: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || url.username || url.password || url.hash) return undefined;
  return url.hostname === '127.0.0.1' || url.hostname === '[::1]' ? url : undefined;
}

/** `redirect_uri` with `params` appended to its query (RFC 6749 4.1.2: keep the existing query). */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.append(k, v);
  return url.toString();
}

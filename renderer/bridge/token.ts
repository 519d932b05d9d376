/**
 * The token of this page: from the address's fragment (`#token=...`, then removed from the address
 * bar), else from this tab's session storage (a reload).
 */
export function takeToken(
  location: Pick<Location, 'hash' | 'pathname' | 'search'>,
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  history?: Pick<History, 'replaceState'>,
): string | null {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (match?.[1]) {
    storage.setItem('stockroom.token', match[1]);
    history?.replaceState(null, '', `${location.pathname}${location.search}`);
    return match[1];
  }
  return storage.getItem('stockroom.token');
}

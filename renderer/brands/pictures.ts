import { createContext } from 'react';
import type { PictureView } from '../../common/contract/contract.js';

/**
 * The origins the page's content security policy loads pictures from (`app.info`), empty until
 * known. A picture elsewhere is never asked for: the policy would refuse it with a console error
 * (the demo brands' logos on example.com); its placeholder stands in.
 */
export const PictureHosts = createContext<readonly string[]>([]);

/** Whether the page may load `url` (an https address on one of `hosts`). */
export function pictureAllowed(url: string, hosts: readonly string[]): boolean {
  try {
    return hosts.includes(new URL(url).origin);
  } catch {
    return false;
  }
}

/** Logo names in the order a card and a profile prefer them. */
export const LOGO_NAMES = ['logo', 'small_logo', 'big_logo'] as const;
export const BACKGROUND_NAMES = ['background', 'big_background', 'banner'] as const;

/**
 * The address of a picture the page may load: its https address. A picture with only an http
 * address is treated as missing (the page's content security policy allows https images only, and
 * a mixed-content image would not load anyway).
 */
export function pictureUrl(p: PictureView | undefined): string | null {
  if (!p) return null;
  for (const u of [p.secure_url, p.url]) {
    if (u && /^https:\/\//i.test(u)) return u;
  }
  return null;
}

export function pictureByNames(pictures: readonly PictureView[], names: readonly string[]): PictureView | undefined {
  for (const n of names) {
    const p = pictures.find((x) => x.name === n && pictureUrl(x));
    if (p) return p;
  }
  return undefined;
}

/** Initials for a brand without a usable logo: the first letters of its first two words. */
export function initials(name: string): string {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => /\p{L}|\p{N}/u.test(w));
  const letters = words.slice(0, 2).map((w) => Array.from(w.replace(/^[^\p{L}\p{N}]+/u, ''))[0] ?? '');
  return letters.join('').toLocaleUpperCase() || '?';
}

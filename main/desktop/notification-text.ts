/**
 * Text from a buyer (or the marketplace) made safe for an OS notification. libnotify's servers
 * render a subset of markup in the body (`<a href>`, `<img>`, `<b>`), so on Linux it is escaped;
 * macOS and Windows show the text as it is. Everywhere: control characters go (line breaks and
 * tabs become one space), direction-changing characters go (they can make a message read as
 * something else), and the text is cut at whole characters.
 */

/** Characters of a notification body at most (a notification shows about two lines). */
export const NOTIFICATION_BODY_MAX = 140;

const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
// C0 and C1 controls, and the bidirectional embeddings, overrides and isolates.
// eslint-disable-next-line no-control-regex -- these are the characters removed
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function notificationText(text: string, platform: NodeJS.Platform, max: number = NOTIFICATION_BODY_MAX): string {
  const plain = text.replace(BREAKS, ' ').replace(HIDDEN, '');
  // Array.from splits by code point: a cut never leaves half of a surrogate pair.
  const cut = Array.from(plain).slice(0, max).join('');
  // Lone surrogates would be replaced by the OS anyway; they carry no markup.
  return platform === 'linux' ? cut.replace(/[&<>"']/g, (c) => ENTITIES[c]!) : cut;
}

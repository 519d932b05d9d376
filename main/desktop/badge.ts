/**
 * The unread badge where the platform has none of its own: Windows shows an overlay icon on the
 * taskbar button (Electron's `setBadgeCount` works on macOS and on Linux launchers only). The icon is
 * drawn here, a filled disc as raw BGRA pixels for `nativeImage.createFromBitmap`, so that no image
 * file has to ship for it; the count itself is in the overlay's description (read by screen readers).
 */
export const BADGE_SIZE = 16;

/** BGRA pixels of an anti-aliased disc of `size`×`size` in the marketplace red (#d93025). */
export function badgeBitmap(size = BADGE_SIZE): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  const r = size / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x + 0.5 - r, y + 0.5 - r);
      // One pixel of soft edge: coverage falls from 1 to 0 across the circle's rim.
      const alpha = Math.max(0, Math.min(1, r - d));
      const i = (y * size + x) * 4;
      pixels[i] = 0x25; // B
      pixels[i + 1] = 0x30; // G
      pixels[i + 2] = 0xd9; // R
      pixels[i + 3] = Math.round(alpha * 255);
    }
  }
  return pixels;
}

/** What the badge says, for the overlay's description and the dock (macOS shows the number itself). */
export function badgeDescription(unreadConversations: number): string {
  if (unreadConversations <= 0) return '';
  return unreadConversations === 1 ? '1 conversation with unread messages' : `${unreadConversations} conversations with unread messages`;
}

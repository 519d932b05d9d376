import { describe, expect, it } from 'vitest';
import { BADGE_SIZE, badgeBitmap, badgeDescription } from '../../main/desktop/badge.js';

const alphaAt = (pixels: Buffer, x: number, y: number) => pixels[(y * BADGE_SIZE + x) * 4 + 3]!;

describe('the taskbar overlay badge (Windows has no badge count of its own)', () => {
  it('is a red disc: opaque in the middle, transparent in the corners, BGRA', () => {
    const pixels = badgeBitmap();
    expect(pixels).toHaveLength(BADGE_SIZE * BADGE_SIZE * 4);
    const middle = (8 * BADGE_SIZE + 8) * 4;
    expect([...pixels.subarray(middle, middle + 4)]).toEqual([0x25, 0x30, 0xd9, 255]);
    for (const [x, y] of [
      [0, 0],
      [15, 0],
      [0, 15],
      [15, 15],
    ] as const)
      expect(alphaAt(pixels, x, y)).toBe(0);
    // The rim is soft: some pixels are partly covered.
    expect([...Array(BADGE_SIZE).keys()].some((x) => alphaAt(pixels, x, 1) > 0 && alphaAt(pixels, x, 1) < 255)).toBe(true);
  });

  it('describes the count in words for screen readers, and nothing at zero', () => {
    expect(badgeDescription(0)).toBe('');
    expect(badgeDescription(1)).toBe('1 conversation with unread messages');
    expect(badgeDescription(12)).toBe('12 conversations with unread messages');
  });
});

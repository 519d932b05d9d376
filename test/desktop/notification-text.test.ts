import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_BODY_MAX, notificationText } from '../../main/desktop/notification-text.js';

/**
 * Buyer text reaches an OS notification (issue 25): libnotify renders a subset of markup in the
 * body, so on Linux a buyer's `<a href>` or `<img>` became a link or a fetch. The text is escaped
 * there, stripped of control and direction-changing characters everywhere, and bounded.
 */
const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

describe('notificationText', () => {
  it('escapes markup on Linux and keeps it as text elsewhere', () => {
    const buyer = '<b>hola</b> <a href="https://evil.example/track">mirá</a> <img src="https://evil.example/p.png"/> & más';
    const linux = notificationText(buyer, 'linux');
    expect(linux).not.toMatch(/[<>]/);
    expect(linux).toContain('&lt;a href=&quot;https://evil.example/track&quot;&gt;');
    expect(unescape(linux)).toBe(buyer);
    expect(notificationText(buyer, 'darwin')).toBe(buyer);
    expect(notificationText(buyer, 'win32')).toBe(buyer);
  });

  it('drops control and direction-changing characters and cuts at whole characters', () => {
    expect(notificationText('a\u0000b\u001bc\u202Ed\u2066e\r\nf', 'darwin')).toBe('abcde f');
    const long = '😀'.repeat(200);
    const cut = notificationText(long, 'darwin');
    expect([...cut]).toHaveLength(NOTIFICATION_BODY_MAX);
    expect(cut).toBe('😀'.repeat(NOTIFICATION_BODY_MAX));
  });

  it('for any text: no markup survives on Linux, the text reads back, the length is bounded', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.constantFrom<NodeJS.Platform>('linux', 'darwin', 'win32'), (text, platform) => {
        const out = notificationText(text, platform);
        const plain = platform === 'linux' ? unescape(out) : out;
        expect([...plain].length).toBeLessThanOrEqual(NOTIFICATION_BODY_MAX);
        // eslint-disable-next-line no-control-regex -- the characters that must be gone
        expect(plain).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
        if (platform === 'linux') {
          expect(out).not.toMatch(/[<>"']/);
          // Every & starts one of the five entities GMarkup knows.
          expect(out.replace(/&(amp|lt|gt|quot|apos);/g, '')).not.toContain('&');
        }
      }),
    );
  });
});

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.js';

/** How long a browser stays known for a user after signing in there (the refresh token's life). */
export const DEVICE_TTL_MS = 180 * 24 * 3600_000;
/** The cookie a browser that signed in as user `id` keeps: `sr_dev_<id>`. */
export const DEVICE_COOKIE_PREFIX = 'sr_dev_';

export interface DeviceCookie {
  name: string;
  value: string;
  maxAgeSeconds: number;
}

/**
 * Known-good clients ("device cookies", OWASP's answer to lockout by others' guesses): a browser
 * that signed in as a user gets a token for that user, sealed with an HMAC under a key that never
 * leaves this process. Presenting it with that user's name moves the attempt to the device's own
 * limit, so failures from elsewhere (made-up names, someone guessing this user's password) do not
 * lock that person out. A restart forgets the key: every browser is unknown again until it signs in.
 */
export function knownDevices(clock: Clock) {
  const secret = randomBytes(32);
  const mac = (payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

  return {
    issue(userId: number): DeviceCookie {
      const payload = `${clock.now().toString(36)}.${randomBytes(16).toString('base64url')}`;
      return { name: `${DEVICE_COOKIE_PREFIX}${userId}`, value: `${payload}.${mac(`${userId}.${payload}`)}`, maxAgeSeconds: DEVICE_TTL_MS / 1000 };
    },
    /** The device's own key when `value` is a live token issued for `userId`; undefined otherwise. */
    verify(userId: number, value: string | undefined): string | undefined {
      if (value === undefined || value.length > 200) return undefined;
      const parts = value.split('.');
      if (parts.length !== 3) return undefined;
      const [issued, nonce, sig] = parts as [string, string, string];
      const expected = Buffer.from(mac(`${userId}.${issued}.${nonce}`));
      const given = Buffer.from(sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const at = parseInt(issued, 36);
      if (!Number.isFinite(at) || at + DEVICE_TTL_MS <= clock.now()) return undefined;
      return `device:${nonce}`;
    },
  };
}
export type KnownDevices = ReturnType<typeof knownDevices>;

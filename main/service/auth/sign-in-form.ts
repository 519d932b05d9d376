import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock.js';

/**
 * An authorization request between the page (GET) and the person's answer (POST).
 *
 * Why no server-side "pending" table: a GET is anonymous, so anything it stores is a resource an
 * attacker can exhaust; with a bounded store, 1,000 GETs evicted a real person's open page. The
 * request instead travels in the form, sealed with an HMAC under a key that never leaves this
 * process, and bound to the anti-forgery value of its cookie. A GET stores nothing, so a flood of
 * them evicts nothing. What must be remembered is remembered only after the password was right: the
 * forms already used (so one cannot be replayed), until they expire. A restart forgets the key, and
 * open pages then ask the person to start again.
 */

const sha256Hex = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

export const FORM_TTL_MS = 10 * 60 * 1000;
/** Used forms remembered at most; only a correct password adds one, and each expires with its form. */
const MAX_USED = 10_000;

export interface PendingRequest {
  clientId: number;
  redirectUri: string;
  state: string | undefined;
  challenge: string;
  expiresAt: number;
}

const sealed = z.strictObject({
  v: z.literal(1),
  c: z.number().int().positive(),
  r: z.string().min(1).max(2048),
  s: z.string().max(1024).nullable(),
  ch: z.string().length(43),
  e: z.number().int(),
  // The sha256 of the anti-forgery value: the form works only with the cookie it was issued with.
  x: z.string().length(64),
});

export type OpenResult = { ok: true; request: PendingRequest; key: string } | { ok: false; reason: 'forged' | 'expired' | 'used' };

export function signInForms(clock: Clock) {
  const secret = randomBytes(32);
  /** sha256 of the anti-forgery value of each form already approved, with its expiry. */
  const used = new Map<string, number>();
  const mac = (payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

  function forget(now: number): void {
    for (const [k, expiresAt] of used) if (expiresAt <= now) used.delete(k);
    // Insertion order is expiry order (one lifetime for all): the oldest go first.
    while (used.size >= MAX_USED) used.delete(used.keys().next().value!);
  }

  return {
    /** A fresh anti-forgery value and the sealed request that goes with it. */
    seal(request: Omit<PendingRequest, 'expiresAt'>): { csrf: string; sealed: string } {
      const csrf = randomBytes(32).toString('base64url');
      const body = {
        v: 1,
        c: request.clientId,
        r: request.redirectUri,
        s: request.state ?? null,
        ch: request.challenge,
        e: clock.now() + FORM_TTL_MS,
        x: sha256Hex(csrf),
      };
      const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
      return { csrf, sealed: `${payload}.${mac(payload)}` };
    },

    /** The request of a submitted form, when its seal, its anti-forgery value and its age are right. */
    open(value: string, csrf: string): OpenResult {
      const dot = value.indexOf('.');
      if (dot <= 0 || value.length > 8192) return { ok: false, reason: 'forged' };
      const payload = value.slice(0, dot);
      const given = Buffer.from(value.slice(dot + 1), 'utf8');
      const expected = Buffer.from(mac(payload), 'utf8');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'forged' };
      let json: unknown;
      try {
        json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return { ok: false, reason: 'forged' };
      }
      const body = sealed.safeParse(json);
      const key = sha256Hex(csrf);
      if (!body.success || body.data.x !== key) return { ok: false, reason: 'forged' };
      if (body.data.e <= clock.now()) return { ok: false, reason: 'expired' };
      if (used.has(key)) return { ok: false, reason: 'used' };
      const b = body.data;
      return { ok: true, key, request: { clientId: b.c, redirectUri: b.r, state: b.s ?? undefined, challenge: b.ch, expiresAt: b.e } };
    },

    /** Marks a form answered; false when another answer got there first. */
    markUsed(key: string, expiresAt: number): boolean {
      if (used.has(key)) return false;
      forget(clock.now());
      used.set(key, expiresAt);
      return true;
    },
  };
}
export type SignInForms = ReturnType<typeof signInForms>;

import { createHash, randomBytes } from 'node:crypto';

/** A PKCE pair (RFC 7636): the verifier stays in the app, the challenge goes in the browser URL. */
export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** 32 random bytes as base64url: a 43-character verifier (the RFC's minimum length, 256 bits). */
export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: challengeFor(verifier), method: 'S256' };
}

/** S256: BASE64URL(SHA256(ASCII(verifier))), without padding. */
export function challengeFor(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** An unguessable `state` value (CSRF protection of the redirect, RFC 6749 10.12). */
export function randomState(): string {
  return randomBytes(24).toString('base64url');
}

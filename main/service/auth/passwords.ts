import { randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';

/**
 * Sign-in passwords, stored only as `scrypt$N$r$p$salt$hash` (salt and hash base64url): scrypt is
 * memory-hard, so a stolen database costs an attacker memory as well as time per guess. N = 2^14,
 * r = 8, p = 1 (16 MiB, about 50 ms here) is the floor OWASP names for scrypt; a stored hash with
 * other parameters is still verified with its own, so they can be raised later.
 */
export const SCRYPT = { N: 2 ** 14, r: 8, p: 1, saltBytes: 16, keyBytes: 32 } as const;

/** Passwords longer than this are refused before any hashing (no work for a megabyte guess). */
export const MAX_PASSWORD_LENGTH = 1024;

interface Params {
  N: number;
  r: number;
  p: number;
}

const STORED = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,88})\$([A-Za-z0-9_-]{32,88})$/;

// 128·N·r·p bytes is what scrypt needs; Node refuses above `maxmem` (32 MiB by default).
const maxmem = (q: Params) => 128 * q.N * q.r * q.p + 1024 * 1024;

const encode = (q: Params, salt: Buffer, hash: Buffer) => `scrypt$${q.N}$${q.r}$${q.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;

/** The stored form of a fixture's password, at seed time (synchronous: the load is one transaction). */
export function hashPasswordSync(password: string): string {
  const salt = randomBytes(SCRYPT.saltBytes);
  const hash = scryptSync(password.normalize('NFC'), salt, SCRYPT.keyBytes, { ...SCRYPT, maxmem: maxmem(SCRYPT) });
  return encode(SCRYPT, salt, hash);
}

function derive(password: string, salt: Buffer, keyBytes: number, q: Params): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // The async form runs on libuv's pool: a sign-in never blocks the server's event loop.
    scrypt(password.normalize('NFC'), salt, keyBytes, { ...q, maxmem: maxmem(q) }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltBytes);
  return encode(SCRYPT, salt, await derive(password, salt, SCRYPT.keyBytes, SCRYPT));
}

function parseStored(stored: string): { q: Params; salt: Buffer; hash: Buffer } | undefined {
  const m = STORED.exec(stored);
  if (!m) return undefined;
  const q = { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  // Bounds keep a tampered row from asking for gigabytes of memory.
  const powerOfTwo = q.N >= 2 && (q.N & (q.N - 1)) === 0;
  if (!powerOfTwo || q.N > 2 ** 20 || q.r < 1 || q.r > 32 || q.p < 1 || q.p > 16 || 128 * q.N * q.r * q.p > 256 * 1024 * 1024) return undefined;
  return { q, salt: Buffer.from(m[4]!, 'base64url'), hash: Buffer.from(m[5]!, 'base64url') };
}

/**
 * The hash of a random password nobody kept, with today's parameters: an unknown user costs the
 * same KDF as a known one, from the first attempt on. It can never sign anyone in (see below).
 */
const DUMMY = parseStored('scrypt$16384$8$1$ERcPnssNNTVHbGL1aAtYRQ$drFNFov5_5BEdzspMtT0QyAeMCk1FWIHmdFclpNxlww')!;

/**
 * True when `password` matches `stored`. A user without a password (`stored` null) or with an
 * unreadable one is checked against a dummy hash and answers false, in the same time as a wrong
 * password: the answer never tells whether the account exists.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = stored ? parseStored(stored) : undefined;
  const target = parsed ?? DUMMY;
  const key = await derive(password, target.salt, target.hash.length, target.q);
  return timingSafeEqual(key, target.hash) && parsed !== undefined;
}

import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SCRYPT, hashPassword, hashPasswordSync, verifyPassword } from '../../../main/service/auth/passwords.js';

describe('password hashes (scrypt)', () => {
  it('stores scrypt$N$r$p$salt$hash with a fresh 16-byte salt each time', async () => {
    const a = await hashPassword('correct horse');
    const b = hashPasswordSync('correct horse');
    for (const h of [a, b]) {
      const [name, n, r, p, salt, hash] = h.split('$');
      expect([name, Number(n), Number(r), Number(p)]).toEqual(['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p]);
      expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
      expect(Buffer.from(hash!, 'base64url')).toHaveLength(32);
    }
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horse', b)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
  });

  it('compares canonically composed text: é typed precomposed or combined is one password', async () => {
    const h = await hashPassword('contrase\u00f1a-caf\u00e9');
    expect(await verifyPassword('contrasen\u0303a-cafe\u0301', h)).toBe(true);
  });

  it('no password, an unreadable hash or absurd parameters never verify (and never throw)', async () => {
    const good = await hashPassword('pw-123456');
    const [, , , , salt, hash] = good.split('$');
    for (const stored of [
      null,
      undefined,
      '',
      'plaintext',
      `scrypt$16384$8$1$${salt}`,
      `scrypt$1048577$8$1$${salt}$${hash}`,
      `scrypt$4194304$8$1$${salt}$${hash}`,
      `scrypt$16384$64$1$${salt}$${hash}`,
    ]) {
      expect(await verifyPassword('pw-123456', stored)).toBe(false);
    }
    // Parameters other than today's still verify with their own (so they can be raised later).
    const s = randomBytes(16);
    const stronger = scryptSync('pw-123456', s, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const raised = `scrypt$32768$8$1$${s.toString('base64url')}$${stronger.toString('base64url')}`;
    expect(await verifyPassword('pw-123456', raised)).toBe(true);
    expect(await verifyPassword('pw-1234567', raised)).toBe(false);
  });
});

import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { OperatorRow, OperatorsRepo } from '../../db/repos/operators.js';
import { type AttemptLimit, type AttemptLimiter, attemptLimiter } from '../auth/attempt-limits.js';
import { SCRYPT } from '../auth/passwords.js';
import type { Clock } from '../clock.js';
import { ServiceError, badRequest, conflict, notFound, unauthorized } from '../errors.js';

/**
 * Operators of a shared workstation (issue 27): people working under the one marketplace account,
 * who switch with a short PIN. What an edit records of the operator signed in: the id and the name
 * as it was then (history rows never change afterwards).
 */
export interface OperatorStamp {
  id: number;
  name: string;
}

export const OPERATOR_NAME_MAX = 60;
/** 4 to 8 digits: short enough to type between two scans. */
export const PIN_PATTERN = /^[0-9]{4,8}$/;

/**
 * Wrong PINs: 5 in a row lock that operator for 30 s, then twice as long each time up to 5 min. A
 * 4-digit PIN has 10,000 values, so it is the lock, not the hash, that stops guessing at the
 * keyboard; the salted hash keeps a copied database from giving PINs away in one lookup table.
 */
export const PIN_LIMIT: AttemptLimit = { limit: 5, windowMs: 30_000, maxLockMs: 5 * 60_000 };

export const operatorErrors = {
  wrongPin: () => unauthorized('Wrong PIN'),
  locked: (ms: number) => {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    return new ServiceError(429, 'too_many_requests', `Too many wrong PINs: try again in ${seconds} s`, [{ code: 'retry_after', seconds }]);
  },
  notFound: (id: number) => notFound(`Operator ${id} not found`),
  taken: (name: string) => conflict(`There is already an operator named ${name}`),
};

function derive(pin: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // On libuv's pool: a PIN check never blocks the core's event loop.
    scrypt(pin, salt, SCRYPT.keyBytes, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: 128 * SCRYPT.N * SCRYPT.r * SCRYPT.p + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** A new PIN's stored form: a fresh random salt and the scrypt hash of the PIN with it. */
export async function hashPin(pin: string): Promise<{ salt: Buffer; hash: Buffer }> {
  const salt = randomBytes(SCRYPT.saltBytes);
  return { salt, hash: await derive(pin, salt) };
}

/** Whether `pin` is the operator's, compared in constant time. */
export async function pinMatches(pin: string, row: Pick<OperatorRow, 'pin_salt' | 'pin_hash'>): Promise<boolean> {
  const key = await derive(pin, row.pin_salt);
  return key.length === row.pin_hash.length && timingSafeEqual(key, row.pin_hash);
}

/** The wrong-PIN counts of one running core (kept in memory: a restart forgets a short lock). */
export const pinLimiter = (clock: Clock): AttemptLimiter => attemptLimiter(PIN_LIMIT, clock);

function checkPin(pin: string): string {
  if (!PIN_PATTERN.test(pin)) throw badRequest('A PIN is 4 to 8 digits');
  return pin;
}

export function operatorsService(deps: { repo: OperatorsRepo; clock: Clock; limiter: AttemptLimiter }) {
  const { repo, clock, limiter } = deps;
  const stamp = (r: OperatorRow): OperatorStamp => ({ id: r.id, name: r.name });
  return {
    list: () => repo.active().map((r) => ({ ...stamp(r), createdAt: r.created_at })),

    async add(name: string, pin: string): Promise<OperatorStamp> {
      const n = name.trim().replace(/\s+/g, ' ');
      if (n.length === 0 || n.length > OPERATOR_NAME_MAX) throw badRequest(`An operator's name is 1 to ${OPERATOR_NAME_MAX} characters`);
      if (repo.byName(n)) throw operatorErrors.taken(n);
      const { salt, hash } = await hashPin(checkPin(pin));
      // Checked again after the hashing: another add of the same name may have finished meanwhile.
      if (repo.byName(n)) throw operatorErrors.taken(n);
      return { id: repo.insert({ name: n, pin_salt: salt, pin_hash: hash, created_at: clock.now() }), name: n };
    },

    /** Removed from the list; the history keeps naming them. */
    remove(id: number): void {
      if (!repo.disable(id)) throw operatorErrors.notFound(id);
    },

    /**
     * The operator whose PIN this is, or a refusal: wrong PIN (401), or locked after too many
     * (429 with the seconds left). Attempts being checked count against the limit, so parallel
     * guesses cannot get past it together.
     */
    async verify(id: number, pin: string): Promise<OperatorStamp> {
      const row = repo.byId(id);
      if (!row) throw operatorErrors.notFound(id);
      const key = String(id);
      const wait = limiter.waitMs(key);
      if (wait > 0) throw operatorErrors.locked(wait);
      limiter.begin(key);
      let ok = false;
      try {
        ok = PIN_PATTERN.test(pin) && (await pinMatches(pin, row));
      } finally {
        limiter.end(key, ok ? 'cleared' : 'failed');
      }
      if (!ok) {
        const locked = limiter.waitMs(key);
        throw locked > 0 ? operatorErrors.locked(locked) : operatorErrors.wrongPin();
      }
      // Removed while its PIN was being checked: it can no longer sign in.
      const still = repo.byId(id);
      if (!still) throw operatorErrors.notFound(id);
      return stamp(still);
    },
  };
}
export type OperatorsService = ReturnType<typeof operatorsService>;

/** The history columns of an edit made with `operator` signed in (or none). */
export const operatorColumns = (operator: OperatorStamp | null | undefined) => ({ operator_id: operator?.id ?? null, operator_name: operator?.name ?? null });

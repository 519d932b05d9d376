import { z } from 'zod';
import type { Db } from '../../db/open.js';
import { type IdempotencyRow, idempotencyRepo } from '../../db/repos/idempotency.js';
import type { Clock } from '../clock.js';
import { ServiceError, badRequest } from '../errors.js';
import type { JobRunner } from '../jobs/runner.js';

/**
 * Server-side idempotency (header `X-Idempotency-Key`), so that a client that retries after a
 * lost answer (a reset, a timeout) does not apply its change twice.
 *
 * - Where: `PUT /user-products/{id}/stock/type/*`, `POST /messages/packs/...`,
 *   `POST /messages/attachments`. Without the header those calls behave as before.
 * - Key: 1 to 100 printable ASCII characters (U+0021-U+007E); anything else, or the header sent
 *   twice, is 400 before anything else happens.
 * - What is stored: a successful (2xx) answer (status, body, `x-version`), per (user, key), in the
 *   same transaction as the change itself (for stock and messages: inside the same group-commit op,
 *   so two copies of one request racing each other are serialised and the second one replays).
 *   A non-2xx answer is not stored: a retry after a 409 or a 400 runs again.
 * - Replay: the same status, body and `x-version`, plus `x-idempotent-replay: true`.
 * - A key is bound to the method and path it was first used with: the same key on another
 *   resource is 422 `idempotency_key_reused` (a client bug, never a silent replay of something
 *   else). The body is not compared: a client may rebuild its request (a new version after a 409)
 *   under the same key, and once one attempt succeeded every later one replays that success.
 * - Keys live 24 hours: an older row is ignored (the key is free again) and deleted by the durable
 *   sweep job `idempotency.sweep` (hourly).
 * - Uploads (4.12) stream their body before the row can be written; the key is looked up before
 *   the upload and stored right after it, first writer wins: two racing copies of one upload get
 *   the same attachment id, and the loser's file is an unattached upload that expires in 48 h.
 */
export const IDEMPOTENCY_HEADER = 'x-idempotency-key';
export const REPLAY_HEADER = 'x-idempotent-replay';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 100;
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
export const SWEEP_IDEMPOTENCY = 'idempotency.sweep';
const SWEEP_EVERY_MS = 3600_000;
const SWEEP_BATCH = 5000;
const KEY = /^[\x21-\x7e]{1,100}$/;

/** The stored form of a successful answer. */
export interface StoredResponse {
  status: number;
  /** The JSON body as text; null for an answer without a body (204). */
  body: string | null;
  /** The `x-version` header, when the answer had one. */
  version: string | null;
}

/** How an area's result becomes a stored answer and back. */
export interface ResponseCodec<T> {
  encode(result: T): StoredResponse;
  decode(stored: StoredResponse): T;
}

/**
 * One idempotent request. `run` is called inside the transaction of the change (the group-commit
 * op): it replays a stored answer, or runs `op` and stores its answer when it is a 2xx.
 */
export interface IdempotencyGuard<T> {
  run(op: () => T): T;
  /** True once `run` answered from the store. */
  readonly replayed: boolean;
}

/** Runs `op` through `guard` when there is one (areas call this inside their write). */
export const guarded = <T>(guard: IdempotencyGuard<T> | undefined, op: () => T): T => (guard ? guard.run(op) : op());

export const idempotencyErrors = {
  invalidKey: () => badRequest(`Invalid X-Idempotency-Key header: 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, sent once`),
  reused: (stored: string, now: string) => {
    const route = (binding: string) => binding.split(' #')[0]!;
    return route(stored) === route(now)
      ? new ServiceError(
          422,
          'idempotency_key_reused',
          `The X-Idempotency-Key was already used for a different request to ${route(stored)} (another body or x-version)`,
        )
      : new ServiceError(422, 'idempotency_key_reused', `The X-Idempotency-Key was already used for another request (${route(stored)})`);
  },
};

const is2xx = (status: number) => status >= 200 && status < 300;
const toStored = (r: IdempotencyRow): StoredResponse => ({ status: r.status, body: r.body, version: r.x_version });

export function idempotencyService(db: Db, clock: Clock, jobs: JobRunner) {
  const repo = idempotencyRepo(db);
  const liveAfter = () => clock.now() - IDEMPOTENCY_TTL_MS;

  jobs.register({
    kind: SWEEP_IDEMPOTENCY,
    schema: z.object({}).passthrough(),
    // Idempotent: deletes whatever is expired now; schedules the next sweep unless one is queued.
    run: () => {
      const before = liveAfter();
      while (repo.sweep(before, SWEEP_BATCH) === SWEEP_BATCH) {
        // keep deleting in batches
      }
      db.transaction(() => {
        // This job is still 'running' while it runs: more than one means another sweep is queued.
        if (repo.pendingJobs(SWEEP_IDEMPOTENCY) <= 1) jobs.enqueue(SWEEP_IDEMPOTENCY, {}, SWEEP_EVERY_MS);
      })();
    },
  });
  // The sweep chain starts with the first service over this database.
  db.transaction(() => {
    if (repo.pendingJobs(SWEEP_IDEMPOTENCY) === 0) jobs.enqueue(SWEEP_IDEMPOTENCY, {}, SWEEP_EVERY_MS);
  })();

  function lookup(userId: number, key: string, route: string): StoredResponse | undefined {
    const row = repo.find(userId, key, liveAfter());
    if (!row) return undefined;
    if (row.route !== route) throw idempotencyErrors.reused(row.route, route);
    return toStored(row);
  }

  const rowOf = (userId: number, key: string, route: string, r: StoredResponse): IdempotencyRow => ({
    user_id: userId,
    key,
    route,
    status: r.status,
    body: r.body,
    x_version: r.version,
    created_at: clock.now(),
  });

  return {
    /** The key of a request: null without the header; 400 when malformed or repeated. */
    parseKey(raw: string | string[] | undefined): string | null {
      if (raw === undefined) return null;
      if (Array.isArray(raw) || !KEY.test(raw)) throw idempotencyErrors.invalidKey();
      return raw;
    },

    /** A guard for one request of `userId` on `route` ("PUT /user-products/X/stock/type/seller_warehouse"). */
    guard<T>(userId: number, key: string, route: string, codec: ResponseCodec<T>): IdempotencyGuard<T> {
      let replayed = false;
      return {
        get replayed() {
          return replayed;
        },
        run(op: () => T): T {
          const stored = lookup(userId, key, route);
          if (stored) {
            replayed = true;
            return codec.decode(stored);
          }
          const result = op();
          const response = codec.encode(result);
          if (is2xx(response.status)) repo.store(rowOf(userId, key, route, response));
          return result;
        },
      };
    },

    /** For a request whose change is not one transaction (an upload): the stored answer, if any. */
    lookup,

    /**
     * Stores the answer of such a request unless a racing copy stored one first, and returns the
     * answer every copy must give (the first one stored).
     */
    storeFirst(userId: number, key: string, route: string, response: StoredResponse): StoredResponse {
      if (!is2xx(response.status)) return response;
      return db.transaction(() => {
        if (repo.storeIfAbsent(rowOf(userId, key, route, response), liveAfter())) return response;
        return lookup(userId, key, route) ?? response;
      })();
    },
  };
}
export type IdempotencyService = ReturnType<typeof idempotencyService>;

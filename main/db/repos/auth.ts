import type { Db } from '../open.js';

export interface TokenRow {
  access_token: string;
  user_id: number;
  application_id: number;
  expires_at: number | null;
}

export interface ApplicationRow {
  id: number;
  name: string;
  secret: string | null;
  redirect_uris: string;
}

/** How long the cache trusts that no other connection changed the database before asking again. */
const FOREIGN_CHECK_MS = 100;
/** Tokens kept at most; past that the cache starts over (it refills from the reads that follow). */
const MAX_CACHED_TOKENS = 10_000;

/**
 * Token rows read outside a transaction, kept for the next requests. Every request reads its token
 * first; on its own that read opens and closes a WAL read transaction and costs about 13 µs under
 * load (2 µs inside a transaction), a tenth of a whole stock GET.
 *
 * Never stale for this connection's writes: a TEMP trigger (this connection's alone, so another
 * process or the sqlite3 shell needs nothing registered) clears the cache from inside any INSERT,
 * UPDATE or DELETE on `tokens`, raw SQL included. Another connection's commits show as a new
 * `PRAGMA data_version`, checked at most every FOREIGN_CHECK_MS: a token revoked from another
 * process stops working within 100 ms. Inside a transaction the cache is neither used nor filled
 * (such a read is cheap, and may see rows that are later rolled back). Only found tokens are kept;
 * expiry is checked by the caller on every use.
 */
export class TokenCache {
  private readonly rows = new Map<string, TokenRow>();
  private readonly dataVersion;
  private seenVersion: number;
  private checkedAt: number;

  /** `now` is a monotonic clock in ms (a test's own clock). */
  constructor(
    private readonly db: Db,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck(true);
    this.seenVersion = this.dataVersion.get()!;
    this.checkedAt = now();
    let caches = cachesOn.get(db);
    if (!caches) {
      const all = (caches = new Set());
      cachesOn.set(db, all);
      db.function('stockroom_tokens_changed', () => {
        for (const c of all) c.rows.clear();
        return null;
      });
      for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
        db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS tokens_cache_${op.toLowerCase()} AFTER ${op} ON main.tokens BEGIN SELECT stockroom_tokens_changed(); END`);
      }
    }
    caches.add(this);
  }

  get(token: string, read: (token: string) => TokenRow | undefined): TokenRow | undefined {
    if (this.db.inTransaction) return read(token);
    const now = this.now();
    if (now - this.checkedAt > FOREIGN_CHECK_MS) {
      this.checkedAt = now;
      const version = this.dataVersion.get()!;
      if (version !== this.seenVersion) {
        this.seenVersion = version;
        this.rows.clear();
      }
    }
    const cached = this.rows.get(token);
    if (cached) return cached;
    const row = read(token);
    if (row) {
      if (this.rows.size >= MAX_CACHED_TOKENS) this.rows.clear();
      this.rows.set(token, row);
    }
    return row;
  }
}

/** The caches of each connection, all cleared by its one trigger function. */
const cachesOn = new WeakMap<Db, Set<TokenCache>>();
/** The cache every repo made on a connection shares. */
const tokenCaches = new WeakMap<Db, TokenCache>();

/** Applications and access tokens (SPEC 5). */
export function authRepo(db: Db) {
  const tokenByValue = db.prepare<[string], TokenRow>('SELECT access_token, user_id, application_id, expires_at FROM tokens WHERE access_token = ?');
  let cache = tokenCaches.get(db);
  if (!cache) tokenCaches.set(db, (cache = new TokenCache(db)));
  const tokens = cache;
  const readToken = (token: string) => tokenByValue.get(token);
  const applicationById = db.prepare<[number], ApplicationRow>('SELECT id, name, secret, redirect_uris FROM applications WHERE id = ?');
  const insertApplication = db.prepare<[number, string, string | null, string]>(
    'INSERT INTO applications (id, name, secret, redirect_uris) VALUES (?, ?, ?, ?)',
  );
  const insertToken = db.prepare<[string, number, number, number | null]>(
    'INSERT INTO tokens (access_token, user_id, application_id, expires_at) VALUES (?, ?, ?, ?)',
  );
  return {
    tokenByValue: (token: string) => tokens.get(token, readToken),
    applicationById: (id: number) => applicationById.get(id),
    insertApplication: (a: { id: number; name: string; secret?: string | undefined; redirect_uris?: string[] | undefined }) =>
      insertApplication.run(a.id, a.name, a.secret ?? null, JSON.stringify(a.redirect_uris ?? [])),
    insertToken: (t: { access_token: string; user_id: number; application_id: number; expires_at?: number | null }) =>
      insertToken.run(t.access_token, t.user_id, t.application_id, t.expires_at ?? null),
  };
}
export type AuthRepo = ReturnType<typeof authRepo>;

import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../main/db/open.js';
import { type TokenRow, TokenCache, authRepo } from '../../../main/db/repos/auth.js';

let dir: string;
let file: string;
let db: Db;
let clock: number;
let cache: TokenCache;
let reads: number;

const read = (token: string) => {
  reads++;
  return db.prepare<[string], TokenRow>('SELECT access_token, user_id, application_id, expires_at FROM tokens WHERE access_token = ?').get(token);
};
const lookup = (token: string) => cache.get(token, read);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'token-cache-'));
  file = join(dir, 'marketplace.db');
  db = openDatabase(file);
  db.exec(`INSERT INTO applications (id, name) VALUES (1, 'app');
           INSERT INTO users (id, nickname, registration_date, first_name, last_name, country_id, site_id) VALUES (7, 'S', '2020-01-01', 'S', 'S', 'AR', 'MLA');
           INSERT INTO tokens (access_token, user_id, application_id, expires_at) VALUES ('T1', 7, 1, NULL), ('T2', 7, 1, NULL);`);
  clock = 0;
  reads = 0;
  cache = new TokenCache(db, () => clock);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the token cache', () => {
  it('reads a token once and answers the next lookups from memory', () => {
    expect(lookup('T1')).toMatchObject({ user_id: 7, application_id: 1 });
    expect(lookup('T1')).toMatchObject({ user_id: 7 });
    expect(reads).toBe(1);
  });

  it('never keeps an unknown token: each lookup reads again', () => {
    expect(lookup('NOPE')).toBeUndefined();
    expect(lookup('NOPE')).toBeUndefined();
    expect(reads).toBe(2);
  });

  it('forgets at once whatever this connection writes to tokens, raw SQL included', () => {
    lookup('T1');
    lookup('T2');
    db.prepare("DELETE FROM tokens WHERE access_token = 'T1'").run();
    expect(lookup('T1')).toBeUndefined();
    db.prepare("UPDATE tokens SET expires_at = 123 WHERE access_token = 'T2'").run();
    expect(lookup('T2')).toMatchObject({ expires_at: 123 });
  });

  it('neither uses nor fills the cache inside a transaction: a rolled-back token is never served', () => {
    db.prepare('BEGIN').run();
    db.prepare("INSERT INTO tokens (access_token, user_id, application_id) VALUES ('T3', 7, 1)").run();
    expect(lookup('T3')).toMatchObject({ user_id: 7 });
    db.prepare('ROLLBACK').run();
    expect(lookup('T3')).toBeUndefined();
    // Inside a transaction every lookup reads (the transaction's own view).
    lookup('T1');
    const before = reads;
    db.transaction(() => lookup('T1'))();
    expect(reads).toBe(before + 1);
  });

  it("sees another connection's changes once the foreign-change check is due (100 ms)", () => {
    expect(lookup('T1')).toBeDefined();
    const other = new Database(file);
    other.prepare("DELETE FROM tokens WHERE access_token = 'T1'").run();
    other.close();
    clock += 50;
    expect(lookup('T1'), 'within the window the cached row still answers').toBeDefined();
    clock += 51;
    expect(lookup('T1')).toBeUndefined();
  });

  it('every repo made on a connection shares one cache, and a write through any reaches every cache', () => {
    const a = authRepo(db);
    const b = authRepo(db);
    expect(a.tokenByValue('T1')).toBeDefined();
    // This test's own cache is a second one on the connection, and still hears of the writes.
    expect(lookup('T1')).toBeDefined();
    b.insertToken({ access_token: 'T4', user_id: 7, application_id: 1 });
    db.prepare("DELETE FROM tokens WHERE access_token = 'T1'").run();
    expect(a.tokenByValue('T1')).toBeUndefined();
    expect(a.tokenByValue('T4')).toMatchObject({ user_id: 7 });
    expect(lookup('T1')).toBeUndefined();
  });
});

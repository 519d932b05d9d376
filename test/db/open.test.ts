import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/db/open.js';
import { migrations } from '../../main/db/migrations/index.js';

describe('openDatabase', () => {
  it('uses WAL, foreign keys and applies every numbered migration once', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'db-')), 'a.db');
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    const last = migrations[migrations.length - 1]!.version;
    expect(db.pragma('user_version', { simple: true })).toBe(last);
    db.close();
    // Reopening applies nothing twice (a second CREATE TABLE would throw).
    const again = openDatabase(file);
    expect(again.pragma('user_version', { simple: true })).toBe(last);
    again.close();
  });

  it('migrations are numbered in increasing order', () => {
    const versions = migrations.map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('refuses a negative quantity at the storage level too', () => {
    const db = openDatabase(':memory:');
    db.prepare(
      "INSERT INTO users (id, nickname, registration_date, first_name, last_name, country_id, site_id) VALUES (1, 'a', '2020-01-01', 'a', 'b', 'AR', 'MLA')",
    ).run();
    db.prepare("INSERT INTO user_products (id, user_id) VALUES ('U1', 1)").run();
    expect(() => db.prepare("INSERT INTO stock_locations (user_product_id, type, quantity, position) VALUES ('U1', 'selling_address', -1, 0)").run()).toThrow(
      /CHECK/,
    );
  });
});

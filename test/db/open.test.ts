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

  it('keeps messages only under the indexes its reads use, and still refuses a message of an unknown order (migration 020)', () => {
    const db = openDatabase(':memory:');
    const indexes = db
      .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' AND sql IS NOT NULL ORDER BY name")
      .pluck()
      .all();
    expect(indexes).toEqual(['messages_by_pack', 'messages_by_sender_text', 'messages_by_seq', 'messages_unread']);
    db.prepare(
      "INSERT INTO users (id, nickname, registration_date, first_name, last_name, country_id, site_id) VALUES (1, 'a', '2020-01-01', 'a', 'b', 'AR', 'MLA')",
    ).run();
    expect(() =>
      db
        .prepare(
          "INSERT INTO messages (id, order_id, from_user_id, to_user_id, pack_key, site_id, text, date_created, date_received, moderation_status) VALUES ('m1', 999, 1, 1, 999, 'MLA', 'hola', '2026-01-01', '2026-01-01', 'clean')",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
  });
});

import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRemoteValuesMigration } from '../../main/db/migrations/023-open-remote-values.js';
import { migrations } from '../../main/db/migrations/index.js';
import { openDatabase } from '../../main/db/open.js';
import { inboxSearchRepo } from '../../main/db/repos/inbox-search.js';

/**
 * Migration 023 (issue 25): order statuses and moderation statuses and reasons are open, as the
 * marketplace sends them. SQLite cannot alter a CHECK, so orders and messages are rebuilt: every
 * row, rowid (the full-text index's key), index, trigger and reference must come out as it was.
 */
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A database at the version just before 023, with orders, messages, an attachment and an order line. */
function before023(): string {
  const dir = mkdtempSync(join(tmpdir(), 'db-023-'));
  dirs.push(dir);
  const file = join(dir, 'old.db');
  const old = new Database(file);
  old.pragma('foreign_keys = ON');
  const earlier = migrations.filter((m) => m.version < openRemoteValuesMigration.version);
  for (const m of earlier) old.exec(m.sql);
  old.pragma(`user_version = ${earlier.at(-1)!.version}`);
  old.exec(`
    INSERT INTO users (id, nickname, registration_date, first_name, last_name, country_id, site_id) VALUES
      (1, 'S', '2020-01-01', 'A', 'S', 'AR', 'MLA'), (2, 'B', '2020-01-01', 'M', 'G', 'AR', 'MLA');
    INSERT INTO orders (id, pack_id, seller_id, buyer_id, site_id, status, logistic_type, total_amount) VALUES
      (10, NULL, 1, 2, 'MLA', 'paid', 'cross_docking', 12.5), (11, 77, 1, 2, 'MLA', 'cancelled', 'fulfillment', NULL);
    INSERT INTO order_items (order_id, position, item_id, title, quantity, unit_price, currency_id) VALUES (10, 0, 'MLA1', 'Item', 1, 12.5, 'ARS');
    INSERT INTO messages (id, order_id, from_user_id, to_user_id, text, moderation_status, moderation_reason) VALUES
      ('gone', 10, 1, 2, 'x', 'clean', NULL);
    DELETE FROM messages WHERE id = 'gone';
    INSERT INTO messages (id, order_id, from_user_id, to_user_id, text, moderation_status, moderation_reason) VALUES
      ('a', 10, 1, 2, 'envío listo', 'clean', NULL), ('b', 10, 2, 1, 'gracias', 'rejected', 'PERSONAL_DATA');
    INSERT INTO attachments (id, uploader_id, site_id, original_filename, media_type, size, created_at, message_id, position)
      VALUES ('f1', 1, 'MLA', 'a.pdf', 'application/pdf', 3, 0, 'a', 0);
  `);
  old.close();
  return file;
}

const schemaOf = (db: Database.Database) =>
  db
    .prepare<[], { type: string; name: string; tbl_name: string; sql: string }>(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY name",
    )
    .all();

describe('migration 023: values the marketplace adds are stored as sent', () => {
  it('keeps every row, rowid, index, trigger and reference, and accepts unknown values', () => {
    const file = before023();
    const old = new Database(file, { readonly: true });
    const indexesAndTriggers = schemaOf(old);
    const rows = old.prepare('SELECT rowid, * FROM messages ORDER BY rowid').all();
    const orders = old.prepare('SELECT * FROM orders ORDER BY id').all();
    old.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    // Every index and trigger of before is there unchanged; later migrations (028, 030) add their
    // own, and 033 redefines the product count's triggers (they keep a change number too).
    const redefined = new Set(['user_product_counts_delete', 'user_product_counts_insert', 'user_product_counts_move']);
    const names = new Set(indexesAndTriggers.map((r) => r.name));
    expect(schemaOf(db).filter((r) => names.has(r.name) && !redefined.has(r.name))).toEqual(indexesAndTriggers.filter((r) => !redefined.has(r.name)));
    expect(
      schemaOf(db)
        .filter((r) => redefined.has(r.name))
        .map((r) => r.name),
    ).toEqual([...redefined]);
    expect(db.prepare('SELECT rowid, * FROM messages ORDER BY rowid').all()).toEqual(rows);
    expect(db.prepare('SELECT * FROM orders ORDER BY id').all()).toEqual(orders);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(inboxSearchRepo(db).messagesMatching('envio')).toEqual(['a']);

    db.prepare("INSERT INTO orders (id, seller_id, buyer_id, site_id, status, logistic_type) VALUES (12, 1, 2, 'MLA', 'partially_refunded', 'drone')").run();
    db.prepare(
      "INSERT INTO messages (id, order_id, from_user_id, to_user_id, text, moderation_status, moderation_reason) VALUES ('c', 12, 2, 1, 'hola', 'under_review', 'AI_FLAGGED_2031')",
    ).run();
    expect(db.prepare("SELECT pack_key, seq FROM messages WHERE id = 'c'").get()).toEqual({ pack_key: 12, seq: 3 });
    // References still hold both ways.
    expect(() => db.prepare("INSERT INTO messages (id, order_id, from_user_id, to_user_id) VALUES ('d', 999, 1, 2)").run()).toThrow(/FOREIGN KEY/);
    expect(() => db.prepare('DELETE FROM orders WHERE id = 10').run()).toThrow(/FOREIGN KEY/);
    expect(() => db.prepare("INSERT INTO orders (id, seller_id, buyer_id, site_id, status, logistic_type) VALUES (13, 1, 2, 'MLA', '', 'x')").run()).toThrow(
      /CHECK/,
    );
    db.close();
  });

  it('a new database has the open columns too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'db-023-'));
    dirs.push(dir);
    const db = openDatabase(join(dir, 'new.db'));
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'messages'").pluck().get()).not.toContain("'PERSONAL_DATA'");
    db.close();
  });
});

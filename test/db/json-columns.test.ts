import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CorruptedColumnError, jsonObjectColumn, numberListColumn, parseColumn, stringListColumn } from '../../main/db/json-columns.js';
import { openDatabase, type Db } from '../../main/db/open.js';
import { mirrorRepo } from '../../main/db/repos/mirror.js';
import { messagesRepo } from '../../main/db/repos/messages.js';
import { usersRepo } from '../../main/db/repos/users.js';
import { ServiceError } from '../../main/service/errors.js';
import { tempDirs } from '../support/temp-dir.js';

const tempDir = tempDirs('json-columns-');

const SELLER = 1;
const BUYER = 2;
const PACK = 10;

const user = (id: number, tags: string[]) => ({
  id,
  nickname: `n${id}`,
  registration_date: '2020-01-01',
  first_name: 'a',
  last_name: 'b',
  gender: '',
  country_id: 'AR',
  site_id: 'MLA',
  tags,
});

/** A database file with two users, one store and a pack of three messages, written as the app writes them. */
function seeded(): { file: string; db: Db } {
  const file = join(tempDir(), 'stockroom.db');
  const db = openDatabase(file);
  const users = usersRepo(db);
  users.insert(user(SELLER, ['normal', 'brand']));
  users.insert(user(BUYER, []));
  mirrorRepo(db).upsertStore({
    id: 'S1',
    user_id: String(SELLER),
    description: 'Depósito',
    status: 'active',
    tags: ['stock_location'],
    network_node_id: 'N1',
    location: { address_line: 'Calle 1', city: { name: 'CABA' } },
  });
  db.prepare("INSERT INTO orders (id, seller_id, buyer_id, site_id, status, logistic_type) VALUES (?, ?, ?, 'MLA', 'paid', 'cross_docking')").run(
    PACK,
    SELLER,
    BUYER,
  );
  const message = db.prepare(
    `INSERT INTO messages (id, order_id, from_user_id, to_user_id, pack_key, site_id, client_id, text, date_created, date_received, moderation_status, seq)
     VALUES (?, ?, ?, ?, ?, 'MLA', 77, ?, ?, ?, 'clean', (SELECT coalesce(max(seq), 0) + 1 FROM messages))`,
  );
  for (let i = 0; i < 3; i++) {
    const date = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
    message.run(i.toString(16).padStart(32, '0'), PACK, SELLER, BUYER, PACK, `texto ${i}`, date, date);
  }
  return { file, db };
}

/** The error `read` throws (it must throw). */
function thrown(read: () => unknown): unknown {
  try {
    read();
  } catch (e) {
    return e;
  }
  throw new Error('expected the read to throw');
}

const tagsOf = (db: Db, id: number) => usersRepo(db).byId(id)!.tags;
const locationOf = (db: Db, id: string) => db.prepare<[string], string>('SELECT location FROM stores WHERE id = ?').pluck().get(id)!;

describe('JSON columns read from a database file (issue 26)', () => {
  it('reads back what the app wrote, after the file is closed and opened again', () => {
    const { file, db } = seeded();
    db.close();
    const again = openDatabase(file);
    expect(parseColumn(stringListColumn, tagsOf(again, SELLER), 'users.tags')).toEqual(['normal', 'brand']);
    expect(parseColumn(stringListColumn, tagsOf(again, BUYER), 'users.tags')).toEqual([]);
    expect(parseColumn(jsonObjectColumn, locationOf(again, 'S1'), 'stores.location')).toEqual({ address_line: 'Calle 1', city: { name: 'CABA' } });
    // The repo that parses a JSON read (a reader's order of a pack) pages as before.
    const page = messagesRepo(again).pageRows(PACK, SELLER, 2, 0);
    expect(page.total).toBe(3);
    expect(page.messages.map((m) => m.text)).toEqual(['texto 2', 'texto 1']);
    again.close();
  });

  it('a column that is not JSON (written by raw SQL) is a clear error naming the table and column, not a ServiceError', () => {
    const { file, db } = seeded();
    db.prepare('UPDATE users SET tags = ? WHERE id = ?').run('["normal", "bra', SELLER);
    db.close();
    const again = openDatabase(file);
    const e = thrown(() => parseColumn(stringListColumn, tagsOf(again, SELLER), 'users.tags'));
    expect(e).toBeInstanceOf(CorruptedColumnError);
    expect(e).not.toBeInstanceOf(ServiceError);
    expect(e).toMatchObject({ column: 'users.tags', message: expect.stringMatching(/^Corrupted database: users\.tags does not hold JSON \(/) });
    // The other user's row is intact and still reads.
    expect(parseColumn(stringListColumn, tagsOf(again, BUYER), 'users.tags')).toEqual([]);
    again.close();
  });

  it('JSON of another shape (written by raw SQL) is a clear error naming the table, the column and what is wrong', () => {
    const { db } = seeded();
    db.prepare('UPDATE users SET tags = ? WHERE id = ?').run('["normal", 7]', SELLER);
    db.prepare('UPDATE stores SET location = ? WHERE id = ?').run('["Calle 1"]', 'S1');
    const tags = thrown(() => parseColumn(stringListColumn, tagsOf(db, SELLER), 'users.tags'));
    expect(tags).toBeInstanceOf(CorruptedColumnError);
    expect((tags as Error).message).toMatch(/^Corrupted database: users\.tags does not hold what the app writes there: .*expected string.*\n?.*\[1\]/s);
    const location = thrown(() => parseColumn(jsonObjectColumn, locationOf(db, 'S1'), 'stores.location'));
    expect((location as Error).message).toMatch(/^Corrupted database: stores\.location does not hold what the app writes there: .*expected record/s);
    db.close();
  });

  it('a pack whose message seq was corrupted (raw SQL) fails its page with an error naming messages.seq', () => {
    const { file, db } = seeded();
    db.prepare('UPDATE messages SET seq = ? WHERE seq = 2').run('two');
    db.close();
    const again = openDatabase(file);
    const e = thrown(() => messagesRepo(again).pageRows(PACK, SELLER, 2, 0));
    expect(e).toBeInstanceOf(CorruptedColumnError);
    expect(e).not.toBeInstanceOf(ServiceError);
    expect((e as CorruptedColumnError).column).toMatch(/^messages\.seq/);
    expect((e as Error).message).toMatch(/^Corrupted database: messages\.seq .*does not hold what the app writes there: .*expected number/s);
    again.close();
  });

  it('the message names the problem, not the stored text, and keeps it short', () => {
    const text = `[${'"x",'.repeat(10_000)}`;
    const e = thrown(() => parseColumn(numberListColumn, text, 'messages.seq'));
    expect((e as Error).message.length).toBeLessThan(400);
    const many = thrown(() => parseColumn(numberListColumn, JSON.stringify(Array.from({ length: 10_000 }, () => 'x')), 'messages.seq'));
    expect((many as Error).message.length).toBeLessThan(400);
  });
});

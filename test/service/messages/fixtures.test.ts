import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../main/db/open.js';
import { FixtureError, loadFixtures, parseFixtures } from '../../../main/fixtures/load.js';
import type { FixtureFile } from '../../../main/fixtures/schema.js';
import { textHash } from '../../../main/service/messages/messages.js';
import { demo, demoFixtures } from '../../support/fixtures.js';
import { demoMessages, demoOrders, messageFixture, messageId, orderFixture } from '../../support/messages.js';

const problem = (f: FixtureFile): string => {
  try {
    parseFixtures(f);
  } catch (e) {
    if (e instanceof FixtureError) return e.message;
    throw e;
  }
  return 'ok';
};
const load = (f: FixtureFile = demoFixtures()) => {
  const db = openDatabase(':memory:');
  loadFixtures(db, parseFixtures(f));
  return db;
};

describe('fixture rules for orders and messages', () => {
  it('the demo data passes', () => {
    expect(problem(demoFixtures())).toBe('ok');
  });

  it('message ids are 32 lower-case hex characters', () => {
    const f = demoFixtures();
    f.messages!.push(messageFixture({ id: 'MSG-1', order_id: demoOrders.packed.id }));
    expect(problem(f)).toBe('fixtures: messages[4].id: a message id is 32 lower-case hexadecimal characters');
  });

  it('a reason only on rejected messages', () => {
    const f = demoFixtures();
    f.messages!.push(messageFixture({ id: messageId(1), order_id: demoOrders.packed.id, moderation: { status: 'clean', reason: 'PERSONAL_DATA' } }));
    expect(problem(f)).toBe('fixtures: messages[4].moderation.reason: a reason applies to a rejected message only');
  });

  it('the orders of a pack share seller, buyer and site', () => {
    const f = demoFixtures();
    f.orders!.push(orderFixture({ id: 7, pack_id: demoOrders.packed.pack, site_id: 'MLB' }));
    expect(problem(f)).toMatch(/^fixtures: orders\[5\]: orders of pack 2000003000001 must share seller, buyer and site/);
    const g = demoFixtures();
    g.orders!.push(orderFixture({ id: 7, pack_id: demoOrders.packed.pack, buyer_id: demo.other.id }));
    expect(problem(g)).toMatch(/^fixtures: orders\[5\]: orders of pack/);
  });

  it('a pack_id may not be the id of an order outside the pack', () => {
    const f = demoFixtures();
    f.orders!.push(orderFixture({ id: 7, pack_id: demoOrders.delivered.id }));
    expect(problem(f)).toBe(`fixtures: orders[5].pack_id: pack ${demoOrders.delivered.id} is also the id of an order without a pack`);
  });

  it('attachment file names are unique', () => {
    const f = demoFixtures();
    const file = {
      filename: 'a.pdf',
      original_filename: 'a.pdf',
      type: 'application/pdf',
      size: 1,
      potential_security_threat: false,
      creation_date: '2026-01-01T00:00:00Z',
    };
    f.messages!.push(messageFixture({ id: messageId(1), order_id: demoOrders.packed.id, attachments: [file] }));
    f.messages!.push(messageFixture({ id: messageId(2), order_id: demoOrders.packed.id, attachments: [file] }));
    expect(problem(f)).toBe('fixtures: messages[5].attachments[0].filename: duplicate attachment a.pdf');
  });
});

describe('loading orders and messages', () => {
  it('stores the dates, pack key, site, hash and first-message flag; messages go in by date', () => {
    const f = demoFixtures();
    // Listed first but dated last: still not the first message of its pack.
    f.messages!.unshift(messageFixture({ id: messageId(9), order_id: demoOrders.packed.id, date_created: '2026-12-01T00:00:00-03:00' }));
    const db = load(f);
    const rows = db
      .prepare(
        'SELECT id, pack_key, site_id, date_created, date_available, date_notified, date_read, moderation_status, moderation_source, moderation_date, conversation_first_message, text_hash, seq FROM messages ORDER BY seq',
      )
      .all();
    expect(rows.map((r) => (r as { id: string }).id)).toEqual([
      demoMessages.buyerNonModerated,
      demoMessages.buyerQuestion,
      demoMessages.sellerAnswer,
      demoMessages.buyerRejected,
      messageId(9),
    ]);
    expect(rows[1]).toEqual({
      id: demoMessages.buyerQuestion,
      pack_key: demoOrders.packed.pack,
      site_id: 'MLA',
      date_created: '2026-11-18T13:05:00.000Z',
      date_available: '2026-11-18T13:05:01.000Z',
      date_notified: null,
      date_read: null,
      moderation_status: 'clean',
      moderation_source: 'online',
      moderation_date: '2026-11-18T13:05:01.000Z',
      conversation_first_message: 1,
      text_hash: textHash('Hola, ¿me confirmás si el termo viene con funda?'),
      seq: 2,
    });
    expect(rows[0]).toMatchObject({
      pack_key: demoOrders.delivered.id,
      moderation_status: 'non_moderated',
      moderation_source: null,
      moderation_date: null,
      date_available: '2024-01-05T10:00:00.000Z',
      conversation_first_message: 1,
    });
    expect(rows[3]).toMatchObject({ moderation_status: 'rejected', date_available: null, conversation_first_message: 0 });
    expect(rows[4]).toMatchObject({ date_created: '2026-12-01T03:00:00.000Z', conversation_first_message: 0 });
    db.close();
  });

  it('fixture attachments are stored in the attachments table, linked to their message', () => {
    const f = demoFixtures();
    const file = {
      filename: 'f1.pdf',
      original_filename: 'Factura.pdf',
      type: 'application/pdf',
      size: 10,
      potential_security_threat: false,
      creation_date: '2026-01-01T00:00:00Z',
    };
    f.messages!.push(messageFixture({ id: messageId(1), order_id: demoOrders.packed.id, attachments: [file] }));
    const db = load(f);
    expect(db.prepare('SELECT id, message_id, uploader_id, site_id, sha256 FROM attachments').all()).toEqual([
      { id: 'f1.pdf', message_id: messageId(1), uploader_id: demo.buyer.id, site_id: 'MLA', sha256: null },
    ]);
    db.close();
  });

  it('a message row inserted with the contract columns only gets its pack, site and sequence from its order', () => {
    const db = load();
    db.prepare('INSERT INTO messages (id, order_id, from_user_id, to_user_id) VALUES (?, ?, ?, ?)').run(
      messageId(5),
      demoOrders.delivered.id,
      demo.seller.id,
      demo.buyer.id,
    );
    expect(db.prepare('SELECT pack_key, site_id, seq, moderation_status, status FROM messages WHERE id = ?').get(messageId(5))).toEqual({
      pack_key: demoOrders.delivered.id,
      site_id: 'MLA',
      seq: 5,
      moderation_status: 'pending',
      status: 'available',
    });
    db.close();
  });
});

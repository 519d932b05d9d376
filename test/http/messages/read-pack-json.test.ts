import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demo } from '../../support/fixtures.js';
import { extraOrders, messageFixture, messageId, messagingFixtures, packPath, sellerSends } from '../../support/messages.js';
import { type TestServer, startTestServer } from '../../support/server.js';

/**
 * GET /messages/packs/... answers JSON built by SQLite from what the repo keeps of the pack
 * (issue 17): byte for byte what JSON.stringify of the service's `list` answers, after any write.
 */
const PACK = extraOrders.twoOrders.pack;
const TEXTS = ['Hola, ¿llegó?', 'comillas " y \\ barra', 'línea\nnueva\ttab', 'emoji 😀 👍🏽', 'ñandú “curvas” €', ''];
const STATUSES = ['clean', 'rejected', 'pending', 'non_moderated'] as const;

const fixtures = () =>
  messagingFixtures({
    messages: Array.from({ length: 24 }, (_, i) =>
      messageFixture({
        id: messageId(0x100 + i),
        order_id: i % 3 === 0 ? extraOrders.twoOrders.second : extraOrders.twoOrders.id,
        from_user_id: i % 2 ? demo.seller.id : demo.buyer.id,
        to_user_id: i % 2 ? demo.buyer.id : demo.seller.id,
        text: TEXTS[i % TEXTS.length]! || 'x',
        // Two messages in the same minute: seq breaks the tie.
        date_created: new Date(Date.UTC(2026, 10, 1, 10, Math.floor(i / 2) * 2 + (i % 4 === 1 ? 0 : i % 2))).toISOString(),
        moderation: STATUSES[i % 4] === 'pending' ? { status: 'pending' } : { status: STATUSES[i % 4]!, source: 'online' },
        ...(i === 7
          ? {
              attachments: [
                {
                  filename: 'f.pdf',
                  original_filename: 'factura.pdf',
                  type: 'application/pdf',
                  size: 10,
                  potential_security_threat: false,
                  creation_date: '2026-11-01T10:00:00Z',
                },
              ],
            }
          : {}),
      }),
    ),
  });

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer(fixtures());
});
afterEach(() => server.close());

const principals = [
  { token: demo.seller.token, principal: { userId: demo.seller.id, applicationId: demo.app } },
  { token: demo.buyer.token, principal: { userId: demo.buyer.id, applicationId: demo.app } },
];

/** The raw answer over HTTP, and what JSON.stringify makes of the service's `list` for the same read. */
async function both(token: string, principal: { userId: number; applicationId: number }, query: string) {
  const res = await fetch(`${server.url}${packPath(PACK)}?${query}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  const q = Object.fromEntries(new URLSearchParams(query));
  const listed = JSON.stringify(await server.service.messages.list(principal, String(PACK), String(demo.seller.id), { ...q, mark_as_read: 'false' }));
  return { status: res.status, type: res.headers.get('content-type'), text, listed };
}

describe('GET /messages/packs/{pack_id}/sellers/{user_id} as JSON text (issue 17)', () => {
  it('answers exactly the bytes of the service list for each reader, page and offset, attachments included', async () => {
    for (const { token, principal } of principals) {
      for (const query of [
        'mark_as_read=false',
        'limit=5&mark_as_read=false',
        'limit=4&offset=3&mark_as_read=false',
        'limit=100&offset=20&mark_as_read=false',
        'offset=99&mark_as_read=false',
      ]) {
        const r = await both(token, principal, query);
        expect(r.status).toBe(200);
        expect(r.type).toBe('application/json; charset=utf-8');
        expect(r.text).toBe(r.listed);
      }
    }
    // The page holding the message with an attachment lists it.
    const all = JSON.parse((await both(demo.seller.token, principals[0]!.principal, 'limit=100&mark_as_read=false')).text) as {
      messages: { id: string; message_attachments: unknown[] | null }[];
    };
    expect(all.messages.find((m) => m.id === messageId(0x107))!.message_attachments).toHaveLength(1);
  });

  it('marks the pack read as before and answers the marked page; a later read changes nothing', async () => {
    const unread = () =>
      server.db.prepare('SELECT count(*) AS n FROM messages WHERE pack_key = ? AND date_read IS NULL AND to_user_id = ?').get(PACK, demo.seller.id) as {
        n: number;
      };
    expect(unread().n).toBeGreaterThan(0);
    // Read once without marking, so that the page is kept as it was before the marking.
    const unmarked = await both(demo.seller.token, principals[0]!.principal, 'limit=6&mark_as_read=false');
    expect(unmarked.text).toBe(unmarked.listed);
    const first = await both(demo.seller.token, principals[0]!.principal, 'limit=6');
    expect(first.text).not.toBe(unmarked.text);
    expect(first.text).toBe(first.listed);
    const visibleUnread = server.db
      .prepare(
        "SELECT count(*) AS n FROM messages WHERE pack_key = ? AND date_read IS NULL AND to_user_id = ? AND moderation_status IN ('clean', 'non_moderated')",
      )
      .get(PACK, demo.seller.id) as { n: number };
    expect(visibleUnread.n).toBe(0);
    const before = JSON.stringify(server.db.prepare('SELECT * FROM messages ORDER BY id').all());
    const again = await both(demo.seller.token, principals[0]!.principal, 'limit=6');
    expect(again.text).toBe(first.text);
    expect(JSON.stringify(server.db.prepare('SELECT * FROM messages ORDER BY id').all())).toBe(before);
  });

  it('follows a send, a moderation decision and a write by another connection', async () => {
    const read = () => both(demo.seller.token, principals[0]!.principal, 'limit=3&mark_as_read=false');
    const before = await read();
    expect(before.text).toBe(before.listed);

    const sent = await sellerSends(server.as(demo.seller.token), PACK, 'Sale hoy por la tarde');
    expect(sent.status).toBe(201);
    const afterSend = await read();
    expect(afterSend.text).toBe(afterSend.listed);
    expect(JSON.parse(afterSend.text).messages[0].id).toBe((sent.body as { id: string }).id);
    expect(JSON.parse(afterSend.text).paging.total).toBe(JSON.parse(before.text).paging.total + 1);

    // Another process (the sqlite3 shell) edits the newest message.
    const other = new Database(join(server.dir, 'marketplace.db'));
    other.prepare("UPDATE messages SET text = 'cambiado afuera' WHERE id = ?").run((sent.body as { id: string }).id);
    other.close();
    const afterOther = await read();
    expect(afterOther.text).toBe(afterOther.listed);
    expect(JSON.parse(afterOther.text).messages[0].text).toBe('cambiado afuera');

    // The orders' state too: both orders of the pack cancelled elsewhere block the conversation.
    const shell = new Database(join(server.dir, 'marketplace.db'));
    shell.prepare("UPDATE orders SET status = 'cancelled' WHERE pack_id = ?").run(PACK);
    shell.close();
    const blocked = await read();
    expect(blocked.text).toBe(blocked.listed);
    expect(JSON.parse(blocked.text).conversation_status).toMatchObject({ status: 'blocked', substatus: 'blocked_by_cancelled_order' });
  });
});

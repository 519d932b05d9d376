import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEARCH_BATCH } from '../../../main/db/migrations/019-message-search-mark.js';
import { type Db, openDatabase } from '../../../main/db/open.js';
import { inboxSearchRepo } from '../../../main/db/repos/inbox-search.js';
import { messagesRepo } from '../../../main/db/repos/messages.js';
import { loadFixtures } from '../../../main/fixtures/load.js';
import type { Principal } from '../../../main/service/auth/auth.js';
import { type Service, createService } from '../../../main/service/index.js';
import { toMessageView } from '../../../main/service/messages/views.js';
import { demo } from '../../support/fixtures.js';
import { extraOrders, messagingFixtures } from '../../support/messages.js';

const seller: Principal = { userId: demo.seller.id, applicationId: demo.app };
const pack = extraOrders.empty.pack;

let dir: string;
let db: Db;
let service: Service;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stockroom-send-search-'));
  db = openDatabase(join(dir, 'marketplace.db'));
  loadFixtures(db, messagingFixtures());
  service = createService(db);
});
afterEach(async () => {
  await service.stop();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A word of letters only, the same length for every i: no word is a prefix of another. */
const word = (i: number) => `clave${[2, 1, 0].map((p) => String.fromCharCode(97 + (Math.floor(i / 26 ** p) % 26))).join('')}`;
const send = (i: number) =>
  service.messages.send(
    seller,
    String(pack),
    String(demo.seller.id),
    {},
    {
      from: { user_id: String(demo.seller.id) },
      to: { user_id: String(demo.buyer.id) },
      text: `Gracias por tu compra, tu retiro es con la ${word(i)} en el local`,
    },
  );

describe('a sent message and the search (migration 019: the index written in batches)', () => {
  it('every message is found by the search as soon as its send is answered, in every batch and past each mark', async () => {
    const search = inboxSearchRepo(db);
    const repo = messagesRepo(db);
    const total = 3 * SEARCH_BATCH + 5;
    let i = 0;
    while (i < total) {
      // Sixteen at a time: one group commit holds several sends.
      const group = Array.from({ length: Math.min(16, total - i) }, (_, k) => i + k);
      const answers = await Promise.all(group.map(send));
      for (const [k, answer] of answers.entries()) {
        const n = group[k]!;
        expect(answer.message_moderation.status).toBe('clean');
        expect(search.messagesMatching(word(n))).toEqual([answer.id]);
        expect([...search.matching(demo.seller.id, word(n))]).toEqual([pack]);
        // The answer is the message as stored (the insert returns only what SQL computed).
        expect(answer).toEqual(toMessageView(repo.messageById(answer.id)!, [], demo.seller.id));
      }
      // The earlier ones still are, whether indexed or past the mark.
      for (let n = 0; n < i; n += 7) expect(search.messagesMatching(word(n))).toHaveLength(1);
      i += group.length;
    }
    expect(db.prepare('SELECT indexed_rowid FROM message_search_state').pluck().get()).toBeGreaterThan(0);
  });

  it('new message ids sort in the order they were made', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push((await send(n)).id);
    expect(ids.every((id) => /^[0-9a-f]{12}7[0-9a-f]{19}$/.test(id))).toBe(true);
    expect(ids.map((id) => id.slice(0, 12))).toEqual([...ids.map((id) => id.slice(0, 12))].sort());
  });
});

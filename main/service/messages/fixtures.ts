import type { Db } from '../../db/open.js';
import { attachmentsRepo } from '../../db/repos/attachments.js';
import { messagesRepo } from '../../db/repos/messages.js';
import type { FixtureFile } from '../../fixtures/schema.js';
import { textHash } from './messages.js';

/**
 * The `orders` and `messages` keys of a fixture file (FIXTURES.md).
 *
 * Extra rules checked before loading (besides those of the fixture loader):
 * - message ids are 32 lower-case hexadecimal characters (the id format of GET /messages/{id});
 * - the orders of one pack share seller, buyer and site;
 * - a `pack_id` is not also the id of an order outside that pack (the pack path would be ambiguous);
 * - `moderation.reason` only on a `rejected` message;
 * - attachment file names (their ids) are unique.
 */
export function messageFixtureProblem(f: FixtureFile): { where: string; why: string } | null {
  const orders = f.orders ?? [];
  const packs = new Map<number, (typeof orders)[number]>();
  const lone = new Set(orders.filter((o) => o.pack_id === null).map((o) => o.id));
  for (const [i, o] of orders.entries()) {
    if (o.pack_id === null) continue;
    if (lone.has(o.pack_id)) return { where: `orders[${i}].pack_id`, why: `pack ${o.pack_id} is also the id of an order without a pack` };
    const first = packs.get(o.pack_id);
    if (!first) packs.set(o.pack_id, o);
    else if (first.seller_id !== o.seller_id || first.buyer_id !== o.buyer_id || first.site_id !== o.site_id) {
      return { where: `orders[${i}]`, why: `orders of pack ${o.pack_id} must share seller, buyer and site (see order ${first.id})` };
    }
  }
  const files = new Set<string>();
  for (const [i, m] of (f.messages ?? []).entries()) {
    if (!/^[0-9a-f]{32}$/.test(m.id)) return { where: `messages[${i}].id`, why: 'a message id is 32 lower-case hexadecimal characters' };
    if (m.moderation.reason !== undefined && m.moderation.status !== 'rejected') {
      return { where: `messages[${i}].moderation.reason`, why: 'a reason applies to a rejected message only' };
    }
    for (const [j, a] of (m.attachments ?? []).entries()) {
      if (files.has(a.filename)) return { where: `messages[${i}].attachments[${j}].filename`, why: `duplicate attachment ${a.filename}` };
      files.add(a.filename);
    }
  }
  return null;
}

const iso = (s: string) => new Date(s).toISOString();

/**
 * Inserts orders and messages (call inside the loader's transaction, after users).
 * Messages go in in date order, so `conversation_first_message` is the earliest of each pack.
 * Dates: created = received = `date_created`; moderated = `moderation.date`, else `date_created`
 * for clean and rejected; available = the moderation date when clean, `date_created` when
 * non_moderated, null otherwise; notified and read are null (the fixture format has none: reading
 * the pack sets them). Source defaults to 'online' except for non_moderated messages.
 * Attachment metadata goes to the attachments area's table (no bytes: downloading answers 500).
 */
export function insertMessageFixtures(db: Db, f: FixtureFile): void {
  // The application a seeded message was sent from, as the marketplace records it: the sender's
  // first token's application, else the marketplace's first application (0 when it has none).
  const fallback = f.applications?.[0]?.id ?? 0;
  const clientOf = (userId: number) => f.tokens?.find((t) => t.user_id === userId)?.application_id ?? fallback;
  const repo = messagesRepo(db);
  const files = attachmentsRepo(db);
  const statusDate = new Date().toISOString();
  const orders = new Map((f.orders ?? []).map((o) => [o.id, o]));
  for (const o of f.orders ?? []) repo.insertOrder({ ...o, status_date: statusDate });

  const messages = [...(f.messages ?? [])].sort((a, b) => Date.parse(a.date_created) - Date.parse(b.date_created));
  for (const m of messages) {
    const order = orders.get(m.order_id)!;
    const created = iso(m.date_created);
    const status = m.moderation.status;
    const decided = status === 'clean' || status === 'rejected';
    const moderated = m.moderation.date !== undefined ? iso(m.moderation.date) : decided ? created : null;
    repo.insertMessage({
      id: m.id,
      order_id: m.order_id,
      from_user_id: m.from_user_id,
      to_user_id: m.to_user_id,
      pack_key: order.pack_id ?? order.id,
      site_id: order.site_id,
      client_id: clientOf(m.from_user_id),
      subject: null,
      text: m.text,
      date_created: created,
      date_received: created,
      date_available: status === 'clean' ? moderated : status === 'non_moderated' ? created : null,
      date_notified: null,
      date_read: null,
      moderation_status: status,
      moderation_reason: m.moderation.reason ?? null,
      moderation_source: m.moderation.source ?? (status === 'non_moderated' ? null : 'online'),
      moderation_date: moderated,
      text_hash: textHash(m.text),
    });
    if (m.attachments && m.attachments.length > 0) files.insertForMessage(m.id, m.attachments);
  }
}

import type { Db } from '../db/open.js';
import type { OtherLocation, RemoteLocation } from '../db/repos/mirror.js';
import { type MessagesRepo, messagesRepo } from '../db/repos/messages.js';
import type { Clock } from '../service/clock.js';
import { resolvePack } from '../service/messages/orders.js';
import type { PulledMessage } from './remote-answers.js';
import { type Outbox, cellKey } from './outbox.js';

/**
 * The writers of the MIRROR (the replica's copy of the remote marketplace) shared by the pull and
 * the pushes: a stock snapshot and a message, as the remote answered them. Only answers parsed
 * at the edge (remote-answers.ts) reach these.
 */

export interface StockSnapshot {
  version: bigint;
  userId: number;
  locations: RemoteLocation[];
  /** Locations of kinds the app has no rules for, kept as sent (migration 024). */
  others: OtherLocation[];
}

const locKey = (type: string, storeKey: string) => `${type}|${storeKey}`;

/**
 * Writes a remote stock snapshot into the mirror when it is newer than what the mirror holds
 * (versions only go forward), with a "synced from the marketplace" history row for each editable
 * cell whose remote quantity changed. Call inside a transaction. Returns true when it wrote.
 */
export function applyStockSnapshot(outbox: Outbox, clock: Clock, userProductId: string, snap: StockSnapshot): boolean {
  const current = outbox.mirror.product(userProductId);
  if (current?.stockRead && snap.version <= current.version) return false;
  // A product new to the mirror, or known from its listing only (most of a first pull), has no cells before and no history.
  if (!current || !current.stockRead) {
    outbox.mirror.replaceStock(userProductId, snap.userId, snap.version, snap.locations, false);
    if (snap.others.length > 0) outbox.mirror.replaceOtherLocations(userProductId, snap.others, false);
    return true;
  }
  const before = new Map(outbox.mirror.cells(userProductId).map((c) => [locKey(c.type, c.store_key), c.quantity]));
  outbox.mirror.replaceStock(userProductId, snap.userId, snap.version, snap.locations);
  outbox.mirror.replaceOtherLocations(userProductId, snap.others);
  for (const l of snap.locations) {
    if (l.type === 'platform_facility') continue;
    const storeKey = l.type === 'seller_warehouse' ? (l.store_id ?? '') : '';
    const from = before.get(locKey(l.type, storeKey)) ?? null;
    if (from === l.quantity) continue;
    outbox.repo.insertHistory({
      cell: cellKey(userProductId, l.type, storeKey),
      user_product_id: userProductId,
      cell_type: l.type,
      store_key: storeKey,
      kind: 'synced',
      author: 'marketplace',
      at: clock.now(),
      from_quantity: from,
      to_quantity: l.quantity,
      delta: from === null ? null : l.quantity - from,
      entry_id: null,
      ref: null,
      note: `version ${snap.version}`,
    });
  }
  return true;
}

const repos = new WeakMap<Db, MessagesRepo>();
const messagesOf = (db: Db) => {
  let r = repos.get(db);
  if (!r) repos.set(db, (r = messagesRepo(db)));
  return r;
};

/**
 * Writes a message (current shape, SPEC 2.8) of conversation `packKey` into the mirror with its
 * attachment metadata; a moderation status or reason the app does not know yet is kept as sent. The conversation's orders must be in the mirror. Returns what happened.
 */
export function writeMessage(outbox: Outbox, view: PulledMessage, packKey: number): 'new' | 'updated' | 'same' {
  const pack = resolvePack(messagesOf(outbox.db), packKey);
  if (!pack) throw new Error(`pull: conversation ${packKey} is not in the mirror`);
  const before = outbox.mirror.messageState(view.id);
  const m = view.message_moderation;
  outbox.mirror.upsertMessage({
    id: view.id,
    order_id: pack.orderId,
    from_user_id: view.from.user_id,
    to_user_id: view.to.user_id,
    pack_key: packKey,
    site_id: view.site_id,
    client_id: view.client_id,
    subject: view.subject,
    text: view.text,
    date_created: view.message_date.created,
    date_received: view.message_date.received,
    date_available: view.message_date.available,
    date_notified: view.message_date.notified,
    date_read: view.message_date.read,
    moderation_status: m.status,
    moderation_reason: m.reason,
    moderation_source: m.source,
    moderation_date: m.moderation_date,
    conversation_first_message: view.conversation_first_message ? 1 : 0,
  });
  (view.message_attachments ?? []).forEach((a, position) =>
    outbox.mirror.upsertAttachment({
      id: a.filename,
      uploader_id: view.from.user_id,
      site_id: view.site_id,
      original_filename: a.original_filename,
      media_type: a.type,
      size: a.size,
      potential_security_threat: a.potential_security_threat ? 1 : 0,
      created_at: Date.parse(a.creation_date),
      message_id: view.id,
      position,
    }),
  );
  if (!before) return 'new';
  const same =
    before.moderation_status === m.status &&
    before.date_read === view.message_date.read &&
    before.date_notified === view.message_date.notified &&
    before.date_available === view.message_date.available;
  return same ? 'same' : 'updated';
}

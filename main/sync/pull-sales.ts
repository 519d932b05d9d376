import type { z } from 'zod';
import { brandsRepo } from '../db/repos/brands.js';
import { ordersRepo } from '../db/repos/orders.js';
import type { BrandListEntry } from '../service/brands/brands.js';
import type { MessageView } from '../service/messages/views.js';
import { serverMessage } from './client.js';
import { writeMessage } from './mirror-writes.js';
import { Pager, PullError } from './paging.js';
import { type PullReads, mapLimit } from './pull-reads.js';
import { brandDetail, brandsAnswer, messageAnswer, messagesPage, type orderAnswer, ordersPage } from './remote-answers.js';

/**
 * A pull's brands, orders and messages (pull.ts), read whole each pull: they are small.
 * - Brands: the list and each brand's detail; the seller's brands replaced in one transaction.
 * - Orders: GET /orders/search?seller=, with what the inbox's order panel shows.
 * - Messages: each conversation newest first (mark_as_read=false, so pulling never marks anything
 *   read on the remote); paging stops at the first page with nothing new or changed. A message
 *   from the buyer that was not in the mirror is reported as new.
 */

export async function pullBrands(r: PullReads, signal?: AbortSignal): Promise<number> {
  const me = r.options.sellerId;
  const progress = r.step('brands');
  const res = await r.get(`/users/${me}/brands`, {}, signal);
  let list: BrandListEntry[] = [];
  // 404 (B00001): the seller has no brands.
  if (res.status === 200) list = r.parse(brandsAnswer, res.body, `/users/${me}/brands`).brands;
  else if (res.status !== 404) throw new PullError(`GET /users/${me}/brands: ${serverMessage(res)}`, false, res.status);
  progress.setTotal(list.length);
  const details = await mapLimit(list, r.options.concurrency, async (b) => {
    const d = await r.getOk(`/users/${me}/brands/${b.official_store_id}`, brandDetail, {}, signal);
    progress.add();
    return d;
  });
  await r.ensureUsers(
    details.flatMap((d) => d.users.map((u) => u.cust_id)),
    signal,
  );
  const repo = brandsRepo(r.outbox.db);
  await r.writes.run(() => {
    r.outbox.mirror.deleteBrandsOf(me);
    list.forEach((b, i) => {
      const d = details[i]!;
      r.outbox.mirror.deleteBrand(b.official_store_id);
      repo.insert({ ...b, boost: d.boost.last_update === null ? null : { is_active: d.boost.is_active, last_update: d.boost.last_update }, users: d.users });
    });
  });
  progress.finish();
  return list.length;
}

export async function pullOrders(r: PullReads, signal?: AbortSignal): Promise<number> {
  const me = r.options.sellerId;
  const progress = r.step('orders');
  const orders: z.infer<typeof orderAnswer>[] = [];
  const pager = new Pager('GET /orders/search', r.limits.orders, 100);
  for (let offset: number | null = 0; offset !== null;) {
    const page = await r.getOk('/orders/search', ordersPage, { seller: me, limit: 100, offset }, signal);
    offset = pager.next(page.paging.total, page.results.length);
    orders.push(...page.results);
    progress.setTotal(Math.max(page.paging.total, orders.length));
    progress.add(page.results.length);
  }
  await r.ensureUsers(
    orders.map((o) => o.buyer.id),
    signal,
  );
  const details = ordersRepo(r.outbox.db);
  await r.writes.run(() => {
    for (const o of orders) {
      r.outbox.mirror.upsertOrder({
        id: o.id,
        pack_id: o.pack_id,
        seller_id: o.seller.id,
        buyer_id: o.buyer.id,
        site_id: o.site_id,
        status: o.status,
        logistic_type: o.logistic_type,
        delivered: o.delivered ? 1 : 0,
        mediation_in_process: o.mediation_in_process ? 1 : 0,
        status_date: o.status_date,
      });
      // What the order says (issue 15 §1): the inbox's order panel reads it from the mirror.
      details.writeDetails(
        { id: o.id, date_created: o.date_created, total_amount: o.total_amount, currency_id: o.currency_id, shipping_id: o.shipping.id },
        o.order_items.map((l) => ({ item_id: l.item.id, title: l.item.title, quantity: l.quantity, unit_price: l.unit_price, currency_id: l.currency_id })),
      );
    }
  });
  progress.finish();
  return orders.length;
}

export async function pullMessages(r: PullReads, signal?: AbortSignal): Promise<{ new: number; updated: number; incoming: MessageView[] }> {
  const me = r.options.sellerId;
  const packs = r.outbox.mirror.packKeysOf(me);
  const progress = r.step('messages');
  progress.setTotal(packs.length);
  const incoming: MessageView[] = [];
  let created = 0;
  let updated = 0;
  await mapLimit(packs, r.options.concurrency, async (pack) => {
    const path = `/messages/packs/${pack}/sellers/${me}`;
    const pager = new Pager(`GET ${path}`, r.limits.messages, 100);
    for (let offset = 0; ;) {
      const page = await r.getOk(path, messagesPage, { mark_as_read: 'false', limit: 100, offset }, signal);
      const next = pager.next(page.paging?.total ?? 0, page.messages.length);
      let changed = 0;
      await r.writes.run(() => {
        for (const m of page.messages) {
          const what = writeMessage(r.outbox, m, pack);
          if (what === 'new') {
            created++;
            changed++;
            // Told as a new message when it has the shape the screens know (an unknown status is stored, not announced).
            const known = m.from.user_id !== me ? messageAnswer.safeParse(m) : null;
            if (known?.success) incoming.push(known.data);
          } else if (what === 'updated') {
            updated++;
            changed++;
          }
        }
      });
      if (changed === 0 || next === null) break;
      offset = next;
    }
    progress.add();
  });
  progress.finish();
  return { new: created, updated, incoming };
}

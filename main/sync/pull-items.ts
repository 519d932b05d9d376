import { z } from 'zod';
import type { MirrorItem } from '../db/repos/mirror.js';
import { PullError, checkTotal } from './paging.js';
import { type PullReads, mapLimit } from './pull-reads.js';
import { itemAnswer, itemIdsPage } from './remote-answers.js';
import { serverMessage } from './client.js';

/**
 * A pull's items (pull.ts): the seller's item ids (GET /users/{id}/items/search), then only the ids
 * not yet in the mirror, 20 at a time (GET /items?ids=) where the remote offers it, else one by one
 * (GET /items/{id}). Each page is written at once with its user product marked "stock not read"
 * (migration 029), so the grid shows the rows before any stock is read (issue 29).
 */

/**
 * An item with the codes a barcode scan finds it by (issue 14 §2): its inventory id, its GTIN and
 * SELLER_SKU attributes and its seller_custom_field. Odd attributes never fail a pull: they are
 * then left out.
 */
const itemWithCodes = itemAnswer.extend({
  inventory_id: z.string().nullable().optional().catch(null),
  attributes: z
    .array(z.looseObject({ id: z.string(), value_name: z.string().nullable().optional() }))
    .optional()
    .catch(undefined),
  seller_custom_field: z.string().nullable().optional().catch(null),
  // What the order panel shows for the item (conversation-orders.ts reads the first https one).
  pictures: z
    .array(z.object({ url: z.string().nullable().optional().catch(null), secure_url: z.string().nullable().optional().catch(null) }))
    .max(50)
    .optional()
    .catch(undefined),
  // The facts behind the selling-address locks (SPEC 7.3), so the grid locks a cell before an edit.
  // Known: fulfillment, cross_docking, self_service; another one is kept as sent (no lock is derived from it).
  shipping: z
    .object({ logistic_type: z.string().min(1).max(100), local_delivery: z.boolean().optional() })
    .optional()
    .catch(undefined),
});

/** GET /items?ids= (the marketplace's multi-get): one entry per id asked, its status and its body. */
const itemsPage = z.array(z.object({ code: z.number().int(), body: z.unknown() })).max(20);

/** Ids per multi-get (the marketplace's largest). */
const MULTI_GET = 20;

/** An item as the remote answered it, as the mirror stores it. */
function mirrorItem(i: z.infer<typeof itemWithCodes>): MirrorItem {
  return {
    id: i.id,
    site_id: i.site_id,
    title: i.title,
    seller_id: i.seller_id,
    category_id: i.category_id,
    user_product_id: i.user_product_id,
    price: i.price,
    base_price: i.base_price,
    currency_id: i.currency_id,
    listing_type_id: i.listing_type_id,
    channels: JSON.stringify(i.channels),
    official_store_id: i.official_store_id ?? null,
    available_quantity: i.available_quantity ?? null,
    inventory_id: i.inventory_id ?? null,
    logistic_type: i.shipping?.logistic_type ?? 'unknown',
    local_delivery: i.shipping?.local_delivery ? 1 : 0,
    attributes: JSON.stringify({
      ...(i.attributes ? { attributes: i.attributes } : {}),
      ...(typeof i.seller_custom_field === 'string' ? { seller_custom_field: i.seller_custom_field } : {}),
      ...(i.pictures && i.pictures.length > 0 ? { pictures: i.pictures } : {}),
    }),
    date_created: i.date_created,
  };
}

/**
 * Set once every item of the mirror was read with its codes and shipping: a replica made before
 * they were mirrored reads each item again once (only new items are read otherwise). The key
 * changed when shipping joined the codes, so such a replica reads its items once more.
 */
const ITEM_CODES_READ = 'item_facts_read';

/** The item search's largest page (100). */
const ITEM_PAGE = 100;

export class ItemReader {
  /** Whether the remote answers GET /items?ids=; null until asked. */
  private multiGet: boolean | null = null;

  constructor(private readonly r: PullReads) {}

  /**
   * The seller's items: every id listed, the unknown ones read and written page by page as they
   * arrive (1,000 pages for 100,000 products: the grid's first rows are there in a second, not a
   * minute). Returns how many ids are listed and how many items were read.
   */
  async pull(signal?: AbortSignal): Promise<{ total: number; fetched: number }> {
    const { r } = this;
    const itemsStep = r.step('items');
    const codesRead = r.outbox.repo.getState(ITEM_CODES_READ) !== undefined;
    let fetched = 0;
    const itemIds = await this.itemIds(signal, async (ids, total) => {
      itemsStep.setTotal(total);
      const unknown = codesRead ? ids.filter((id) => !r.outbox.mirror.itemExists(id)) : ids;
      itemsStep.add(ids.length - unknown.length);
      for (let from = 0; from < unknown.length; from += MULTI_GET) {
        const chunk = unknown.slice(from, from + MULTI_GET);
        const items = await this.readItems(chunk, signal);
        r.writes.runNow(() => this.writeItems(items));
        fetched += items.length;
        itemsStep.add(chunk.length);
      }
    });
    itemsStep.finish();
    await r.writes.run(() => r.outbox.repo.setState(ITEM_CODES_READ, '1'));
    return { total: itemIds.length, fetched };
  }

  /**
   * The seller's item ids: a first page for the total and the page size, then the other pages
   * `concurrency` at a time (in their order), each handed to `onPage` as it arrives (the next
   * page of a reader waits for it).
   */
  private async itemIds(signal: AbortSignal | undefined, onPage: (ids: string[], total: number) => Promise<void>): Promise<string[]> {
    const path = `/users/${this.r.options.sellerId}/items/search`;
    const page = async (offset: number) => {
      const p = await this.r.getOk(path, itemIdsPage, { limit: ITEM_PAGE, offset }, signal);
      if (p.results.length > ITEM_PAGE) throw new PullError(`GET ${path}: a page of ${p.results.length} ids, more than the ${ITEM_PAGE} asked for`, false, 200);
      return p;
    };
    const first = await page(0);
    // The offsets are sized from the announced total: held to the ceiling before any is made.
    const total = checkTotal(`GET ${path}`, first.paging.total, this.r.limits.items);
    const size = first.results.length;
    const offsets: number[] = [];
    for (let offset = size; size > 0 && offset < total; offset += size) offsets.push(offset);
    const [, pages] = await Promise.all([
      onPage(first.results, total),
      mapLimit(offsets, this.r.options.concurrency, async (offset) => {
        const p = await page(offset);
        await onPage(p.results, total);
        return p;
      }),
    ]);
    return [first, ...pages].flatMap((p) => p.results);
  }

  /** Items, each with its user product (listed as not read yet when new; call inside a transaction). */
  private writeItems(items: MirrorItem[]): void {
    for (const i of items) {
      this.r.outbox.mirror.listProduct(i.user_product_id, this.r.options.sellerId);
      this.r.outbox.mirror.upsertItem(i);
    }
  }

  /**
   * Items by id: one GET /items?ids= for up to 20 where the remote offers it (a 400, 404 or 405
   * to the first one says it does not: then one GET /items/{id} each). An id the multi-get
   * answers with 404 is left out (the item went away between the search and the read).
   */
  private async readItems(ids: string[], signal?: AbortSignal): Promise<MirrorItem[]> {
    if (this.multiGet !== false) {
      const res = await this.r.get('/items', { ids: ids.join(',') }, signal);
      if (res.status === 200 && res.body !== null) {
        this.multiGet = true;
        const entries = this.r.parse(itemsPage, res.body, '/items?ids=');
        return entries.flatMap((e) => (e.code === 200 ? [mirrorItem(this.r.parse(itemWithCodes, e.body, '/items?ids='))] : []));
      }
      // Pages asked at the same time all learn it from their own answer.
      if (this.multiGet !== true && [400, 404, 405].includes(res.status)) this.multiGet = false;
      else throw new PullError(`GET /items?ids=: ${serverMessage(res)}`, false, res.status);
    }
    return mapLimit(ids, 1, async (id) => mirrorItem(await this.r.getOk(`/items/${encodeURIComponent(id)}`, itemWithCodes, {}, signal)));
  }
}

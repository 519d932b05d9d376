import { isStockReason } from '../../../common/stock-reasons.js';
import type { OutboxEntryView } from '../../../common/views.js';
import type { OutboxViewRow } from '../../db/repos/outbox-view.js';
import type { StockBatcher } from '../stock-batch.js';
import type { StockPusher } from '../stock-push.js';
import type { OutboxKindHandler } from './types.js';

/**
 * Stock entries: an adjustment, a count, or a transfer (an adjustment with a second cell, sent as
 * one PUT carrying both stores). Lane: the user product (`up:<id>`); the payload is the row's own
 * columns (cell, op, delta, quantity, base, the request on the wire), checked by the SQL CHECKs of
 * migrations 007, 013 and 022; pushing is main/sync/stock-push.ts.
 */
export { stockLane } from './lanes.js';

export function stockKind(pusher: StockPusher, batcher: StockBatcher | null): OutboxKindHandler {
  return {
    kind: 'stock',
    claim(id, now, lane, company = true) {
      // One request per product (stock-batch.ts) when the entry has company in its lane; else alone, without reading the lane.
      const batch = batcher && company && lane?.startsWith('up:') ? batcher.claim(id, lane.slice(3), now) : 'single';
      if (batch !== 'single') return batch;
      const c = pusher.claim(id, now);
      return c === null ? null : { row: c.row, before: c.before, send: () => pusher.push(c.row, c.plan) };
    },
  };
}

/** The stock part of an entry's view in the outbox list. */
export function stockView(
  r: Pick<OutboxViewRow, 'kind' | 'user_product_id' | 'cell_type' | 'store_key' | 'op' | 'delta' | 'quantity' | 'reason' | 'store_key2'>,
): OutboxEntryView['stock'] {
  if (r.kind !== 'stock' || !r.user_product_id || !r.cell_type || !r.op) return null;
  return {
    userProductId: r.user_product_id,
    type: r.cell_type,
    storeId: r.cell_type === 'seller_warehouse' ? r.store_key : null,
    op: r.op,
    delta: r.delta,
    quantity: r.quantity,
    reason: isStockReason(r.reason) ? r.reason : null,
    toStoreId: r.store_key2,
  };
}

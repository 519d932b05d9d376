import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../main/db/open.js';
import { stockInsightRepo } from '../../../main/db/repos/stock-insight.js';

/** The grid's days of cover read a page's sales in one statement that seeks, never scans, order lines (migration 031). */
describe('stock insight repository', () => {
  it('finds a page’s order lines by item (the index), not by a walk of every line', () => {
    const db = openDatabase(':memory:');
    stockInsightRepo(db);
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT i.user_product_id, sum(l.quantity) FROM items i JOIN order_items l ON l.item_id = i.id JOIN orders o ON o.id = l.order_id
          WHERE i.user_product_id IN (SELECT value FROM json_each('["A","B"]')) AND o.seller_id = 1 AND o.status <> 'cancelled' GROUP BY i.user_product_id`,
      )
      .all() as { detail: string }[];
    const steps = plan.map((p) => p.detail).join('\n');
    expect(steps).toMatch(/SEARCH l USING (COVERING )?INDEX order_items_by_item/);
    expect(steps).toMatch(/SEARCH i USING INDEX items_by_user_product/);
    expect(steps).not.toMatch(/SCAN l\b/);
    db.close();
  });
});

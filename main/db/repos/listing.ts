import type { Db } from '../open.js';

/** Paged listings of a user's items (GET /users/{id}/items/search); GET /orders/search reads repos/orders.ts. */
export function listingRepo(db: Db) {
  const itemIdsOfSeller = db.prepare<[number, number, number], { id: string }>('SELECT id FROM items WHERE seller_id = ? ORDER BY id LIMIT ? OFFSET ?');
  const itemCountOfSeller = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM items WHERE seller_id = ?');

  return {
    /** One page of item ids and the total, read in one snapshot. */
    itemsOfSeller: db.transaction((sellerId: number, limit: number, offset: number) => ({
      total: itemCountOfSeller.get(sellerId)!.n,
      ids: itemIdsOfSeller.all(sellerId, limit, offset).map((r) => r.id),
    })),
  };
}
export type ListingRepo = ReturnType<typeof listingRepo>;

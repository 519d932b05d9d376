import type { Db } from '../open.js';
import type { OrderRow } from './messages.js';

/** Paged listings of a user's items and orders (GET /users/{id}/items/search, GET /orders/search). */
export function listingRepo(db: Db) {
  const itemIdsOfSeller = db.prepare<[number, number, number], { id: string }>('SELECT id FROM items WHERE seller_id = ? ORDER BY id LIMIT ? OFFSET ?');
  const itemCountOfSeller = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM items WHERE seller_id = ?');
  const ordersOfSeller = db.prepare<[number, number, number], OrderRow>('SELECT * FROM orders WHERE seller_id = ? ORDER BY id LIMIT ? OFFSET ?');
  const orderCountOfSeller = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM orders WHERE seller_id = ?');
  const ordersOfBuyer = db.prepare<[number, number, number], OrderRow>('SELECT * FROM orders WHERE buyer_id = ? ORDER BY id LIMIT ? OFFSET ?');
  const orderCountOfBuyer = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM orders WHERE buyer_id = ?');

  return {
    /** One page of item ids and the total, read in one snapshot. */
    itemsOfSeller: db.transaction((sellerId: number, limit: number, offset: number) => ({
      total: itemCountOfSeller.get(sellerId)!.n,
      ids: itemIdsOfSeller.all(sellerId, limit, offset).map((r) => r.id),
    })),
    ordersOf: db.transaction((role: 'seller' | 'buyer', userId: number, limit: number, offset: number) =>
      role === 'seller'
        ? { total: orderCountOfSeller.get(userId)!.n, rows: ordersOfSeller.all(userId, limit, offset) }
        : { total: orderCountOfBuyer.get(userId)!.n, rows: ordersOfBuyer.all(userId, limit, offset) },
    ),
  };
}
export type ListingRepo = ReturnType<typeof listingRepo>;

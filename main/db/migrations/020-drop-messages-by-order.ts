import type { Migration } from './index.js';

/**
 * messages_by_order (migration 004) goes (issue 17): no query reads messages by order id (a pack
 * is read by pack_key, a message by id), and an order is never deleted nor given another id, the
 * only writes whose foreign-key check would look messages up by it (an upsert of an order keeps
 * its id). Its cost was on every send: the order id of a send is any of the seller's orders, so
 * each insert dirtied a leaf page of its own, one more 4 KB page in the WAL per message (about
 * 10% of an insert's time, measured with each index of messages dropped in turn).
 */
export const dropMessagesByOrderMigration: Migration = {
  version: 20,
  name: 'drop-messages-by-order',
  sql: `DROP INDEX IF EXISTS messages_by_order;`,
};

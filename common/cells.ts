/**
 * A stock cell's key: a user product's location of one type, in one store. The grid, the outbox,
 * the cell history and the events name a cell with it. The store is '' for selling_address.
 */
export const cellKey = (userProductId: string, type: string, storeKey: string) => `${userProductId}|${type}|${storeKey}`;

/** The user product of a cell key. */
export const userProductOfCell = (cell: string) => cell.slice(0, cell.indexOf('|'));

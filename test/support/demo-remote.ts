import { demo } from './fixtures.js';
import type { TestServer } from './server.js';
import { readRemoteStock } from './sync-harness.js';

/**
 * The demo marketplace seen from outside the app, for sync tests: what the remote holds, and a
 * change made there by someone else (straight to the server, not through the proxy).
 */
export const termoCells = {
  termo: demo.userProducts.termo,
  palermo: { userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId: demo.stores.palermo } as const,
  avellaneda: { userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId: demo.stores.avellaneda } as const,
  palermoRef: { userProductId: demo.userProducts.termo, type: 'seller_warehouse' as const, storeKey: demo.stores.palermo },
};

export function demoRemote(server: () => TestServer) {
  const seller = () => server().as(demo.seller.token);
  return {
    seller,
    /** The remote quantity of a cell (`<type>|<store>`) of a user product. */
    async remoteQty(up: string, key: string) {
      return (await readRemoteStock(server().url, demo.seller.token, [up])).get(up)!.cells.get(key);
    },
    /** Someone else sets a store of the termo on the remote (at its current version). */
    async otherWrite(store: string, quantity: number) {
      const cur = await seller().get(`/user-products/${demo.userProducts.termo}/stock`);
      const res = await seller().put(
        `/user-products/${demo.userProducts.termo}/stock/type/seller_warehouse`,
        { locations: [{ store_id: store, quantity }] },
        { 'x-version': cur.headers.get('x-version')! },
      );
      if (res.status !== 200) throw new Error(`the remote refused the other write: ${res.status}`);
    },
  };
}

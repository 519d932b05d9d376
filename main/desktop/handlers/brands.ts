import { isServiceError } from '../../service/errors.js';
import { brandAccounts, onlineClient, remoteBrandDetail, remoteBrandList } from '../brands-online.js';
import type { HandlerContext } from './context.js';
import type { AreaHandlers } from './types.js';

/**
 * `brands`: official stores of the seller or of a picked account (the marketplace's 404 B00001 is
 * "no brand", not an error); read from the marketplace while online, from the local data otherwise.
 */
export function brandsHandlers(ctx: Pick<HandlerContext, 'current'>) {
  return {
    list: async (q) => {
      const p = await ctx.current();
      const userId = q?.userId ?? p.sellerId;
      // Online, the marketplace answers (the mirror holds only the seller's own stores, issue 15 §4).
      const client = onlineClient(p);
      const online = client ? await remoteBrandList(client, userId) : undefined;
      if (online !== undefined) return { userId, list: online };
      try {
        return { userId, list: p.service.brands.list(p.principal, String(userId)) };
      } catch (e) {
        if (isServiceError(e) && e.error === 'B00001') return { userId, list: null };
        throw e;
      }
    },
    detail: async ({ officialStoreId, userId }) => {
      const p = await ctx.current();
      const client = onlineClient(p);
      const online = client ? await remoteBrandDetail(client, userId ?? p.sellerId, officialStoreId) : undefined;
      if (online !== undefined) return online;
      return p.service.brands.get(p.principal, String(userId ?? p.sellerId), String(officialStoreId));
    },
    accounts: async (q) => brandAccounts(await ctx.current(), q?.include ?? []),
  } satisfies AreaHandlers<'brands'>;
}

import { isServiceError } from '../../service/errors.js';
import type { HandlerContext } from './context.js';
import type { AreaHandlers } from './types.js';

/** `brands`: the seller's official stores (the marketplace's 404 B00001 is "no brand", not an error). */
export function brandsHandlers(ctx: Pick<HandlerContext, 'current'>) {
  return {
    list: async (q) => {
      const p = await ctx.current();
      const userId = q?.userId ?? p.sellerId;
      try {
        return { userId, list: p.service.brands.list(p.principal, String(userId)) };
      } catch (e) {
        if (isServiceError(e) && e.error === 'B00001') return { userId, list: null };
        throw e;
      }
    },
    detail: async ({ officialStoreId, userId }) => {
      const p = await ctx.current();
      return p.service.brands.get(p.principal, String(userId ?? p.sellerId), String(officialStoreId));
    },
  } satisfies AreaHandlers<'brands'>;
}

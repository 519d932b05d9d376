import { scanTally } from '../scan-tally.js';
import type { HandlerContext } from './context.js';
import type { AreaHandlers } from './types.js';

/** `tally`: scan to count's tally of a store, kept in the database (add, undo the last, clear, list, apply). */
export function tallyHandlers(ctx: Pick<HandlerContext, 'current' | 'feed'>) {
  return {
    list: async ({ storeId }) => scanTally.list(await ctx.current(), storeId),
    add: async ({ storeId, code, quantity }) => scanTally.add(await ctx.current(), storeId, code, quantity),
    undo: async ({ storeId }) => scanTally.undo(await ctx.current(), storeId),
    clear: async ({ storeId }) => scanTally.clear(await ctx.current(), storeId),
    apply: async ({ storeId }) => {
      const { changed, results: _results, ...applied } = await scanTally.apply(await ctx.current(), storeId);
      if (changed.length > 0) {
        ctx.feed.stockChanged(changed);
        ctx.feed.scheduleStatus();
      }
      return applied;
    },
  } satisfies AreaHandlers<'tally'>;
}

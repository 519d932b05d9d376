import type { HandlerContext } from './context.js';
import type { AreaHandlers } from './types.js';

const DEFAULT_LIST_LIMIT = 50;

/** `outbox`: what is waiting to reach the marketplace, retried or discarded by the person. */
export function outboxHandlers(ctx: Pick<HandlerContext, 'current' | 'feed'>) {
  return {
    list: async (q) => {
      const p = await ctx.current();
      return p.outbox.list({ kind: q?.kind, state: q?.state, limit: q?.limit ?? DEFAULT_LIST_LIMIT, offset: q?.offset ?? 0 });
    },
    retry: async ({ entryId }) => {
      const p = await ctx.current();
      p.engine.retry(entryId);
      ctx.feed.stockChanged(null);
      ctx.feed.scheduleStatus();
      return { entryId };
    },
    discard: async ({ entryId }) => {
      const p = await ctx.current();
      const { how } = p.engine.discard(entryId, { author: p.author, operator: p.operator });
      ctx.feed.stockChanged(null);
      ctx.feed.scheduleStatus();
      return { entryId, how };
    },
  } satisfies AreaHandlers<'outbox'>;
}

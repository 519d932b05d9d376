import { countSessions } from '../count-sessions.js';
import type { HandlerContext } from './context.js';
import type { AreaHandlers } from './types.js';

const DEFAULT_LINES = 200;

/** `counts`: count sessions of a store (cycle counts): start, count by scan or by hand, review, apply, cancel. */
export function countsHandlers(ctx: Pick<HandlerContext, 'current' | 'feed'>) {
  return {
    list: async () => countSessions.list(await ctx.current()),
    start: async (input) => countSessions.start(await ctx.current(), input),
    get: async ({ sessionId, limit, offset }) => countSessions.page(await ctx.current(), sessionId, limit ?? DEFAULT_LINES, offset ?? 0),
    scan: async ({ sessionId, code, quantity, addOutside }) => countSessions.scan(await ctx.current(), sessionId, code, quantity, addOutside),
    set: async ({ sessionId, userProductId, counted }) => countSessions.set(await ctx.current(), sessionId, userProductId, counted),
    review: async ({ sessionId }) => countSessions.review(await ctx.current(), sessionId),
    apply: async ({ sessionId }) => {
      const p = await ctx.current();
      const review = await countSessions.apply(p, sessionId);
      ctx.feed.stockChanged(countSessions.changedProducts(p, sessionId));
      ctx.feed.scheduleStatus();
      return review;
    },
    cancel: async ({ sessionId }) => countSessions.cancel(await ctx.current(), sessionId),
  } satisfies AreaHandlers<'counts'>;
}

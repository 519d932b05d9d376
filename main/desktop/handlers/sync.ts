import type { SyncStatusView } from '../../../common/contract/contract.js';
import { desktopErrors } from '../errors.js';
import type { HandlerContext } from './context.js';
import type { AreaHandlers } from './types.js';

/** `sync`: the engine's status, a pull on demand, and what is on screen (read first by a first pull). */
export function syncHandlers(ctx: Pick<HandlerContext, 'current' | 'feed'>) {
  return {
    status: async (): Promise<SyncStatusView> => (await ctx.current()).engine.status(),
    pullNow: async (input) => {
      const p = await ctx.current();
      if (p.kind === 'local') throw desktopErrors.localOnly('Pulling from the marketplace');
      if (!p.auth) throw desktopErrors.notSignedIn();
      const { incoming: _incoming, ...report } = await (input?.stock === 'background' ? p.engine.pull() : p.engine.pullNow());
      ctx.feed.scheduleStatus();
      return report;
    },
    visible: async ({ ids }) => {
      (await ctx.current()).engine.showing(ids);
      return null;
    },
  } satisfies AreaHandlers<'sync'>;
}

import type { HandlerContext } from './context.js';
import type { AreaHandlers } from './types.js';

/** `settings`: read and change them; a change that cannot open its profile is undone. */
export function settingsHandlers(ctx: Pick<HandlerContext, 'settings' | 'session' | 'reconcile' | 'feed' | 'settingsView' | 'sessionView' | 'log'>) {
  return {
    get: async () => ctx.settingsView(),
    update: async (patch) => {
      const before = ctx.settings.get();
      // The token as it is, bound to its own address (not only when it is the current one's).
      const beforeToken = ctx.settings.tokenBinding();
      const keepBefore = ctx.settings.prefs().keepSignedIn;
      const { accessToken, ...rest } = patch;
      await ctx.settings.update({ ...rest, ...(accessToken !== undefined ? { accessToken } : {}) });
      // Staying signed in or not moves the open account's sign-in between the credentials file and memory.
      if (patch.keepSignedIn !== undefined && patch.keepSignedIn !== keepBefore) await ctx.session.moveTo(patch.keepSignedIn, ctx.settings.get());
      try {
        await ctx.reconcile();
      } catch (e) {
        // The new settings cannot open their profile: nothing changes.
        await ctx.settings.update({ ...before, accessToken: beforeToken.token }, beforeToken.tokenFor);
        await ctx.reconcile().catch((err: unknown) => ctx.log(err));
        throw e;
      }
      const settings = ctx.settingsView();
      ctx.feed.emit({ type: 'settings.changed', settings });
      ctx.feed.emit({ type: 'session.changed', session: await ctx.sessionView() });
      return settings;
    },
  } satisfies AreaHandlers<'settings'>;
}

import { desktopErrors } from '../errors.js';
import type { HandlerContext } from './context.js';
import type { AreaHandlers } from './types.js';

/** `session`: signing in through the system browser and out. */
export function sessionHandlers(ctx: Pick<HandlerContext, 'session' | 'settings' | 'host' | 'reconcile' | 'feed' | 'settingsView' | 'sessionView'>) {
  return {
    status: async () => ctx.sessionView(),
    signIn: async () => {
      if (ctx.session.signingIn) throw desktopErrors.busy('A sign-in');
      const s = ctx.settings.get();
      if (!s.baseUrl) throw desktopErrors.notConfigured('address (base_url)');
      if (!s.applicationId) throw desktopErrors.notConfigured('application id');
      const open = ctx.host.openExternal;
      if (!open) throw desktopErrors.unsupported('Signing in through the browser');
      await ctx.session.signIn(
        { baseUrl: s.baseUrl, applicationId: s.applicationId, openExternal: open },
        {
          started: async () => ctx.feed.emit({ type: 'session.changed', session: await ctx.sessionView() }),
          signedIn: async (tm) => {
            // The seller is who the marketplace's token answer names (its user_id).
            await ctx.settings.update({ userId: tm.userId });
            await ctx.settings.rememberAccount({
              baseUrl: tm.baseUrl,
              applicationId: tm.applicationId,
              userId: tm.userId,
              siteId: ctx.settings.prefs().siteId,
              nickname: null,
            });
            await ctx.reconcile();
          },
        },
      );
      const session = await ctx.sessionView();
      ctx.feed.emit({ type: 'session.changed', session });
      return session;
    },
    cancelSignIn: async () => {
      ctx.session.cancelSignIn();
      return ctx.sessionView();
    },
    signOut: async () => {
      const s = ctx.settings.get();
      await ctx.session.signOut(s);
      await ctx.settings.update({ accessToken: null, ...(s.mode === 'online' ? { mode: 'offline' as const } : {}) });
      await ctx.reconcile();
      const session = await ctx.sessionView();
      ctx.feed.emit({ type: 'session.changed', session });
      ctx.feed.emit({ type: 'settings.changed', settings: ctx.settingsView() });
      return session;
    },
  } satisfies AreaHandlers<'session'>;
}

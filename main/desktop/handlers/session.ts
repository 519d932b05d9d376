import { desktopErrors } from '../errors.js';
import type { HandlerContext } from './context.js';
import type { AreaHandlers } from './types.js';

/** `session`: signing in through the system browser and out. */
export function sessionHandlers(ctx: Pick<HandlerContext, 'session' | 'settings' | 'host' | 'reconcile' | 'feed' | 'settingsView' | 'sessionView' | 'log'>) {
  return {
    status: async () => ctx.sessionView(),
    signIn: async (to) => {
      if (ctx.session.signingIn) throw desktopErrors.busy('A sign-in');
      const s = ctx.settings.get();
      const baseUrl = to?.baseUrl ?? s.baseUrl;
      const applicationId = to?.applicationId ?? s.applicationId;
      if (!baseUrl) throw desktopErrors.notConfigured('address (base_url)');
      if (!applicationId) throw desktopErrors.notConfigured('application id');
      const open = ctx.host.openExternal;
      if (!open) throw desktopErrors.unsupported('Signing in through the browser');
      await ctx.session.signIn(
        { baseUrl, applicationId, openExternal: open },
        {
          started: async () => ctx.feed.emit({ type: 'session.changed', session: await ctx.sessionView() }),
          signedIn: async (tm) => {
            // Only now the new account becomes the settings': the open one stayed open during the
            // sign-in (issue 27). The seller is who the token answer names (its user_id).
            const before = ctx.settings.get();
            const beforeToken = ctx.settings.tokenBinding();
            const siteBefore = ctx.settings.prefs().siteId;
            await ctx.settings.update({
              baseUrl: tm.baseUrl,
              applicationId: tm.applicationId,
              userId: tm.userId,
              ...(to?.siteId ? { siteId: to.siteId } : {}),
            });
            try {
              await ctx.reconcile();
            } catch (e) {
              // The new account cannot open: the one open before stays, as it was.
              await ctx.settings.update({ ...before, siteId: siteBefore, accessToken: beforeToken.token }, beforeToken.tokenFor);
              await ctx.reconcile().catch((err: unknown) => ctx.log(err));
              throw e;
            }
            await ctx.settings.rememberAccount({
              baseUrl: tm.baseUrl,
              applicationId: tm.applicationId,
              userId: tm.userId,
              siteId: ctx.settings.prefs().siteId,
              nickname: null,
            });
          },
        },
      );
      const session = await ctx.sessionView();
      ctx.feed.emit({ type: 'session.changed', session });
      ctx.feed.emit({ type: 'settings.changed', settings: ctx.settingsView() });
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

import { DesktopError, desktopErrors } from '../errors.js';
import type { HandlerContext } from './context.js';
import type { AreaHandlers } from './types.js';

/** `app`: what the app is, and links opened in the system browser. */
export function appHandlers(ctx: Pick<HandlerContext, 'dataDir' | 'version' | 'host' | 'linkAllowed' | 'pictureHosts'>) {
  return {
    info: async () => ({
      name: 'Stockroom',
      version: ctx.version ?? '0.0.0',
      shell: ctx.host.shell,
      platform: process.platform,
      dataDir: ctx.dataDir,
      pictureHosts: [...ctx.pictureHosts],
    }),
    openExternal: async ({ url }) => {
      if (!ctx.linkAllowed(url)) {
        throw new DesktopError('forbidden_url', 'This link is not on the list of sites the app opens', 403);
      }
      if (!ctx.host.openExternal) throw desktopErrors.unsupported('Opening links');
      await ctx.host.openExternal(url);
      return { opened: true };
    },
  } satisfies AreaHandlers<'app'>;
}

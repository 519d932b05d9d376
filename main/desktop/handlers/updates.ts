import { ERROR_CODES } from '../../../common/errors.js';
import { DesktopError } from '../errors.js';
import type { HandlerContext } from './context.js';
import type { AreaHandlers } from './types.js';

const off = () => new DesktopError(ERROR_CODES.unsupported, 'Updates are off in this copy of the app (no update feed)', 501);

/** `updates`: the app's own update, checked for and installed when the person agrees (main/desktop/updates.ts). */
export function updatesHandlers(ctx: Pick<HandlerContext, 'updates'>) {
  return {
    status: async () => ctx.updates?.view() ?? { state: 'off' as const },
    check: async () => {
      if (!ctx.updates) throw off();
      return ctx.updates.check();
    },
    install: async () => {
      if (!ctx.updates) throw off();
      if (!ctx.updates.install()) throw new DesktopError(ERROR_CODES.notFound, 'No update has been downloaded yet', 409);
      return ctx.updates.view();
    },
  } satisfies AreaHandlers<'updates'>;
}

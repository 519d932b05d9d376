import { appHandlers } from './app.js';
import { brandsHandlers } from './brands.js';
import type { HandlerContext } from './context.js';
import { countsHandlers } from './counts.js';
import { messagesHandlers } from './messages.js';
import { operatorsHandlers } from './operators.js';
import { outboxHandlers } from './outbox.js';
import { sessionHandlers } from './session.js';
import { settingsHandlers } from './settings.js';
import { stockHandlers } from './stock.js';
import { syncHandlers } from './sync.js';
import { tallyHandlers } from './tally.js';
import type { Handlers } from './types.js';
import { updatesHandlers } from './updates.js';

export type { HandlerContext } from './context.js';
export type { AreaHandlers, Handler, Handlers } from './types.js';

/** Every area's handlers (one file each, as the contract's areas), joined into what the dispatch wraps. */
export function createHandlers(ctx: HandlerContext): Handlers {
  return {
    app: appHandlers(ctx),
    settings: settingsHandlers(ctx),
    session: sessionHandlers(ctx),
    stock: stockHandlers(ctx),
    outbox: outboxHandlers(ctx),
    messages: messagesHandlers(ctx),
    brands: brandsHandlers(ctx),
    sync: syncHandlers(ctx),
    updates: updatesHandlers(ctx),
    counts: countsHandlers(ctx),
    operators: operatorsHandlers(ctx),
    tally: tallyHandlers(ctx),
  } satisfies Handlers;
}

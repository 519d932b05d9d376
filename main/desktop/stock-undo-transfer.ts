import type { StockReason } from '../../common/stock-reasons.js';
import type { TransferResultView, UndoResultView } from '../../common/contract/contract.js';
import type { Profile } from './profile.js';
import type { HandlerContext } from './handlers/context.js';

type StockContext = Pick<HandlerContext, 'feed'>;

/**
 * Transfers and undo (issue 14 §5, §6). The local profile is the marketplace itself: the service
 * applies them at once (local-edits.ts). A replica queues them (outbox.ts): a transfer as one
 * entry sent as one PUT carrying both stores; an undo withdraws a pending edit or queues its inverse.
 */
export async function transfer(
  ctx: StockContext,
  p: Profile,
  input: { userProductId: string; fromStoreId: string; toStoreId: string; units: number; ref?: string | undefined },
): Promise<TransferResultView> {
  const meta = { author: p.author, operator: p.operator, ...(input.ref ? { ref: input.ref } : {}) };
  let result: TransferResultView;
  if (p.kind === 'local') {
    const done = await p.service.localEdits.transfer(p.principal, input, meta);
    result = { entryId: null, how: 'queued', shown: done.shown, historyId: done.historyId, shownTo: done.shownTo, historyIdTo: done.historyIdTo };
  } else {
    result = p.engine.queueTransfer({
      userProductId: input.userProductId,
      type: 'seller_warehouse',
      storeId: input.fromStoreId,
      toStoreId: input.toStoreId,
      units: input.units,
      ...meta,
    });
  }
  ctx.feed.stockChanged([input.userProductId]);
  ctx.feed.scheduleStatus();
  return result;
}

export async function undo(ctx: StockContext, p: Profile): Promise<UndoResultView> {
  const result =
    p.kind === 'local' ? reversedHere(await p.service.localEdits.undoLast(p.principal, p.author, p.operator)) : p.engine.undoLast(p.author, p.operator);
  if (result.userProductId) {
    ctx.feed.stockChanged([result.userProductId]);
    ctx.feed.scheduleStatus();
  }
  return result;
}

/** Where the app is the marketplace an inverse is applied at once, not queued: the person is told so. */
const reversedHere = (r: UndoResultView): UndoResultView => (r.how === 'inverse' ? { ...r, how: 'reversed' } : r);

/** The meta of an adjustment with the reason the person picked. */
export const withReason = <T extends object>(meta: T, reason: StockReason | undefined): T & { reason?: StockReason } => (reason ? { ...meta, reason } : meta);

import type { SyncRepo } from '../../db/repos/sync.js';
import type { MessagePusher } from '../message-push.js';
import type { StockBatcher } from '../stock-batch.js';
import type { StockPusher } from '../stock-push.js';
import { messageKind } from './message.js';
import { stockKind } from './stock.js';
import type { OutboxKinds } from './types.js';

export type { Claimed, OutboxKindHandler, OutboxKinds, Sent } from './types.js';
export { messageView, packLane, settleFoundMessages } from './message.js';
export { stockLane, stockView } from './stock.js';

/** The kind registry of one engine: every kind of common/outbox.ts's list with its handler. */
export function outboxKinds(repo: SyncRepo, stock: StockPusher, messages: MessagePusher, batcher: StockBatcher | null = null): OutboxKinds {
  return { stock: stockKind(stock, batcher), message: messageKind(repo, messages) };
}

/** No remote (local-only): nothing is ever claimed. */
export const NO_KINDS: OutboxKinds = { stock: { kind: 'stock', claim: () => null }, message: { kind: 'message', claim: () => null } };

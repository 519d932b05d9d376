import type { OutboxKind } from '../../../common/outbox.js';
import type { ClaimedFields, OutboxRow } from '../../db/repos/sync.js';
import type { BatchOutcome } from '../stock-batch.js';
import type { PushOutcome } from '../stock-push.js';

/** What settling an entry's outcome and announcing it need of the claimed row. */
export type Sent = Pick<OutboxRow, 'id' | 'kind' | 'attempts' | 'cell'>;

/**
 * A claimed entry: claimed and its request planned (persisted in the claim's transaction), not
 * sent yet. `before`: what undoing the claim restores while its request has not gone out.
 */
export interface Claimed {
  row: Sent;
  before: ClaimedFields;
  /** The other entries claimed into the same request (one PUT per product, stock-batch.ts): each settles on its own. */
  also?: { row: Sent; before: ClaimedFields }[];
  /** Sends it until an outcome: done, conflict, withdrawn, retry or failed, one per entry of a batch (never throws for the remote's sake). */
  send(): Promise<PushOutcome | BatchOutcome>;
}

/**
 * One kind of outbox entry (main/sync/kinds/<kind>.ts): its lane, how it is claimed and pushed.
 * Its payload schema and its view live in the same module. The engine looks the kind up instead of
 * branching on it; the list of kinds is common/outbox.ts's OUTBOX_KINDS.
 */
export interface OutboxKindHandler {
  readonly kind: OutboxKind;
  /** Inside the claim's transaction: claims a pending entry and plans its request; null when it is no longer pending. */
  claim(id: number, now: number, lane?: string, company?: boolean): Claimed | null;
}

/** Every kind's handler: a Record over the kind list, so a new kind does not compile until it has one. */
export type OutboxKinds = Record<OutboxKind, OutboxKindHandler>;

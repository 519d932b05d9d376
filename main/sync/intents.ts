import { createReadStream } from 'node:fs';
import type { Db } from '../db/open.js';
import type { MessagesRepo } from '../db/repos/messages.js';
import type { StockRepo } from '../db/repos/stock.js';
import type { Clock } from '../service/clock.js';
import { badRequest } from '../service/errors.js';
import type { OperatorStamp } from '../service/operators/operators.js';
import { resolveMediaType } from '../service/messages/attachments/media.js';
import { checkCount, checkDelta } from '../service/stock/cells.js';
import { atIndex } from '../service/stock/local-edits.js';
import { packLane, stockLane } from './kinds/lanes.js';
import type { FileStore, MessagePayload } from './message-push.js';
import { type DiscardResult, type EditMeta, type Outbox, type QueueResult, type Resolution, type TransferResult, type UndoResult, newKey } from './outbox.js';
import { type ModerationWarning, type OutgoingFile, type StockTarget, checkMessage, checkStockTarget } from './validate.js';

/** What the intents need of their engine. */
export interface IntentsHost {
  readonly db: Db;
  readonly outbox: Outbox;
  readonly sellerId: number;
  readonly clock: Clock;
  readonly stockData: StockRepo;
  readonly messagesData: MessagesRepo;
  readonly files: FileStore;
  readonly mediationSite: string;
  /** Local-only: the database is the marketplace itself (no outbox). */
  localOnly(): boolean;
  /** After a change to a lane in SQLite. */
  laneChanged(lane: string): void;
}

/**
 * The person's intents, as the engine takes them (the UI's calls): each is checked like the
 * marketplace would check it (validate.ts), written durably in one transaction with its history
 * row (outbox.ts), and its lane told. Returns once it has survived a crash or a power cut.
 */
export class Intents {
  constructor(private readonly host: IntentsHost) {}

  /** Local-only: the database is the marketplace itself, and its stock is edited through the service (service/stock/local-edits.ts). */
  private assertReplica(): void {
    if (this.host.localOnly()) throw badRequest('In local-only mode stock is edited through the local service, not queued');
  }

  private cell(input: StockTarget) {
    const { stockData, outbox, sellerId } = this.host;
    return checkStockTarget(stockData, outbox.mirror, sellerId, input);
  }

  /** "Received 12", "2 damaged": a delta. */
  adjustment(input: StockTarget & { delta: number } & EditMeta): QueueResult {
    this.assertReplica();
    const cell = this.cell(input);
    const result = this.host.outbox.adjust(cell, checkDelta(input.delta), input);
    this.host.laneChanged(stockLane(cell.userProductId));
    return result;
  }

  /** "There are 40 on the shelf": an absolute count at the current base. */
  count(input: StockTarget & { quantity: number } & EditMeta): QueueResult {
    this.assertReplica();
    const cell = this.cell(input);
    const result = this.host.outbox.count(cell, checkCount(input.quantity), input);
    this.host.laneChanged(stockLane(cell.userProductId));
    return result;
  }

  /** N units from one store of a product to another: one entry, later one PUT with both stores. */
  transfer(input: StockTarget & { toStoreId: string; units: number } & EditMeta): TransferResult {
    this.assertReplica();
    const from = this.cell(input);
    const to = this.cell({ ...input, storeId: input.toStoreId });
    const result = this.host.outbox.transfer(from, to.storeKey, input.units, input);
    this.host.laneChanged(stockLane(from.userProductId));
    return result;
  }

  /** Takes back the author's last edit (outbox-undo.ts). */
  undoLast(author: string, operator: OperatorStamp | null = null): UndoResult {
    this.assertReplica();
    const result = this.host.outbox.undoLast(author, operator);
    if (result.userProductId) this.host.laneChanged(stockLane(result.userProductId));
    return result;
  }

  /**
   * Many edits as one intent (a file import): each checked and queued as count / adjustment do,
   * all in one transaction with one fsync, so a refusal anywhere (thrown as a BatchEditError with
   * its index) leaves none of them queued. The lanes learn of them after the commit.
   */
  stockBatch(edits: (StockTarget & ({ delta: number } | { quantity: number }) & EditMeta)[]): QueueResult[] {
    this.assertReplica();
    const { outbox } = this.host;
    return this.batch(edits, (cell, input) =>
      'delta' in input ? outbox.adjust(cell, checkDelta(input.delta), input) : outbox.count(cell, checkCount(input.quantity), input),
    );
  }

  /**
   * Counts observed earlier at their bases (a count session's lines): each a sealed entry of its
   * own (Outbox.countObserved), all in one transaction as stockBatch.
   */
  observedCounts(edits: (StockTarget & { quantity: number; base: number } & EditMeta)[]): (QueueResult & { moved: boolean })[] {
    this.assertReplica();
    return this.batch(edits, (cell, input) => this.host.outbox.countObserved(cell, checkCount(input.quantity), input.base, input));
  }

  private batch<I extends StockTarget, R>(edits: I[], queue: (cell: ReturnType<Intents['cell']>, input: I) => R): R[] {
    const lanes = new Set<string>();
    const results = this.host.db
      .transaction(() =>
        edits.map((input, index) =>
          atIndex(index, () => {
            const cell = this.cell(input);
            lanes.add(stockLane(cell.userProductId));
            return queue(cell, input);
          }),
        ),
      )
      .immediate();
    for (const lane of lanes) this.host.laneChanged(lane);
    return results;
  }

  /**
   * An outgoing message: checked like the marketplace checks it (refused here with its error when
   * it would be refused there), its files copied into the app's store, then queued in one
   * transaction with `alsoInTransaction` (the conversation's draft cleared). Moderation findings
   * come back as warnings (the message is still queued).
   */
  async message(
    input: { packId: number; text: string; files?: OutgoingFile[] } & EditMeta,
    alsoInTransaction?: () => void,
  ): Promise<{ entryId: number; warnings: ModerationWarning[] }> {
    if (this.host.localOnly()) throw badRequest('In local-only mode messages are sent through the local service');
    const { messagesData, sellerId, mediationSite, files, db, outbox, clock } = this.host;
    const checked = await checkMessage(messagesData, sellerId, mediationSite, input);
    const attachments: MessagePayload['attachments'] = [];
    for (const f of checked.files) {
      const staged = await files.stage(createReadStream(f.path));
      await files.commit(staged);
      if (staged.size !== f.size || staged.size === 0) throw badRequest(`The file ${f.name} changed while it was being queued`);
      attachments.push({
        sha256: staged.sha256,
        name: f.name,
        type: f.type ?? resolveMediaType(undefined, staged.head, f.name),
        size: staged.size,
        remoteId: null,
      });
    }
    const payload: MessagePayload = {
      packId: input.packId,
      sellerId,
      toUserId: checked.pack.buyerId,
      siteId: checked.pack.siteId,
      text: checked.text,
      attachments,
      warnings: checked.warnings,
      uploadRound: 0,
    };
    const lane = packLane(input.packId);
    const entryId = db
      .transaction(() => {
        const id = outbox.repo.insert({ kind: 'message', lane, idempotency_key: newKey(), now: clock.now(), payload: JSON.stringify(payload) });
        alsoInTransaction?.();
        return id;
      })
      .immediate();
    this.host.laneChanged(lane);
    return { entryId, warnings: checked.warnings };
  }

  resolveConflict(entryId: number, resolution: Resolution, meta: EditMeta = {}): QueueResult {
    const lane = this.host.outbox.repo.byId(entryId)?.lane;
    const result = this.host.outbox.resolve(entryId, resolution, meta);
    if (lane) this.host.laneChanged(lane);
    return result;
  }

  retry(entryId: number): void {
    const lane = this.host.outbox.repo.byId(entryId)?.lane;
    this.host.outbox.retry(entryId);
    if (lane) this.host.laneChanged(lane);
  }

  /** Drops an entry; one of unknown outcome is checked with the marketplace first (model.ts). */
  discard(entryId: number, meta: EditMeta = {}): DiscardResult {
    const lane = this.host.outbox.repo.byId(entryId)?.lane;
    const result = this.host.outbox.discard(entryId, meta);
    if (lane) this.host.laneChanged(lane);
    return result;
  }
}

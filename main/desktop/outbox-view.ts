import type { Db } from '../db/open.js';
import { messageView, stockView } from '../sync/kinds/index.js';
import { type OutboxViewRow, outboxViewRepo } from '../db/repos/outbox-view.js';
import type { OutboxEntryView, QueuedMessageView } from '../../common/contract/contract.js';
import { phaseOf } from '../sync/model.js';

/**
 * Read-only views of the outbox (table sync_outbox of migration 007, read through
 * main/db/repos/outbox-view.ts) for the screens: the outbox list, the messages still queued in a
 * conversation, the product of an entry. Writes go through the sync engine only.
 */
export function outboxReader(db: Db) {
  const repo = outboxViewRepo(db);

  const view = (r: OutboxViewRow): OutboxEntryView => ({
    id: r.id,
    kind: r.kind,
    state: r.state,
    phase: phaseOf(r),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastStatus: r.last_status,
    lastError: r.last_error,
    stock: stockView(r),
    message: r.kind === 'message' ? messageView(r.payload) : null,
  });

  return {
    list(q: { kind?: string | undefined; state?: string | undefined; limit: number; offset: number }): { total: number; entries: OutboxEntryView[] } {
      const filter = { kind: q.kind ?? null, state: q.state ?? null };
      return db.transaction(() => ({ total: repo.count(filter), entries: repo.list(filter, q.limit, q.offset).map(view) }))();
    },
    queuedMessages(packId: number): QueuedMessageView[] {
      return repo.ofLane(`pack:${packId}`).map((r) => {
        const m = messageView(r.payload);
        return {
          entryId: r.id,
          state: r.state,
          phase: phaseOf(r),
          text: m?.text ?? '',
          files: m?.files ?? [],
          createdAt: r.created_at,
          lastError: r.last_error,
        };
      });
    },
    productOf: (entryId: number) => repo.productOf(entryId),
  };
}

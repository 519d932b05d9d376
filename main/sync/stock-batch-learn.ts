import type { Writes } from '../db/relaxed-writes.js';
import type { StockClaim } from '../db/repos/sync.js';
import type { Clock } from '../service/clock.js';
import { type RemoteClient, type RemoteResponse, classifyStatus } from './client.js';
import type { Sent } from './kinds/types.js';
import { type StockSnapshot, applyStockSnapshot } from './mirror-writes.js';
import type { Outbox } from './outbox.js';
import { type PushOutcome, STALE_SENT_MS, answerOutcome, readStock, retryOutcome } from './stock-push.js';

/**
 * Learning the outcome of a batch request (stock-batch.ts) that some of its members no longer
 * wait for: one gave up (outcome unknown) or is being taken back (a check). A key carries one
 * request body, so no member ever goes out alone under it: the request is learnt whole, as
 * stock-push.ts's check learns one entry's. A fresh read still at the version the request was
 * based on: it was not applied (applying it moves the version). Otherwise the same body under the
 * same key at that version: the remote replays it if it had applied it, and refuses it (409) if
 * not, so this never applies anything new. Applied: every member is done, those of unknown
 * outcome too (what they asked for is on the marketplace). Not applied: a member being taken back
 * is withdrawn, one of unknown outcome becomes refused (nothing of it applied; it stays shown
 * until the person retries or discards it), and the others go on under a fresh key.
 */

/** The learning plan: the request as persisted (every member sharing its key, in entry order) and the members not claimed (failed). */
export interface LearnPlan {
  type: 'learn';
  body: StockClaim[];
  unknown: StockClaim[];
}

export type Learnt =
  /** The request was applied: every member's outcome (claimed or not). */
  | { type: 'applied'; each: { row: Sent; outcome: PushOutcome }[] }
  /** It was not: the snapshot read, to plan what goes on. */
  | { type: 'not_applied'; snap: StockSnapshot }
  /** No answer to learn it from (a retry for the claimed members). */
  | { type: 'ended'; outcome: PushOutcome };

interface Deps {
  outbox: Outbox;
  client: RemoteClient;
  writes: Writes;
  clock: Clock;
}

/** Each location's quantity after the last member of its store (the body the members share). */
type Body = { store_id: string; quantity: number }[];

export async function learnBatch(d: Deps, userProductId: string, plan: LearnPlan, claimed: StockClaim[], body: Body): Promise<Learnt> {
  const first = plan.body[0]!;
  const sentVersion = BigInt(first.sent_version!);
  const snap = await readStock(d.client, userProductId, () => d.clock.now(), undefined, 'push');
  if (!('locations' in snap)) return { type: 'ended', outcome: snap };
  await d.writes.run(() => applyStockSnapshot(d.outbox, d.clock, userProductId, snap));
  if (snap.version === sentVersion) return { type: 'not_applied', snap };
  let answer: RemoteResponse | 'assumed';
  if (d.clock.now() - Math.min(...plan.body.map((r) => r.sent_at ?? 0)) > STALE_SENT_MS) {
    // The remote no longer keeps the key: the stale rule (it holds exactly what was sent: assumed applied).
    const same = body.every((l) => snap.locations.find((x) => x.type === 'seller_warehouse' && x.store_id === l.store_id)?.quantity === l.quantity);
    if (!same) return { type: 'not_applied', snap };
    answer = 'assumed';
  } else {
    try {
      answer = await d.client.request('PUT', `/user-products/${encodeURIComponent(userProductId)}/stock/type/seller_warehouse`, {
        json: { locations: body },
        headers: { 'x-version': sentVersion.toString() },
        idempotencyKey: first.idempotency_key,
        priority: 'push',
      });
    } catch (e) {
      return { type: 'ended', outcome: retryOutcome(e) };
    }
    const kind = classifyStatus(answer.status);
    if (kind === 'conflict' || kind === 'rejected') return { type: 'not_applied', snap };
    if (kind !== 'ok') return { type: 'ended', outcome: answerOutcome(answer, d.clock.now()) };
  }
  const res = answer;
  const raw = res === 'assumed' ? undefined : res.headers['x-version'];
  const resultVersion = typeof raw === 'string' && /^[0-9]{1,19}$/.test(raw) ? BigInt(raw) : null;
  const done = (row: StockClaim): { row: Sent; outcome: PushOutcome } => ({
    row,
    outcome: {
      type: 'done',
      replayed: res !== 'assumed' && res.replayed,
      // The mirror was just read (it holds the request's effect and what came after): only the entry is marked.
      commit: () => {
        d.outbox.repo.markDone(
          row.id,
          res === 'assumed'
            ? { result_version: null, result: 'assumed applied (idempotency key expired)', status: 200 }
            : { result_version: resultVersion, result: null, status: res.status },
          d.clock.now(),
        );
        return null;
      },
    },
  });
  return { type: 'applied', each: [...claimed.map(done), ...plan.unknown.map(done)] };
}

/** A member of unknown outcome once its request is known never to have been applied. */
export const notApplied = (row: Sent, by: number): { row: Sent; outcome: PushOutcome } => ({
  row,
  outcome: {
    type: 'failed',
    status: null,
    error: `Not applied: its request never reached the marketplace (learnt when entry ${by} was sent again); retry sends it`,
  },
});

import type { Writes } from '../db/relaxed-writes.js';
import { type ClaimedFields, type LaneStock, type StockClaim, claimedFields } from '../db/repos/sync.js';
import type { Clock } from '../service/clock.js';
import { MAX_QUANTITY } from '../service/stock/locations.js';
import { type RemoteClient, type RemoteResponse, classifyStatus } from './client.js';
import type { Claimed, Sent } from './kinds/types.js';
import { type StockSnapshot, applyStockSnapshot } from './mirror-writes.js';
import { type LearnPlan, learnBatch, notApplied } from './stock-batch-learn.js';
import { type Outbox, newKey } from './outbox.js';
import { parseSellerWarehouseAnswer } from './remote-answers.js';
import { MAX_REBASES, type PushOutcome, STALE_SENT_MS, answerOutcome, readStock, retryOutcome } from './stock-push.js';

/**
 * (Past 400 lines: claiming, planning and pushing a batch share its members' in-memory rows and
 * their undo fields; learning an old request's outcome is apart, in stock-batch-learn.ts.)
 *
 * One request per product (issue 29): the due entries of a user product's seller_warehouse cells
 * go out as ONE PUT carrying every location under one x-version, so 10,000 edits over 2,000
 * products cost about 2,000 requests of the marketplace's 100 a minute. Each entry keeps its own
 * semantics and settles on its own:
 * - the quantities are planned from the mirror in entry order, cell by cell (an adjustment adds its
 *   delta to what the entries before it left, a count needs its base to be what they left);
 * - each member persists its share (its cell's quantity after it, the version, the batch's one
 *   key), so a kill mid-flight resends exactly the same body under the same key: the members that
 *   share a key rebuild it (`bodyOf`) and the remote replays its answer;
 * - a 409 re-reads the product once and re-plans every member by its own rule: a count whose cell
 *   moved becomes a conflict and is left out (and what follows it in that cell goes back to
 *   waiting), an adjustment that no longer fits fails alone, the rest goes on in the next request
 *   under a fresh key (a key never carries two different requests).
 * - while a member of a request sent before is of unknown outcome (it gave up) or being taken
 *   back, no member goes out alone under its key (a key carries one body): the request's outcome
 *   is learnt whole first (stock-batch-learn.ts), and only then does what is left go on under a
 *   fresh key.
 * Transfers, other stock types and a lone entry keep the single-entry path (stock-push.ts);
 * MAX_REBASES and the stale-sent rule hold for a batch as for one entry.
 */

/** Every member's own outcome of one batch request. */
export interface BatchOutcome {
  type: 'batch';
  each: { row: Sent; outcome: PushOutcome }[];
}

/** A member of a batch: its row (its request fields as persisted) and what a claim undo restores. */
interface Member {
  row: StockClaim;
  before: ClaimedFields;
}

type BatchPlan = { type: 'send'; version: bigint; rekeyed: boolean } | { type: 'read'; why: 'verify' | 'stale_sent' } | LearnPlan;

/** Whether an entry can share a product's request: a never-sent plain seller_warehouse edit with no withdrawal. */
const joinable = (e: LaneStock): boolean =>
  e.state === 'pending' &&
  e.row.sent_version === null &&
  e.row.withdraw === 0 &&
  e.row.cell2 === null &&
  e.row.cell_type === 'seller_warehouse' &&
  e.row.op !== null;

const storeOf = (r: StockClaim): string => r.store_key ?? '';

/** The body of the request the members share: each location's quantity after the last member of its store, stores in entry order. */
export function bodyOf(members: readonly Pick<StockClaim, 'store_key' | 'sent_quantity'>[]): { store_id: string; quantity: number }[] {
  const at = new Map<string, number>();
  for (const m of members) at.set(m.store_key ?? '', m.sent_quantity ?? 0);
  return [...at].map(([store_id, quantity]) => ({ store_id, quantity }));
}

export class StockBatcher {
  constructor(
    private readonly outbox: Outbox,
    private readonly client: RemoteClient,
    private readonly writes: Writes,
    private readonly clock: Clock,
  ) {}

  /**
   * Inside the claim's transaction: `id` with the entries that share its request (a batch sent
   * before a kill), or with the other due entries of its product (a new batch). 'single' when the
   * entry goes alone (stock-push.ts), null when it is no longer pending.
   */
  claim(id: number, userProductId: string, now: number): Claimed | 'single' | null {
    const repo = this.outbox.repo;
    const lane = repo.stockOfLane(`up:${userProductId}`);
    const head = lane.find((e) => e.row.id === id);
    if (!head) return null;
    if (head.state !== 'pending') return null;
    if (head.row.sent_version !== null) {
      // Sent before (a kill, lost answers): the members of that request go again together, as they were.
      const key = head.row.idempotency_key;
      const shared = lane.filter((e) => e.row.sent_version !== null && e.row.idempotency_key === key && e.row.cell2 === null);
      if (shared.length < 2) return 'single';
      // Claimed together, so never the case; were it, no member goes alone under the shared key.
      if (shared.some((e) => e.state === 'in_flight')) return null;
      const open = shared.filter((e) => e.state === 'pending');
      const members = open.map((e) => ({ row: e.row, before: claimedFields(e.row) }));
      for (const m of members) repo.claimQuiet(m.row.id, now);
      if (open.length < shared.length || open.some((e) => e.row.withdraw === 1)) {
        // A member gave up (unknown) or is taken back: the request's outcome is learnt whole first.
        const unknown = shared.filter((e) => e.state === 'failed').map((e) => e.row);
        return this.claimed(userProductId, members, { type: 'learn', body: shared.map((e) => e.row), unknown });
      }
      const stale = now - Math.min(...members.map((m) => m.row.sent_at ?? now)) > STALE_SENT_MS;
      const plan: BatchPlan = stale ? { type: 'read', why: 'stale_sent' } : { type: 'send', version: BigInt(head.row.sent_version), rekeyed: false };
      return this.claimed(userProductId, members, plan);
    }
    if (!joinable(head)) return 'single';
    const members = this.gather(lane, now);
    if (members.length < 2 || members[0]!.row.row.id !== id) return 'single';
    const version = this.outbox.mirror.product(userProductId)?.version ?? null;
    const planned =
      version === null
        ? null
        : this.targets(
            members.map((m) => m.row.row),
            (store) => members.find((m) => storeOf(m.row.row) === store)?.row.quantity,
          );
    const claimed = members.map((m) => ({ row: m.row.row, before: claimedFields(m.row.row) }));
    if (version === null || planned === null || planned.dropped.length > 0 || members.some((m) => m.row.row.needs_read === 1)) {
      // The mirror cannot say (no version, a count off its base, a quantity out of range): read first.
      for (const m of claimed) repo.claimQuiet(m.row.id, now);
      return this.claimed(userProductId, claimed, { type: 'read', why: 'verify' });
    }
    const rekeyed = claimed.some((m) => m.row.key_used === 1);
    const key = rekeyed ? newKey() : claimed[0]!.row.idempotency_key;
    for (const m of claimed) {
      repo.setBatchSent(m.row.id, version, planned.quantity.get(m.row.id)!, key, now, true);
      this.sentAs(m.row, version, planned.quantity.get(m.row.id)!, key, now);
    }
    return this.claimed(userProductId, claimed, { type: 'send', version, rekeyed });
  }

  /** The due, joinable entries of the lane in order; a cell held by an entry that is not joining holds what follows it. */
  private gather(lane: LaneStock[], now: number): { row: LaneStock }[] {
    const held = new Set<string>();
    const out: { row: LaneStock }[] = [];
    for (const e of lane) {
      const cells = [e.row.cell, e.row.cell2].filter((c): c is string => c !== null);
      if (e.state === 'in_flight') return [];
      if (joinable(e) && e.next_attempt_at <= now && !cells.some((c) => held.has(c))) out.push({ row: e });
      else for (const c of cells) held.add(c);
    }
    return out;
  }

  /**
   * Each member's quantity after it, in order from `quantityAt` (the mirror); the members whose
   * rule fails (a count off its base, an adjustment out of range) are `dropped` with why, and
   * hold their cell: what follows them there is `held` (it waits for them).
   */
  private targets(
    rows: StockClaim[],
    quantityAt: (store: string) => number | undefined,
  ): { quantity: Map<number, number>; dropped: { row: StockClaim; remote: number; why: 'conflict' | 'range' }[]; held: StockClaim[] } {
    const running = new Map<string, number>();
    const stopped = new Set<string>();
    const quantity = new Map<number, number>();
    const dropped: { row: StockClaim; remote: number; why: 'conflict' | 'range' }[] = [];
    const held: StockClaim[] = [];
    for (const r of rows) {
      const store = storeOf(r);
      if (stopped.has(store)) {
        held.push(r);
        continue;
      }
      const q = running.get(store) ?? quantityAt(store) ?? 0;
      const target = r.op === 'adjust' ? q + (r.delta ?? 0) : (r.quantity ?? 0);
      const bad = r.op === 'adjust' ? (target < 0 || target > MAX_QUANTITY ? 'range' : null) : q !== r.base_quantity ? 'conflict' : null;
      if (bad) {
        dropped.push({ row: r, remote: q, why: bad });
        stopped.add(store);
        continue;
      }
      running.set(store, target);
      quantity.set(r.id, target);
    }
    return { quantity, dropped, held };
  }

  private sentAs(row: StockClaim, version: bigint, quantity: number, key: string, now: number): void {
    row.idempotency_key = key;
    row.key_used = 1;
    row.needs_read = 0;
    row.sent_version = version.toString();
    row.sent_quantity = quantity;
    row.sent_quantity2 = null;
    row.sent_at = now;
  }

  private claimed(userProductId: string, members: Member[], plan: BatchPlan): Claimed {
    const [first, ...rest] = members;
    return { row: first!.row, before: first!.before, also: rest, send: () => this.push(userProductId, members, plan) };
  }

  /** Pushes the batch until every member has its outcome. */
  private async push(userProductId: string, start: Member[], first: BatchPlan): Promise<BatchOutcome> {
    const settled: { row: Sent; outcome: PushOutcome }[] = [];
    const all = (outcome: PushOutcome, members: Member[]): BatchOutcome => ({
      type: 'batch',
      each: [...settled, ...members.map((m) => ({ row: m.row, outcome }))],
    });
    let members = start;
    let plan = first;
    let reads = 0;
    for (;;) {
      if (plan.type === 'learn') {
        const next = await this.learn(userProductId, members, plan, settled);
        if (next === null) return { type: 'batch', each: settled };
        if ('type' in next) return next;
        ({ members, plan } = next);
        continue;
      }
      if (plan.type === 'read') {
        if (++reads > MAX_REBASES) return all({ type: 'retry', offline: false, status: 409, error: `Version mismatch ${MAX_REBASES} times in a row` }, members);
        const snap = await readStock(this.client, userProductId, () => this.clock.now(), undefined, 'push');
        if (!('locations' in snap)) return all(snap, members);
        const why = plan.why;
        const next = await this.writes.run(() => {
          applyStockSnapshot(this.outbox, this.clock, userProductId, snap);
          if (why === 'stale_sent') {
            const body = bodyOf(members.map((m) => m.row));
            const same = body.every((l) => quantityIn(snap, l.store_id) === l.quantity);
            if (snap.version > BigInt(members[0]!.row.sent_version!) && same) return 'applied' as const;
          }
          return this.replan(members, snap, settled);
        });
        if (next === 'applied') {
          // The remote no longer keeps the key, and it holds exactly what was sent: assumed applied.
          const assumed = (row: StockClaim): PushOutcome => ({
            type: 'done',
            replayed: false,
            commit: () => {
              this.outbox.repo.markDone(row.id, { result_version: null, result: 'assumed applied (idempotency key expired)', status: 200 }, this.clock.now());
              return null;
            },
          });
          return { type: 'batch', each: members.map((m) => ({ row: m.row, outcome: assumed(m.row) })) };
        }
        if (next === null) return { type: 'batch', each: settled };
        ({ members, plan } = next);
        continue;
      }
      let res: RemoteResponse;
      try {
        if (plan.rekeyed) await this.writes.durable();
        res = await this.put(userProductId, members, plan.version);
      } catch (e) {
        return all(retryOutcome(e), members);
      }
      const kind = classifyStatus(res.status);
      if (kind === 'ok') {
        const sent = plan.version;
        const answer = res;
        const done = members.map((m, i) => ({
          row: m.row,
          outcome: {
            type: 'done' as const,
            replayed: answer.replayed,
            // The first member's commit moves the mirror for the whole request; every one marks its own entry done.
            commit: () => (i === 0 ? this.complete(userProductId, members, sent, answer) : this.markDone(m.row, sent, answer)),
          },
        }));
        return { type: 'batch', each: [...settled, ...done] };
      }
      if (kind !== 'conflict') return all(answerOutcome(res, this.clock.now()), members);
      // 409: nothing of this request was applied: re-read the product once and re-plan every member.
      if (++reads > MAX_REBASES)
        return all({ type: 'retry', offline: false, status: 409, error: `Version mismatch ${MAX_REBASES} times in a row`, refused: true }, members);
      const snap = await readStock(this.client, userProductId, () => this.clock.now(), undefined, 'push');
      if (!('locations' in snap)) return all(snap.type === 'retry' ? { ...snap, refused: true } : snap, members);
      const next = await this.writes.run(() => {
        applyStockSnapshot(this.outbox, this.clock, userProductId, snap);
        return this.replan(members, snap, settled);
      });
      if (next === null) return { type: 'batch', each: settled };
      ({ members, plan } = next);
    }
  }

  /**
   * Learns whether the request the members share was applied (stock-batch-learn.ts). Not applied:
   * the members being taken back are withdrawn, those that gave up are told so, a member behind
   * either in its store goes back to waiting, and the rest is planned again from the read (a fresh
   * key: the old one carries the old body).
   */
  private async learn(
    userProductId: string,
    members: Member[],
    plan: LearnPlan,
    settled: { row: Sent; outcome: PushOutcome }[],
  ): Promise<BatchOutcome | { members: Member[]; plan: BatchPlan } | null> {
    const learnt = await learnBatch(
      { outbox: this.outbox, client: this.client, writes: this.writes, clock: this.clock },
      userProductId,
      plan,
      members.map((m) => m.row),
      bodyOf(plan.body),
    );
    if (learnt.type === 'ended') return { type: 'batch', each: [...settled, ...members.map((m) => ({ row: m.row, outcome: learnt.outcome }))] };
    if (learnt.type === 'applied') return { type: 'batch', each: [...settled, ...learnt.each] };
    const by = members[0]!.row.id;
    const out = plan.body.filter((r) => r.withdraw === 1 || plan.unknown.includes(r));
    for (const r of plan.unknown) settled.push(notApplied(r, by));
    for (const m of members)
      if (m.row.withdraw === 1) settled.push({ row: m.row, outcome: { type: 'withdrawn', commit: () => this.outbox.withdrawChecked(m.row.id) } });
    const goOn = members.filter((m) => m.row.withdraw !== 1);
    if (goOn.length === 0) return null;
    return this.writes.run(() => {
      const now = this.clock.now();
      for (const m of goOn) {
        // Its old request is known never to have applied: forgotten, so it is planned anew (key_used keeps the key retired).
        this.outbox.repo.clearSent(m.row.id);
        m.row.sent_version = null;
        m.row.sent_quantity = null;
        m.row.sent_quantity2 = null;
        m.row.sent_at = null;
        m.before = { ...m.before, sent_version: null, sent_quantity: null, sent_quantity2: null, sent_at: null };
      }
      // Behind a member that left in its store: it waits for that one, as in any lane.
      const behind = (m: Member) => out.some((r) => r.id < m.row.id && storeOf(r) === storeOf(m.row));
      for (const m of goOn.filter(behind)) this.outbox.repo.unclaim(m.row.id, m.before, now);
      const left = goOn.filter((m) => !behind(m));
      return left.length === 0 ? null : this.replan(left, learnt.snap, settled);
    });
  }

  /**
   * Inside a write: every member planned again against a fresh read. Members whose rule fails get
   * their outcome in `settled` (conflict, failed); what they hold goes back to waiting; the rest is
   * persisted under a fresh key (the old one may have reached the remote). Null when nothing is left.
   */
  private replan(members: Member[], snap: StockSnapshot, settled: { row: Sent; outcome: PushOutcome }[]): { members: Member[]; plan: BatchPlan } | null {
    const repo = this.outbox.repo;
    const now = this.clock.now();
    const planned = this.targets(
      members.map((m) => m.row),
      (store) => quantityIn(snap, store),
    );
    for (const d of planned.dropped) {
      const r = d.row;
      // Its request was not applied: a kill before its outcome is recorded leaves it a plain queued entry, not one outstanding.
      repo.clearSent(r.id);
      if (d.why === 'conflict') {
        settled.push({ row: r, outcome: { type: 'conflict', commit: () => void repo.markConflict(r.id, snap.version, d.remote, this.clock.now()) } });
      } else {
        const message = `The adjustment of ${r.delta} would take the stock ${(r.delta ?? 0) < 0 ? 'below 0' : `above ${MAX_QUANTITY}`}: the marketplace has ${d.remote}`;
        settled.push({ row: r, outcome: { type: 'failed', status: null, error: message } });
      }
    }
    // Held behind a member that left the request: back to waiting, without any request of its own.
    // What went out was not applied (a 409, or a read that found it not there), and a request kept
    // from before a kill would make it outstanding: it would go first, past the member it waits for (lanes.ts).
    for (const r of planned.held) {
      const m = members.find((x) => x.row === r)!;
      repo.unclaim(r.id, { ...m.before, sent_version: null, sent_quantity: null, sent_quantity2: null, sent_at: null }, now);
    }
    const left = members.filter((m) => planned.quantity.has(m.row.id));
    if (left.length === 0) return null;
    const rekeyed = left.some((m) => m.row.key_used === 1);
    const key = rekeyed ? newKey() : left[0]!.row.idempotency_key;
    for (const m of left) {
      const q = planned.quantity.get(m.row.id)!;
      repo.setBatchSent(m.row.id, snap.version, q, key, now, false);
      this.sentAs(m.row, snap.version, q, key, now);
    }
    return { members: left, plan: { type: 'send', version: snap.version, rekeyed } };
  }

  private put(userProductId: string, members: Member[], version: bigint) {
    return this.client.request('PUT', `/user-products/${encodeURIComponent(userProductId)}/stock/type/seller_warehouse`, {
      json: { locations: bodyOf(members.map((m) => m.row)) },
      headers: { 'x-version': version.toString() },
      idempotencyKey: members[0]!.row.idempotency_key,
      priority: 'push',
    });
  }

  private markDone(row: StockClaim, sent: bigint, res: RemoteResponse): null {
    const raw = res.headers['x-version'];
    const resultVersion = typeof raw === 'string' && /^[0-9]{1,19}$/.test(raw) ? BigInt(raw) : sent + 1n;
    this.outbox.repo.markDone(row.id, { result_version: resultVersion, result: null, status: res.status }, this.clock.now());
    return null;
  }

  /**
   * A 2xx for the whole request: the mirror moves to the answer's version when it was at the one
   * the request was based on (then only these locations changed), else the product is re-read.
   * Returns the product to re-read, or null (and marks the first member done either way).
   */
  private complete(userProductId: string, members: Member[], sent: bigint, res: RemoteResponse): string | null {
    const raw = res.headers['x-version'];
    const resultVersion = typeof raw === 'string' && /^[0-9]{1,19}$/.test(raw) ? BigInt(raw) : sent + 1n;
    const body = parseSellerWarehouseAnswer(res.body);
    let refresh: string | null = null;
    if (body.success && this.outbox.mirror.advanceVersion(userProductId, sent, resultVersion)) {
      for (const l of bodyOf(members.map((m) => m.row))) {
        const answered = body.data?.locations.find((a) => a.type === 'seller_warehouse' && a.store_id === l.store_id);
        this.outbox.mirror.setCell(userProductId, 'seller_warehouse', l.store_id, answered?.network_node_id ?? null, answered?.quantity ?? l.quantity);
      }
    } else {
      const product = this.outbox.mirror.product(userProductId);
      if (!product || product.version < resultVersion || !body.success) refresh = userProductId;
    }
    this.markDone(members[0]!.row, sent, res);
    return refresh;
  }
}

/** A seller_warehouse location's quantity in a fresh read (undefined: the product has no such location). */
function quantityIn(snap: StockSnapshot, store: string): number | undefined {
  return snap.locations.find((l) => l.type === 'seller_warehouse' && l.store_id === store)?.quantity;
}

export type { Member as BatchMember };

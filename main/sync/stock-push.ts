import type { Writes } from '../db/relaxed-writes.js';
import { type ClaimMirror, type ClaimedFields, type StockClaim, claimedFields } from '../db/repos/sync.js';
import type { Clock } from '../service/clock.js';
import { MAX_QUANTITY } from '../service/stock/locations.js';
import { type RemoteClient, RemoteError, type RemoteResponse, classifyStatus, isTransportFailure, parseRetryAfter, serverMessage } from './client.js';
import type { BudgetPriority } from './budget.js';
import { type Outbox, cellOf, newKey } from './outbox.js';
import { type StockSnapshot, applyStockSnapshot } from './mirror-writes.js';
import { parseSellerWarehouseAnswer, stockAnswer } from './remote-answers.js';

/**
 * Pushing one stock entry: the request is computed from the mirror (the last known remote
 * state), persisted (`sent_*`) in the same group-commit op as the claim, and sent with the entry's
 * idempotency key. A transient failure resends exactly that request later (same key: if the first
 * one was applied, the remote replays its answer). Any other request of the entry (a rebase, new
 * content) goes out under a fresh key once the old one may have reached the remote, so a key never
 * carries two different requests. On 409 the stock is read again (new x-version), the mirror
 * updated, and the entry rebased; when that read fails, the entry remembers to read first next
 * time rather than resend a version that can never match:
 * - an adjustment re-applies its delta to the fresh quantity (never a conflict);
 * - a count is sent as is when the remote quantity of its cell still equals its base quantity
 *   (a version bump from another cell is not a conflict); otherwise it becomes a conflict holding
 *   base, local and remote, and waits for the user. A conflict is only ever declared against a
 *   fresh read of the remote, never against a possibly stale mirror.
 * An adjustment that would take the remote below 0 (or above the maximum) fails with a message.
 *
 * A transfer (one entry, two stores of a product) is planned like an adjustment on both cells and
 * goes out as ONE seller_warehouse PUT carrying both locations under one x-version: the
 * marketplace applies both quantities or neither (a 409 changes nothing; it re-reads and
 * rebases both). Its request on the wire keeps both quantities (`sent_quantity`, `sent_quantity2`).
 */

/** Re-reads after 409 before the entry backs off (a very busy cell); each one is a fresh CAS attempt. */
export const MAX_REBASES = 8;
/**
 * A request that has been on the wire, outcome unknown, for longer than this is checked against
 * the remote before it is resent: idempotency keys live 24 hours on the remote.
 */
export const STALE_SENT_MS = 23 * 3600_000;

/** A request the entry has not sent yet (decided, not persisted). */
type NewRequest = { type: 'new'; version: bigint; quantity: number; quantity2: number | null };

export type Plan =
  /** `rekeyed`: a new request under a fresh key (the old one may have reached the remote). */
  | { type: 'send'; version: bigint; quantity: number; rekeyed?: boolean; quantity2?: number }
  | { type: 'read'; why: 'verify' | 'stale_sent' }
  /** The person takes back an entry of unknown outcome: learn whether its request was applied (model.ts). */
  | { type: 'check' }
  | { type: 'conflict'; version: bigint; quantity: number }
  | { type: 'fail'; message: string };

/**
 * How a push ended. A final outcome carries its writes (`commit`) instead of making them: the
 * engine runs them in the same transaction that records the outcome and claims the next entries.
 */
export type PushOutcome =
  /** `commit` marks the entry done (and moves the mirror); it returns a user product to re-read, or null. */
  | { type: 'done'; replayed: boolean; commit: () => string | null }
  | { type: 'conflict'; commit: () => void }
  /** Its outcome was learnt: never applied, so it is taken back as the person asked (`commit` removes it). */
  | { type: 'withdrawn'; commit: () => void }
  /**
   * `refused`: the remote answered 409 to the request on the wire; the next attempt re-reads first.
   * `transport`: no answer came (reset, timeout): the network may be gone (the sender asks connectivity).
   */
  | { type: 'retry'; offline: boolean; status: number | null; error: string; retryAfterMs?: number; refused?: boolean; transport?: boolean }
  | { type: 'failed'; status: number | null; error: string };

export const retryOutcome = (e: unknown): PushOutcome => {
  if (e instanceof RemoteError) return { type: 'retry', offline: e.kind === 'offline', status: null, error: e.message, transport: isTransportFailure(e) };
  return { type: 'retry', offline: false, status: null, error: e instanceof Error ? e.message : String(e) };
};

/** The outcome of a non-2xx answer that is not a 409 (handled by the caller). */
export function answerOutcome(res: RemoteResponse, now: number): PushOutcome {
  const kind = classifyStatus(res.status);
  if (kind === 'rejected') return { type: 'failed', status: res.status, error: serverMessage(res) };
  const retryAfterMs = parseRetryAfter(res.headers['retry-after'], now);
  const error = kind === 'auth' ? `Authentication failed: ${serverMessage(res)}` : serverMessage(res);
  return { type: 'retry', offline: false, status: res.status, error, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
}

/** GET /user-products/{id}/stock as a snapshot, or the outcome that ends the push. */
export async function readStock(
  client: RemoteClient,
  userProductId: string,
  now: () => number,
  signal?: AbortSignal,
  /** The outbox's own reads (after a 409, a check) go before background reads in the budget. */
  priority: BudgetPriority = 'pull',
): Promise<StockSnapshot | PushOutcome> {
  let res: RemoteResponse;
  try {
    res = await client.request('GET', `/user-products/${encodeURIComponent(userProductId)}/stock`, { priority, ...(signal ? { signal } : {}) });
  } catch (e) {
    return retryOutcome(e);
  }
  if (res.status !== 200) return answerOutcome(res, now());
  const version = res.headers['x-version'];
  if (typeof version !== 'string' || !/^[0-9]{1,19}$/.test(version)) {
    return { type: 'retry', offline: false, status: res.status, error: 'The stock answer had no valid x-version' };
  }
  const body = stockAnswer.safeParse(res.body);
  if (!body.success) {
    const why = body.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(the body)'}: ${i.message}`)
      .join('; ');
    return { type: 'retry', offline: false, status: res.status, error: `The stock answer is malformed (${why})` };
  }
  return { version: BigInt(version), userId: body.data.user_id, locations: body.data.locations, others: body.data.other_locations };
}

/** The key for a new request when the entry's key may have reached the remote; null when it never went out (it is kept). */
const freshKey = (row: StockClaim): string | null => (row.key_used === 1 ? newKey() : null);

const isSnapshot = (x: StockSnapshot | PushOutcome): x is StockSnapshot => 'locations' in x;

export class StockPusher {
  constructor(
    private readonly outbox: Outbox,
    private readonly client: RemoteClient,
    private readonly writes: Writes,
    private readonly clock: Clock,
  ) {}

  /**
   * The next request of an entry in flight, persisted when it is a new one (call inside the op
   * that wrote what it is based on). `fresh`: the mirror was just read from the remote, so a
   * mismatch is real.
   */
  plan(row: StockClaim, fresh: boolean): Plan {
    const next = this.decide(row, fresh);
    if (next.type !== 'new') return next;
    const now = this.clock.now();
    return this.sending(row, next, this.outbox.repo.setSent(row.id, next.version, next.quantity, now, freshKey(row), next.quantity2), now);
  }

  /**
   * Claims a pending stock entry and plans its request, inside the claim's transaction: one read
   * of the entry, and one write that claims it with its new request (when it has one). Null when
   * the entry is no longer pending (coalesced away, discarded).
   */
  claim(id: number, now: number): { row: StockClaim; plan: Plan; before: ClaimedFields } | null {
    const repo = this.outbox.repo;
    // The entry and the mirror it plans from, in one read.
    const read = repo.pendingStock(id);
    if (!read) return null;
    const row = read.row;
    const before = claimedFields(row);
    const next = this.decide(row, false, read.mirror);
    if (next.type !== 'new') return repo.claimQuiet(id, now) ? { row, plan: next, before } : null;
    const key = repo.claimSending(row, next.version, next.quantity, now, freshKey(row), next.quantity2);
    return key === undefined ? null : { row, plan: this.sending(row, next, key, now), before };
  }

  /** The in-memory row after its new request was persisted under `key`, and the plan that sends it. */
  private sending(row: StockClaim, next: NewRequest, key: string, now: number): Plan {
    const rekeyed = row.key_used === 1;
    row.idempotency_key = key;
    row.key_used = 1;
    row.needs_read = 0;
    row.sent_version = next.version.toString();
    row.sent_quantity = next.quantity;
    row.sent_quantity2 = next.quantity2;
    row.sent_at = now;
    return {
      type: 'send',
      version: next.version,
      quantity: next.quantity,
      ...(next.quantity2 !== null ? { quantity2: next.quantity2 } : {}),
      ...(rekeyed ? { rekeyed } : {}),
    };
  }

  /** The mirror as a claim plans from it (what pendingStock reads with the entry). */
  private mirrorOf(row: StockClaim): ClaimMirror {
    const c = cellOf(row);
    return {
      version: this.outbox.mirror.product(c.userProductId)?.version ?? null,
      quantity: this.outbox.mirror.cellQuantity(c.userProductId, c.type, c.storeKey),
      quantity2: row.cell2 ? this.outbox.mirror.cellQuantity(c.userProductId, c.type, row.store_key2 ?? '') : undefined,
    };
  }

  /** What the entry sends next, from the mirror (`known`: already read with the entry); writes nothing. */
  private decide(row: StockClaim, fresh: boolean, known?: ClaimMirror): Plan | NewRequest {
    const now = this.clock.now();
    if (row.withdraw === 1) return { type: 'check' };
    if (row.needs_read === 1 && !fresh) return { type: 'read', why: 'verify' };
    if (row.sent_version !== null) {
      if (now - (row.sent_at ?? now) > STALE_SENT_MS) return { type: 'read', why: 'stale_sent' };
      const resend = { type: 'send' as const, version: BigInt(row.sent_version), quantity: row.sent_quantity ?? 0 };
      return row.cell2 ? { ...resend, quantity2: row.sent_quantity2 ?? 0 } : resend;
    }
    const c = cellOf(row);
    const mirror = known ?? this.mirrorOf(row);
    if (mirror.version === null) return fresh ? { type: 'fail', message: `User product not found: ${c.userProductId}` } : { type: 'read', why: 'verify' };
    const remote = mirror.quantity ?? 0;
    let target: number;
    let target2: number | null = null;
    if (row.cell2) {
      // A transfer: both stores from the same (mirror) version; the source must not go below 0.
      const remote2 = mirror.quantity2 ?? 0;
      target = remote + (row.delta ?? 0);
      target2 = remote2 - (row.delta ?? 0);
      if (target < 0 || target2 > MAX_QUANTITY) {
        if (!fresh) return { type: 'read', why: 'verify' };
        return {
          type: 'fail',
          message:
            target < 0
              ? `The transfer of ${-(row.delta ?? 0)} would take store ${c.storeKey} below 0: the marketplace has ${remote}`
              : `The transfer of ${-(row.delta ?? 0)} would take store ${row.store_key2} above ${MAX_QUANTITY}: the marketplace has ${remote2}`,
        };
      }
    } else if (row.op === 'adjust') {
      target = remote + (row.delta ?? 0);
      if (target < 0 || target > MAX_QUANTITY) {
        if (!fresh) return { type: 'read', why: 'verify' };
        return {
          type: 'fail',
          message: `The adjustment of ${row.delta} would take the stock ${target < 0 ? 'below 0' : `above ${MAX_QUANTITY}`}: the marketplace has ${remote}`,
        };
      }
    } else {
      if (remote !== row.base_quantity) return fresh ? { type: 'conflict', version: mirror.version, quantity: remote } : { type: 'read', why: 'verify' };
      target = row.quantity ?? 0;
    }
    return { type: 'new', version: mirror.version, quantity: target, quantity2: target2 };
  }

  /** Pushes a claimed entry until it is done, in conflict, or must wait (retry) or fail. */
  async push(row: StockClaim, first: Plan): Promise<PushOutcome> {
    let plan = first;
    let reads = 0;
    for (;;) {
      switch (plan.type) {
        case 'fail':
          return { type: 'failed', status: null, error: plan.message };
        case 'conflict': {
          const { version, quantity } = plan;
          return { type: 'conflict', commit: () => void this.outbox.repo.markConflict(row.id, version, quantity, this.clock.now()) };
        }
        case 'check':
          return this.check(row);
        case 'read': {
          if (++reads > MAX_REBASES) return { type: 'retry', offline: false, status: 409, error: `Version mismatch ${MAX_REBASES} times in a row` };
          const snap = await readStock(this.client, row.user_product_id!, () => this.clock.now(), undefined, 'push');
          if (!isSnapshot(snap)) return snap;
          const why = plan.why;
          const next = await this.writes.run((): Plan | 'applied' => {
            applyStockSnapshot(this.outbox, this.clock, row.user_product_id!, snap);
            if (why === 'stale_sent') {
              const c = cellOf(row);
              const at = (store: string) => snap.locations.find((l) => l.type === c.type && (l.type !== 'seller_warehouse' || l.store_id === store))?.quantity;
              const same = at(c.storeKey) === row.sent_quantity && (!row.cell2 || at(row.store_key2 ?? '') === row.sent_quantity2);
              if (snap.version > BigInt(row.sent_version!) && same) return 'applied';
              this.outbox.repo.clearSent(row.id);
              row.sent_version = null;
              row.sent_quantity = null;
              row.sent_quantity2 = null;
            }
            return this.plan(row, true);
          });
          if (next === 'applied') {
            const commit = () => {
              this.outbox.repo.markDone(row.id, { result_version: null, result: 'assumed applied (idempotency key expired)', status: 200 }, this.clock.now());
              return null;
            };
            return { type: 'done', replayed: false, commit };
          }
          plan = next;
          continue;
        }
        case 'send': {
          let res: RemoteResponse;
          try {
            if (plan.rekeyed) await this.writes.durable();
            res = await this.put(row, plan);
          } catch (e) {
            return retryOutcome(e);
          }
          const kind = classifyStatus(res.status);
          if (kind === 'ok') {
            const sent = plan;
            const answer = res;
            return { type: 'done', replayed: res.replayed, commit: () => this.complete(row, sent, answer) };
          }
          if (kind !== 'conflict') return answerOutcome(res, this.clock.now());
          // 409: this request was not applied (a stored success would have been replayed): re-read and rebase.
          if (++reads > MAX_REBASES)
            return { type: 'retry', offline: false, status: 409, error: `Version mismatch ${MAX_REBASES} times in a row`, refused: true };
          const snap = await readStock(this.client, row.user_product_id!, () => this.clock.now(), undefined, 'push');
          if (!isSnapshot(snap)) return snap.type === 'retry' ? { ...snap, refused: true } : snap;
          plan = await this.writes.run(() => {
            applyStockSnapshot(this.outbox, this.clock, row.user_product_id!, snap);
            this.outbox.repo.clearSent(row.id);
            row.sent_version = null;
            row.sent_quantity = null;
            row.sent_quantity2 = null;
            return this.plan(row, true);
          });
          continue;
        }
      }
    }
  }

  /**
   * Learns whether the request on the wire of an entry being withdrawn was applied: a fresh read
   * first (still at the version it was based on: it was not, since applying it moves the version),
   * then a resend under the same key at that version, which the remote replays if it had applied
   * it and refuses with 409 if it had not. Applied: done (an undo's inverse then goes); not applied
   * (or refused): withdrawn, its inverses with it.
   */
  private async check(row: StockClaim): Promise<PushOutcome> {
    const withdrawn: PushOutcome = { type: 'withdrawn', commit: () => this.outbox.withdrawChecked(row.id) };
    if (row.sent_version === null) return withdrawn;
    const sentVersion = BigInt(row.sent_version);
    const snap = await readStock(this.client, row.user_product_id!, () => this.clock.now(), undefined, 'push');
    if (!isSnapshot(snap)) return snap;
    await this.writes.run(() => applyStockSnapshot(this.outbox, this.clock, row.user_product_id!, snap));
    if (snap.version === sentVersion) return withdrawn;
    if (this.clock.now() - (row.sent_at ?? 0) > STALE_SENT_MS) {
      // The remote no longer keeps the key: the same test as a stale resend (stale_sent).
      const c = cellOf(row);
      const at = (store: string) => snap.locations.find((l) => l.type === c.type && (l.type !== 'seller_warehouse' || l.store_id === store))?.quantity;
      const same = at(c.storeKey) === row.sent_quantity && (!row.cell2 || at(row.store_key2 ?? '') === row.sent_quantity2);
      if (!same) return withdrawn;
      const commit = () => {
        this.outbox.repo.markDone(row.id, { result_version: null, result: 'assumed applied (idempotency key expired)', status: 200 }, this.clock.now());
        return null;
      };
      return { type: 'done', replayed: false, commit };
    }
    const sent = { version: sentVersion, quantity: row.sent_quantity ?? 0, ...(row.cell2 ? { quantity2: row.sent_quantity2 ?? 0 } : {}) };
    let res: RemoteResponse;
    try {
      res = await this.put(row, sent);
    } catch (e) {
      return retryOutcome(e);
    }
    const kind = classifyStatus(res.status);
    if (kind === 'ok') return { type: 'done', replayed: res.replayed, commit: () => this.complete(row, sent, res) };
    if (kind === 'conflict' || kind === 'rejected') return withdrawn;
    return answerOutcome(res, this.clock.now());
  }

  private put(row: StockClaim, plan: { version: bigint; quantity: number; quantity2?: number }) {
    const c = cellOf(row);
    const path = `/user-products/${encodeURIComponent(c.userProductId)}/stock/type/${c.type}`;
    const locations = [{ store_id: c.storeKey, quantity: plan.quantity }];
    // A transfer: both stores in the one request, so the marketplace applies both or neither.
    if (row.cell2) locations.push({ store_id: row.store_key2 ?? '', quantity: plan.quantity2 ?? 0 });
    const json = c.type === 'seller_warehouse' ? { locations } : { quantity: plan.quantity };
    return this.client.request('PUT', path, {
      json,
      headers: { 'x-version': plan.version.toString() },
      idempotencyKey: row.idempotency_key,
      priority: 'push',
    });
  }

  /**
   * A 2xx: the entry is done; the mirror moves to the answer's version when it was at the version
   * the request was based on (then our change is the only one in between). Otherwise the user
   * product is returned for a re-read. Runs inside the engine's transaction that settles the entry.
   */
  private complete(row: StockClaim, sent: { version: bigint; quantity: number; quantity2?: number }, res: RemoteResponse): string | null {
    const c = cellOf(row);
    const raw = res.headers['x-version'];
    const resultVersion = typeof raw === 'string' && /^[0-9]{1,19}$/.test(raw) ? BigInt(raw) : sent.version + 1n;
    let refresh: string | null = null;
    // seller_warehouse answers its locations; a body without that shape is not trusted (a re-read instead).
    const body = c.type === 'seller_warehouse' ? parseSellerWarehouseAnswer(res.body) : null;
    // The mirror moves to the answer's version only from the one the request was based on.
    if (body?.success !== false && this.outbox.mirror.advanceVersion(c.userProductId, sent.version, resultVersion)) {
      // The mirror held the remote at the version the request was based on, and the remote
      // applied exactly this request on top of it: only this cell changed.
      const answered = body?.data?.locations.find((l) => l.type === 'seller_warehouse' && l.store_id === c.storeKey);
      this.outbox.mirror.setCell(c.userProductId, c.type, c.storeKey, answered?.network_node_id ?? null, answered?.quantity ?? sent.quantity);
      if (row.cell2) {
        const store2 = row.store_key2 ?? '';
        const answered2 = body?.data?.locations.find((l) => l.type === 'seller_warehouse' && l.store_id === store2);
        this.outbox.mirror.setCell(c.userProductId, c.type, store2, answered2?.network_node_id ?? null, answered2?.quantity ?? sent.quantity2 ?? 0);
      }
    } else {
      const product = this.outbox.mirror.product(c.userProductId);
      if (!product || product.version < resultVersion || body?.success === false) refresh = c.userProductId;
    }
    this.outbox.repo.markDone(row.id, { result_version: resultVersion, result: null, status: res.status }, this.clock.now());
    return refresh;
  }
}

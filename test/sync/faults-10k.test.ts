import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxRow } from '../../main/db/repos/sync.js';
import type { SyncEngine } from '../../main/sync/engine.js';
import { type FaultProxy, NO_FAULTS, TWENTY_PERCENT, mulberry32, startFaultProxy } from '../support/fault-proxy.js';
import { type ChildServer, spawnServer } from '../support/process.js';
import { FAST_RETRY, type Replica, newEngine, newReplica, readRemoteStock, startWriter, syncMarket } from '../support/sync-harness.js';
import { waitFor } from '../support/wait.js';

/**
 * 10,000 random adjustments and counts over 200 user products, pushed through a proxy that fails
 * 20% of the requests (drops, resets after the remote applied, 500s, 429 with Retry-After, plus
 * delays), while a concurrent writer changes stock straight on the remote (409s everywhere, and
 * real conflicts on some cells). The remote is the project's own server in its own process.
 *
 * Cells: store A takes adjustments only; store B adjustments and counts; store C is only written
 * by the concurrent writer (every user product gets version bumps: 409s without conflicts). The
 * writer also adjusts store B of the first 20 user products ("contested"): counts there may
 * conflict.
 */
const PRODUCTS = 200;
const OPS = 10_000;
const START = 500_000;
const CONTESTED = 20;

type Op = { i: number; up: string; store: string; kind: 'adjust'; delta: number } | { i: number; up: string; store: string; kind: 'count'; quantity: number };

describe('10,000 edits through a 20% fault proxy with a concurrent writer', () => {
  const market = syncMarket({ products: PRODUCTS, stores: 3, quantity: START });
  const [A, B, C] = market.stores as [string, string, string];
  let dir: string;
  let remote: ChildServer;
  let proxy: FaultProxy;
  let replica: Replica;
  let engine: SyncEngine;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stockroom-10k-'));
    const file = join(dir, 'fixtures.json');
    writeFileSync(file, JSON.stringify(market.fixtures));
    remote = await spawnServer(['--port', '0', '--data', join(dir, 'remote'), '--fixtures', file]);
    proxy = await startFaultProxy(remote.url, { seed: 20, faults: NO_FAULTS });
    replica = newReplica();
    engine = newEngine(
      replica,
      { url: proxy.url, token: market.token, sellerId: market.sellerId },
      { concurrency: 16, retry: { ...FAST_RETRY, maxAttempts: 80 } },
    );
  }, 60_000);
  afterAll(async () => {
    await engine.stop();
    await proxy.close();
    await remote.stop();
    replica.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies every adjustment exactly once and every count or conflict; the remote equals the model', async () => {
    const started = Date.now();
    engine.start();
    await engine.pullNow();
    let replays = 0;
    engine.on('synced', (e) => void (e.replayed && replays++));
    proxy.setFaults(TWENTY_PERCENT);
    const writer = startWriter(
      remote.url,
      market.token,
      [
        ...market.products.map((up) => ({ userProductId: up, storeId: C, mode: 'set' as const })),
        ...market.products.slice(0, CONTESTED).map((up) => ({ userProductId: up, storeId: B, mode: 'add' as const })),
      ],
      { seed: 5, concurrency: 2, pauseMs: 2 },
    );

    // The burst: ops queued in small batches while the engine pushes.
    const random = mulberry32(10_000);
    const ops: Op[] = [];
    for (let i = 0; i < OPS; i++) {
      const up = market.products[Math.floor(random() * PRODUCTS)]!;
      const store = random() < 0.5 ? A : B;
      const op: Op =
        store === B && random() < 0.3
          ? { i, up, store, kind: 'count', quantity: START - 50_000 + Math.floor(random() * 100_000) }
          : { i, up, store, kind: 'adjust', delta: (random() < 0.5 ? -1 : 1) * (1 + Math.floor(random() * 20)) };
      ops.push(op);
    }
    // The person types no faster than the engine pushes: after each edit the engine gets its
    // turn, and once 160 entries wait, typing stops until the engine has brought them down to 80.
    // Paced by the outbox, not by a clock: some edits coalesce and most go out on their own, in
    // the same proportions on a fast machine or a busy one.
    const entryOf = new Map<number, number | null>();
    for (const op of ops) {
      const target = { userProductId: op.up, type: 'seller_warehouse', storeId: op.store, ref: String(op.i) };
      const r = op.kind === 'adjust' ? engine.queueAdjustment({ ...target, delta: op.delta }) : engine.queueCount({ ...target, quantity: op.quantity });
      entryOf.set(op.i, r.entryId);
      await new Promise((resolve) => setImmediate(resolve));
      if (engine.status().pending >= 160) await waitFor(() => engine.status().pending <= 80, `the outbox down to 80 entries (edit ${op.i})`, 100_000);
    }
    const queuedAt = Date.now();
    await engine.drain(100_000);
    await writer.stop();

    const rows = () =>
      replica.db
        .prepare('SELECT *, CAST(base_version AS TEXT) AS base_version, CAST(result_version AS TEXT) AS result_version FROM sync_outbox')
        .all() as OutboxRow[];
    // Every count is applied or a conflict (conflicts only where the writer changed the cell), nothing failed.
    const after1 = rows();
    expect(after1.filter((r) => r.state === 'failed')).toEqual([]);
    const conflicts = after1.filter((r) => r.state === 'conflict');
    // What is still pending waits behind a conflict of its own cell (in order), nothing else.
    const waiting = after1.filter((r) => r.state === 'pending' || r.state === 'in_flight');
    for (const w of waiting)
      expect(
        conflicts.some((c) => c.cell === w.cell && c.id < w.id && w.state === 'pending'),
        `entry ${w.id} waits`,
      ).toBe(true);
    const contested = new Set(market.products.slice(0, CONTESTED));
    for (const c of conflicts) {
      expect(c.op).toBe('count');
      expect(contested.has(c.user_product_id!) && c.store_key === B).toBe(true);
      expect(c.remote_quantity).not.toBe(c.base_quantity);
    }
    for (const op of ops.filter((o) => o.kind === 'count')) {
      const id = entryOf.get(op.i);
      const row = after1.find((r) => r.id === id);
      // Merged into a later count of the same cell (removed), or done, or in conflict (or waiting behind one).
      if (row) expect(['done', 'conflict', 'pending']).toContain(row.state);
    }

    // The user keeps their count on half of the conflicts and takes the marketplace's on the rest.
    // A kept count is re-based on the remote seen at the conflict; the writer went on after that,
    // so some conflict again: the user answers again (the writer has stopped: this ends).
    const dropped = new Set<number>();
    let rounds = 0;
    for (let open = conflicts; open.length > 0; open = rows().filter((r) => r.state === 'conflict')) {
      expect(++rounds).toBeLessThanOrEqual(3);
      open.forEach((c, k) => {
        if (k % 2 === 0) engine.resolveConflict(c.id, { action: 'keep_mine' });
        else {
          engine.resolveConflict(c.id, { action: 'take_theirs' });
          dropped.add(c.id);
        }
      });
      await engine.drain(60_000);
    }
    const final = rows();
    const blocked = waiting.length;
    expect(final.filter((r) => r.state !== 'done')).toEqual([]);
    // Every count was applied, except those the person dropped (take theirs).
    for (const op of ops.filter((o) => o.kind === 'count')) {
      const id = entryOf.get(op.i)!;
      const row = final.find((r) => r.id === id);
      if (row) expect(row.state).toBe('done');
      else expect(dropped.has(id) || ops.some((o) => o.i > op.i && entryOf.get(o.i) === id) || !after1.some((r) => r.id === id)).toBe(true);
    }

    // The model.
    const remoteStock = await readRemoteStock(remote.url, market.token, market.products);
    const qty = (up: string, store: string) => remoteStock.get(up)!.cells.get(`seller_warehouse|${store}`);
    let checked = 0;
    for (const up of market.products) {
      // Store A: adjustments only, nobody else writes: start + the sum of every delta, exactly once.
      const sumA = ops.filter((o) => o.up === up && o.store === A).reduce((s, o) => s + (o.kind === 'adjust' ? o.delta : 0), 0);
      expect(qty(up, A), `${up} store A`).toBe(START + sumA);
      if (!contested.has(up)) {
        // Store B, uncontested: the person's edits folded in order (a count sets, an adjustment adds).
        const folded = ops.filter((o) => o.up === up && o.store === B).reduce((q, o) => (o.kind === 'count' ? o.quantity : q + o.delta), START);
        expect(qty(up, B), `${up} store B`).toBe(folded);
      } else {
        // Store B, contested: the last applied count plus every change after it, ours and the
        // writer's; without an applied count, start plus every change. One request carries a
        // product's due entries (issue 29, stock-batch.ts) under one version, planned in entry
        // order: entries are ordered by the version that applied them, then by id.
        const cell = final.filter((r) => r.user_product_id === up && r.store_key === B && r.state === 'done');
        const applied = (r: OutboxRow) => [BigInt(r.result_version!), BigInt(r.id)] as const;
        const after = (r: OutboxRow, than: OutboxRow) => {
          const [v, id] = applied(r);
          const [tv, tid] = applied(than);
          return v > tv || (v === tv && id > tid);
        };
        const lastCount = cell.filter((r) => r.op === 'count').reduce<OutboxRow | undefined>((last, r) => (last && !after(r, last) ? last : r), undefined);
        const since = lastCount ? BigInt(lastCount.result_version!) : -1n;
        const ours = cell.filter((r) => r.op === 'adjust' && (!lastCount || after(r, lastCount))).reduce((s, r) => s + r.delta!, 0);
        const theirs = writer.changes.filter((w) => w.userProductId === up && w.storeId === B && w.version > since).reduce((s, w) => s + w.value, 0);
        expect(qty(up, B), `${up} store B (contested)`).toBe((lastCount ? lastCount.quantity! : START) + ours + theirs);
      }
      checked++;
    }
    expect(checked).toBe(PRODUCTS);

    // The faults really happened, and resets were answered from the idempotency store.
    for (const k of ['drop', 'reset', 'delay', 'error500', 'tooMany'] as const) expect(proxy.counts[k], k).toBeGreaterThan(20);
    expect(proxy.counts.total).toBeGreaterThan(4000);
    expect(replays).toBeGreaterThan(0);
    const mismatches = proxy.log.filter((l) => l.status === 409).length;
    expect(mismatches).toBeGreaterThan(50);
    expect(writer.changes.length).toBeGreaterThan(100);
    console.log(
      `10k: queued in ${queuedAt - started} ms, done in ${Date.now() - started} ms; ${final.length} entries for ${OPS} edits; ` +
        `${proxy.counts.total} requests (${JSON.stringify(proxy.counts)}); ${mismatches} answered 409; ${conflicts.length} conflicts (${blocked} entries waited behind them), ${replays} replays; writer ${writer.changes.length} writes`,
    );
  }, 180_000);
});

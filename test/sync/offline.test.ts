import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultProxy, mulberry32, startFaultProxy } from '../support/fault-proxy.js';
import { demo } from '../support/fixtures.js';
import { demoOrders, packPath } from '../support/messages.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { type Replica, demoWithProducts, newEngine, newReplica, readRemoteStock, sleep } from '../support/sync-harness.js';
import { waitFor } from '../support/wait.js';

/**
 * Counts the requests undici creates for `origin` + `path` (its diagnostics channel): the engine's
 * probes of an unreachable remote never reach a server, so this is where they can be seen.
 */
function countRequests(origin: string, method: string, path: string) {
  const seen = { count: 0 };
  const onCreate = (message: unknown) => {
    const r = (message as { request: { origin: unknown; method: string; path: string } }).request;
    if (new URL(String(r.origin)).origin === origin && r.method === method && r.path === path) seen.count++;
  };
  subscribe('undici:request:create', onCreate);
  return { seen, stop: () => void unsubscribe('undici:request:create', onCreate) };
}

describe('offline for a whole session, then online', () => {
  const { fixtures: f, products } = demoWithProducts(8);
  const stores = [demo.stores.palermo, demo.stores.avellaneda];
  let server: TestServer;
  let proxy: FaultProxy;
  let replica: Replica;
  let files: string;

  beforeAll(async () => {
    server = await startTestServer(f);
    proxy = await startFaultProxy(server.url);
    replica = newReplica();
    files = mkdtempSync(join(tmpdir(), 'stockroom-offline-files-'));
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
    replica.remove();
    rmSync(files, { recursive: true, force: true });
  });

  it('queues everything while the remote is unreachable, loses and fails nothing, then sends it all in order', async () => {
    // Session 1: online once, to fill the replica.
    let engine = newEngine(replica, { url: proxy.url, token: demo.seller.token, sellerId: demo.seller.id });
    engine.start();
    await engine.pullNow();
    await engine.stop();

    // Session 2: the network is gone for the whole session.
    await proxy.goOffline();
    const probes = countRequests(proxy.url, 'GET', `/users/${demo.seller.id}`);
    engine = newEngine(replica, { url: proxy.url, token: demo.seller.token, sellerId: demo.seller.id });
    const offline: string[] = [];
    engine.on('offline', (r) => offline.push(r));
    engine.start();
    const random = mulberry32(3);
    const ops: { up: string; store: string; kind: 'adjust' | 'count'; value: number }[] = [];
    for (let i = 0; i < 300; i++) {
      const op = {
        up: products[Math.floor(random() * products.length)]!,
        store: stores[i % 2]!,
        kind: random() < 0.25 ? ('count' as const) : ('adjust' as const),
        value: 0,
      };
      op.value = op.kind === 'count' ? 50 + Math.floor(random() * 100) : 1 + Math.floor(random() * 5);
      ops.push(op);
      const target = { userProductId: op.up, type: 'seller_warehouse', storeId: op.store };
      if (op.kind === 'count') engine.queueCount({ ...target, quantity: op.value });
      else engine.queueAdjustment({ ...target, delta: op.value });
      if (i % 10 === 0) await sleep(2); // pacing: a person queueing while the engine keeps trying
    }
    const texts = ['Hola, ya lo preparamos', 'Sale mañana', 'Te paso el remito', 'Gracias por tu compra'];
    for (const [k, text] of texts.entries()) {
      const path = join(files, `doc${k}.txt`);
      writeFileSync(path, `documento ${k}`);
      await engine.queueMessage({ packId: demoOrders.packed.pack, text, files: k % 2 ? [{ path }] : [] });
    }
    await engine.queueMessage({ packId: demoOrders.delivered.pack, text: 'Otro pack, también en orden' });
    // The engine found the remote unreachable, and has probed it twice since everything was queued
    // (so every entry had its chance to go): it keeps probing, and sends nothing meanwhile.
    await waitFor(() => offline.length > 0, 'the engine to find the remote unreachable');
    const probesBefore = probes.seen.count;
    await waitFor(
      () => probes.seen.count >= probesBefore + 2 && engine.status().inFlight === 0,
      'two more probes of the unreachable remote, nothing on the wire',
    );
    probes.stop();
    expect(offline.length).toBe(1);
    const status = engine.status();
    expect(status).toMatchObject({ online: false, failed: 0, conflicts: 0, inFlight: 0 });
    expect(status.pending).toBeGreaterThan(10);
    // Unreachable is not an attempt: nothing is closer to giving up.
    const rows = () =>
      replica.db.prepare('SELECT id, lane, state, attempts, idempotency_key, kind FROM sync_outbox ORDER BY id').all() as {
        id: number;
        lane: string;
        state: string;
        attempts: number;
        idempotency_key: string;
        kind: string;
      }[];
    expect(rows().every((r) => r.attempts === 0 && r.state === 'pending')).toBe(true);
    expect(proxy.counts.total).toBe(proxy.log.length);
    const requestsBefore = proxy.counts.total;
    await engine.stop();
    // Over the whole offline session, the engine's stop included: one offline event, nothing charged.
    expect(offline.length).toBe(1);
    expect(rows().every((r) => r.attempts === 0 && r.state === 'pending')).toBe(true);

    // Session 3: back online, a new session.
    await proxy.goOnline();
    engine = newEngine(replica, { url: proxy.url, token: demo.seller.token, sellerId: demo.seller.id });
    engine.start();
    await engine.drain(30_000);
    await engine.stop();
    const all = rows();
    expect(all.every((r) => r.state === 'done')).toBe(true);

    // In order: per lane, the entries reached the remote in id order.
    const sent = proxy.log.slice(requestsBefore).filter((l) => l.forwarded && l.status !== null && l.status < 300 && l.key);
    const firstSuccess = new Map<string, number>();
    for (const l of sent) if (!firstSuccess.has(l.key!)) firstSuccess.set(l.key!, l.seq);
    for (const lane of new Set(all.map((r) => r.lane))) {
      const laneRows = all.filter((r) => r.lane === lane);
      const seqs = laneRows.map((r) => firstSuccess.get(r.idempotency_key)!);
      expect(
        seqs.every((s) => s !== undefined),
        lane,
      ).toBe(true);
      expect(seqs, lane).toEqual([...seqs].sort((a, b) => a - b));
    }
    // The remote equals the person's edits, in order.
    const remote = await readRemoteStock(server.url, demo.seller.token, products);
    for (const up of products) {
      for (const store of stores) {
        const expected = ops.filter((o) => o.up === up && o.store === store).reduce((q, o) => (o.kind === 'count' ? o.value : q + o.value), 100);
        expect(remote.get(up)!.cells.get(`seller_warehouse|${store}`), `${up} ${store}`).toBe(expected);
      }
    }
    const pack = await server.as(demo.seller.token).get(`${packPath(demoOrders.packed.pack)}?mark_as_read=false&limit=100`);
    const got = [...(pack.body.messages as { text: string; message_attachments: unknown[] | null }[])].reverse().slice(-texts.length);
    expect(got.map((m) => m.text)).toEqual(texts);
    expect(got.map((m) => (m.message_attachments ?? []).length)).toEqual([0, 1, 0, 1]);
    // Each attachment was uploaded before its message.
    const posts = proxy.log.slice(requestsBefore).filter((l) => l.method === 'POST' && l.forwarded);
    for (const r of all.filter((x) => x.kind === 'message')) {
      const msg = posts.find((p) => p.key === r.idempotency_key)!;
      for (const up of posts.filter((p) => p.key?.startsWith(`${r.idempotency_key}.a`))) expect(up.seq).toBeLessThan(msg.seq);
    }
  }, 60_000);
});

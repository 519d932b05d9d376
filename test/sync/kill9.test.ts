import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/db/open.js';
import { type FaultProxy, mulberry32, startFaultProxy } from '../support/fault-proxy.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { type Replica, burstOps, newReplica, readRemoteStock, syncMarket } from '../support/sync-harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KILLS = 20;
const COUNT = 3000;
const START = 100_000;

interface Run {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

const children = new Set<ChildProcess>();

function runChild(config: object): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/sync-child.ts', JSON.stringify(config)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const lines: string[] = [];
  const watchers: { re: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    buffer += d.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const w of [...watchers]) {
        const m = w.re.exec(line);
        if (m) {
          watchers.splice(watchers.indexOf(w), 1);
          w.resolve(m);
        }
      }
    }
  });
  child.stderr!.on('data', (d: Buffer) => void (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    waitFor: (re, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const found = lines.map((l) => re.exec(l)).find((m) => m);
        if (found) return resolve(found);
        const timer = setTimeout(() => reject(new Error(`child: no ${re} within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`)), timeoutMs);
        watchers.push({ re, resolve: (m) => (clearTimeout(timer), resolve(m)) });
        void exited.then((code) => {
          if (watchers.some((w) => w.re === re)) reject(new Error(`child exited (${code}) before ${re}; stderr: ${stderr.slice(-2000)}`));
        });
      }),
  };
}

describe('kill -9 during a burst of edits, 20 times', () => {
  const market = syncMarket({ products: 20, stores: 2, quantity: START });
  let server: TestServer;
  let proxy: FaultProxy;
  let replica: Replica;

  beforeAll(async () => {
    server = await startTestServer(market.fixtures);
    // Some answers are lost after the remote applied them: restarts must resend, not re-apply.
    proxy = await startFaultProxy(server.url, { seed: 9, faults: { drop: 0.03, reset: 0.05, delay: 0.05, error500: 0.02, tooMany: 0, delayMs: [5, 60] } });
    replica = newReplica();
    replica.close();
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await proxy.close();
    await server.close();
    replica.remove();
  });

  it('every acknowledged edit reaches the remote exactly once', async () => {
    const config = {
      replicaDir: replica.dir,
      url: proxy.url,
      token: market.token,
      sellerId: market.sellerId,
      products: market.products,
      stores: market.stores,
      seed: 77,
      count: COUNT,
      start: START,
    };
    const random = mulberry32(2024);
    const acked = new Set<number>();
    const ackOf = (run: Run) => run.lines.forEach((l) => /^ack (\d+)$/.test(l) && acked.add(Number(l.slice(4))));
    let kills = 0;
    let killedWhileQueueing = 0;
    for (; kills < KILLS; kills++) {
      const run = runChild({ ...config, drain: false });
      const from = Number((await run.waitFor(/^resume (\d+)$/))[1]);
      // Killed in the middle of its burst, at a point the seeded PRNG picks: once the child has
      // acknowledged 15 to 84 more edits (not after a time, which a busy machine stretches: the
      // burst could end before the kill, or the kill come before anything was queued). The kill
      // lands while it goes on queueing and pushing.
      const target = from + 15 + Math.floor(random() * 70);
      await run.waitFor(new RegExp(`^ack ${target}$`));
      run.child.kill('SIGKILL');
      expect(await run.exited).toBeNull();
      ackOf(run);
      if (!run.lines.includes('queued')) killedWhileQueueing++;
    }
    const last = runChild({ ...config, drain: true });
    const drained = await last.waitFor(/^drained (.*)$/, 90_000);
    ackOf(last);
    expect(await last.exited).toBe(0);
    const status = JSON.parse(drained[1]!) as { pending: number; inFlight: number; conflicts: number; failed: number };
    expect(status).toMatchObject({ pending: 0, inFlight: 0, conflicts: 0, failed: 0 });

    // What the replica committed (acked edits are a subset: an edit can commit just before a kill).
    const db = openDatabase(replica.dbFile);
    const refs = new Set(
      db
        .prepare<[], { ref: string }>('SELECT ref FROM sync_cell_history WHERE ref IS NOT NULL')
        .all()
        .map((r) => Number(r.ref)),
    );
    const entries = db
      .prepare<[], { lane: string; state: string; idempotency_key: string; attempts: number }>(
        "SELECT lane, state, idempotency_key, attempts FROM sync_outbox WHERE kind = 'stock'",
      )
      .all();
    db.close();
    for (const i of acked) expect(refs.has(i), `acked edit ${i} is in the replica`).toBe(true);
    expect(refs.size).toBe(COUNT);
    expect(acked.size).toBeGreaterThan(COUNT / 2);

    // The remote equals every edit applied once, in order, per cell.
    const ops = burstOps(77, COUNT, market.products, market.stores, START);
    const remote = await readRemoteStock(server.url, market.token, market.products);
    for (const up of market.products) {
      for (const store of market.stores) {
        const expected = ops.filter((o) => o.up === up && o.store === store).reduce((q, o) => (o.kind === 'count' ? o.quantity : q + o.delta), START);
        expect(remote.get(up)!.cells.get(`seller_warehouse|${store}`), `${up} ${store}`).toBe(expected);
      }
      // Exactly once: every applied PUT bumps the version once, and only the outbox writes here.
      // One PUT may carry several entries of the product (issue 29): they settle under its one key.
      const applied = new Set(entries.filter((e) => e.lane === `up:${up}` && e.state === 'done').map((e) => e.idempotency_key)).size;
      expect(remote.get(up)!.version, `${up} version`).toBe(1n + BigInt(applied));
    }
    // Every done entry went through a keyed request the remote remembers.
    const keys = new Set(
      server.db
        .prepare<[], { key: string }>('SELECT key FROM idempotency_keys')
        .all()
        .map((r) => r.key),
    );
    for (const e of entries) expect(keys.has(e.idempotency_key)).toBe(true);
    expect(entries.every((e) => e.state === 'done')).toBe(true);
    // A kill costs no attempt: each one charged is an answer (or a failure) that came back for a
    // request of its product the proxy saw (its PUT, or the stock read before it); a claim cut
    // short by the kill charges nothing. Entries sharing a PUT are each charged for it.
    const requestsOf = new Map<string, number>();
    for (const l of proxy.log) {
      const up = /^\/user-products\/([^/]+)\/stock/.exec(l.path)?.[1];
      if (up) requestsOf.set(up, (requestsOf.get(up) ?? 0) + 1);
    }
    for (const up of market.products) {
      for (const e of entries.filter((x) => x.lane === `up:${up}`))
        expect(e.attempts, `attempts charged for an entry of ${up}`).toBeLessThanOrEqual(requestsOf.get(up) ?? 0);
    }
    expect(proxy.counts.reset).toBeGreaterThan(0);
    expect(killedWhileQueueing).toBe(KILLS);
    console.log(
      `kill -9: ${kills} kills (${killedWhileQueueing} during the burst), ${acked.size} acked of ${COUNT}, ${entries.length} entries, ${new Set(entries.map((e) => e.idempotency_key)).size} keys, ${proxy.counts.total} requests (${proxy.counts.reset} resets)`,
    );
  }, 170_000);
});

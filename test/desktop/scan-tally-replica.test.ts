import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/db/open.js';
import { demo } from '../support/fixtures.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { FAST_RETRY, newEngine, newReplica } from '../support/sync-harness.js';
import { openCore, until, value } from './helpers.js';

/**
 * Scan to count's tally on a replica of a real remote (issue 27): Apply queues one adjustment per
 * product in the outbox in the transaction that empties the tally, and a child process SIGKILLed
 * while it scans and applies, again and again, never loses a scan nor applies one twice.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const termo = demo.userProducts.termo;
const palermo = { userProductId: termo, type: 'seller_warehouse' as const, storeId: demo.stores.palermo };

describe('the tally on a replica of a real remote', () => {
  let remote: TestServer;
  let c: Awaited<ReturnType<typeof openCore>>;
  beforeEach(async () => {
    remote = await startTestServer();
    c = await openCore({ engine: { pollIntervalMs: 0, pullOnStart: false, retry: FAST_RETRY } });
    const connect = { baseUrl: remote.url, applicationId: demo.app, userId: demo.seller.id, accessToken: demo.seller.token };
    value(await c.core.api.settings.update({ ...connect, mode: 'online' }));
    value(await c.core.api.sync.pullNow());
    value(await c.core.api.settings.update({ mode: 'offline' }));
  });
  afterEach(async () => {
    await c.close();
    await remote.close();
  });

  it('Apply queues one adjustment per product, in the outbox in the same transaction that empties the tally', async () => {
    const api = c.core.api;
    const storeId = demo.stores.palermo;
    for (let i = 0; i < 5; i++) value(await api.tally.add({ storeId, code: demo.items.termo }));
    const applied = value(await api.tally.apply({ storeId }));
    expect(applied).toMatchObject({ products: 1, units: 5, tally: { scans: 0 } });
    const outbox = value(await api.outbox.list());
    expect(outbox.total).toBe(1);
    expect(value(await api.stock.cell(palermo))).toMatchObject({ shown: 17, state: 'pending' });
    const history = value(await api.stock.history(palermo));
    expect(history.map((h) => [h.kind, h.delta, h.reason, h.ref])).toEqual([['adjustment', 5, 'received', `scan ${demo.items.termo} x5`]]);

    // Online: sent once; the marketplace holds the 5 more.
    value(await api.settings.update({ mode: 'online' }));
    await until(async () => value(await api.stock.cell(palermo)).state === 'synced', 'the adjustment sent');
    const res = await remote.as(demo.seller.token).get(`/user-products/${termo}/stock`);
    expect((res.body as { locations: { store_id?: string; quantity: number }[] }).locations.find((l) => l.store_id === storeId)!.quantity).toBe(17);
  });
});

describe('a SIGKILL while scanning and applying, again and again', () => {
  const children = new Set<ChildProcess>();
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
  });

  it('every scan is in the tally or in exactly one queued adjustment with its history row, never both, never lost', async () => {
    const remote = await startTestServer();
    const replica = newReplica();
    try {
      const engine = newEngine(replica, { url: remote.url, token: demo.seller.token, sellerId: demo.seller.id });
      await engine.pullNow();
      await engine.stop();
      replica.close();
      const config = JSON.stringify({
        replicaDir: replica.dir,
        url: remote.url,
        token: demo.seller.token,
        sellerId: demo.seller.id,
        storeId: demo.stores.palermo,
        codes: [demo.items.termo, demo.items.yerba, demo.items.canasta],
      });
      let acked = 0;
      let applies = 0;
      for (let kill = 0; kill < 6; kill++) {
        const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/tally-child.ts', config], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
        children.add(child);
        let stderr = '';
        child.stderr!.on('data', (d: Buffer) => void (stderr += d.toString()));
        // The kill lands after a different number of lines each time: between scans, or within an Apply.
        const killAfter = 5 + kill * 3;
        let seen = 0;
        let buffer = '';
        const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
        child.stdout!.on('data', (d: Buffer) => {
          buffer += d.toString();
          const lines = buffer.split('\n');
          buffer = lines.pop()!;
          for (const line of lines) {
            // A flagged scan (another store's product) is kept for reading only, never applied.
            if (line === 'scan ok') acked++;
            if (line === 'applied') applies++;
            if (line.startsWith('scan') || line === 'applied') seen++;
            if (seen === killAfter) child.kill('SIGKILL');
          }
        });
        await closed;
        children.delete(child);
        expect(stderr).toBe('');

        const db = openDatabase(replica.dbFile);
        try {
          const sum = (sql: string) => db.prepare<[], { n: number }>(sql).get()!.n;
          const applied = sum(`SELECT coalesce(sum(delta), 0) AS n FROM sync_cell_history WHERE reason = 'received'`);
          const queued = sum(`SELECT coalesce(sum(delta), 0) AS n FROM sync_outbox WHERE op = 'adjust'`);
          const kept = sum(`SELECT coalesce(sum(delta), 0) AS n FROM scan_tally WHERE outcome = 'ok'`);
          const all = applied + kept;
          // Each acknowledged scan is somewhere exactly once; the one being written when killed may have committed too.
          expect(all === acked || all === acked + 1, `applied ${applied} + kept ${kept} against ${acked} acknowledged`).toBe(true);
          if (all === acked + 1) acked++;
          // The adjustments and their outbox entries went in together.
          expect(queued).toBe(applied);
        } finally {
          db.close();
        }
      }
      expect(applies).toBeGreaterThan(0);
    } finally {
      replica.remove();
      await remote.close();
    }
  }, 120_000);
});

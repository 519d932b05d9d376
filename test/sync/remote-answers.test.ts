import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../main/sync/engine.js';
import { packLane } from '../../main/sync/outbox.js';
import { demo } from '../support/fixtures.js';
import { demoOrders } from '../support/messages.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { type Replica, newEngine, newReplica } from '../support/sync-harness.js';

/**
 * What crosses the edge from the remote is parsed before it reaches the replica: a real server on
 * loopback whose answers a second real server in front of it corrupts on the way.
 */
let server: TestServer;
let front: Server;
let frontUrl: string;
let replica: Replica;
let engine: SyncEngine;
/** Rewrites the JSON body of the answers whose path matches. */
let corrupt: { match: RegExp; edit: (body: Record<string, unknown>) => unknown } | null = null;

async function forward(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<
    string,
    string
  >;
  const up = await request(`${server.url}${req.url}`, { method: req.method as 'GET', headers, body: chunks.length > 0 ? Buffer.concat(chunks) : null });
  let body = Buffer.from(await up.body.arrayBuffer());
  if (corrupt && corrupt.match.test(req.url ?? '') && up.statusCode === 200)
    body = Buffer.from(JSON.stringify(corrupt.edit(JSON.parse(body.toString()) as Record<string, unknown>)));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(up.headers))
    if (typeof v === 'string' && !['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)) out[k] = v;
  res.writeHead(up.statusCode, { ...out, 'content-length': String(body.length) }).end(body);
}

beforeEach(async () => {
  server = await startTestServer();
  front = createServer((req, res) => void forward(req, res).catch(() => res.destroy()));
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  replica = newReplica();
  engine = newEngine(replica, { url: frontUrl, token: demo.seller.token, sellerId: demo.seller.id });
  engine.start();
});
afterEach(async () => {
  corrupt = null;
  await engine.stop();
  front.closeAllConnections();
  await new Promise((r) => front.close(r));
  await server.close();
  replica.remove();
});

const count = (table: string) => (replica.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('remote answers are parsed at the edge', () => {
  it('a malformed page of stores ends the pull naming the field, and none of it is written', async () => {
    corrupt = {
      match: /\/stores\/search/,
      edit: (b) => ({ ...b, results: (b.results as Record<string, unknown>[]).map((s, i) => (i === 1 ? { ...s, tags: 'stock_location' } : s)) }),
    };
    await expect(engine.pullNow()).rejects.toThrow(/stores\/search: the marketplace's answer is malformed \(results\.1\.tags: /);
    expect(count('stores')).toBe(0);
    expect(engine.status().lastError).toMatch(/results\.1\.tags/);
    // The remote answers properly again: the same pull goes through.
    corrupt = null;
    expect((await engine.pullNow()).stores).toBe(3);
  });

  it('a stock answer with a negative quantity is refused, the mirror keeps what it had', async () => {
    await engine.pullNow();
    const before = replica.db
      .prepare('SELECT quantity FROM stock_locations WHERE user_product_id = ? AND store_key = ?')
      .get(demo.userProducts.termo, demo.stores.palermo);
    corrupt = {
      match: /\/user-products\/.+\/stock$/,
      edit: (b) => ({ ...b, locations: (b.locations as Record<string, unknown>[]).map((l) => ({ ...l, quantity: -5 })) }),
    };
    await expect(engine.pullNow()).rejects.toThrow(/GET stock of MLAU\d+: The stock answer is malformed \(locations\.0\.quantity: /);
    const after = replica.db
      .prepare('SELECT quantity FROM stock_locations WHERE user_product_id = ? AND store_key = ?')
      .get(demo.userProducts.termo, demo.stores.palermo);
    expect(after).toEqual(before);
    expect(replica.db.prepare('SELECT count(*) AS n FROM stock_locations WHERE quantity < 0').get()).toEqual({ n: 0 });
  });

  it('a queued message whose stored payload cannot be read back fails visibly, and its conversation waits', async () => {
    const lane = packLane(demoOrders.packed.pack);
    const id = engine.outbox.repo.insert({
      kind: 'message',
      lane,
      idempotency_key: 'k-damaged',
      now: Date.now(),
      payload: JSON.stringify({ packId: 'not a number', text: 'hola' }),
    });
    // The engine picks up the row through its lane (as after a restart).
    await engine.stop();
    engine = newEngine(replica, { url: frontUrl, token: demo.seller.token, sellerId: demo.seller.id });
    engine.start();
    await engine.drain();
    expect(engine.outbox.repo.byId(id)).toMatchObject({
      state: 'failed',
      last_error: expect.stringMatching(/^The queued message could not be read back \(packId: /),
    });
    expect(engine.status().failed).toBe(1);
  });
});

/**
 * The progressive first pull (issue 29) against a real remote behind the fault proxy: listings
 * first (rows with "not read yet" cells that refuse edits), stock read on screen first, then
 * scanned, then the rest, and a SIGKILL mid-pull resumed without reading anything again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/db/open.js';
import type { SyncEngine } from '../../main/sync/engine.js';
import { cellView, gridRows } from '../../main/sync/read-model.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { type Replica, newEngine, newReplica, syncMarket } from '../support/sync-harness.js';
import { waitFor } from '../support/wait.js';
import { demo } from '../support/fixtures.js';
import { sendBody, sendPath } from '../support/messages.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let server: TestServer | undefined;
let proxy: FaultProxy | undefined;
let replica: Replica | undefined;
let engine: SyncEngine | undefined;
const children = new Set<ChildProcess>();

afterEach(async () => {
  for (const c of children) c.kill('SIGKILL');
  await engine?.stop();
  await proxy?.close();
  await server?.close();
  replica?.remove();
  engine = proxy = server = replica = undefined;
});

const STOCK = /^\/user-products\/([^/?]+)\/stock$/;
const isStockGet = (method: string, path: string) => method === 'GET' && STOCK.test(path.split('?')[0]!);
/** The user products whose stock was asked for, in the order the proxy received the requests. */
const stockReads = (p: FaultProxy, from = 0) =>
  p.log
    .slice(from)
    .filter((l) => isStockGet(l.method, l.path))
    .map((l) => decodeURIComponent(STOCK.exec(l.path.split('?')[0]!)![1]!));

describe('a progressive first pull', () => {
  it('lists every item first (20 a request), reads on screen, then scanned, then the rest; unread cells refuse edits', async () => {
    const market = syncMarket({ products: 60, stores: 2 });
    server = await startTestServer(market.fixtures);
    proxy = await startFaultProxy(server.url);
    replica = newReplica();
    // One stock reader (concurrency 1; the pool's spare connection for the rest of the pull): the order the proxy sees is the order the pull chose.
    engine = newEngine(replica, { url: proxy.url, token: market.token, sellerId: market.sellerId }, { concurrency: 1 });
    engine.start();
    const sorted = [...market.products].sort();
    const first = proxy.hold(isStockGet, 1);
    const pulling = engine.pull();
    await first.arrived;

    // Listings are in before any stock: 60 rows, every cell "not read yet" and locked.
    const page = gridRows(replica.db, { sellerId: market.sellerId, limit: 100 });
    expect(page.total).toBe(60);
    expect(page.rows.every((r) => r.stockUnread === true)).toBe(true);
    expect(Object.values(page.rows[5]!.cells).map((c) => c.lock?.reason)).toEqual(page.columns.map(() => 'not_read'));
    // One cell read alone (stock.cell, the cell panel) says the same as the grid: not read yet, locked, no quantity.
    const unreadRow = page.rows.find((r) => r.userProductId === sorted[30])!;
    const oneCell = cellView(replica.db, { userProductId: sorted[30]!, type: 'seller_warehouse', storeKey: market.stores[0]! });
    expect(oneCell).toEqual(unreadRow.cells[market.stores[0]!]);
    expect(oneCell).toMatchObject({ editable: false, remote: { quantity: null }, lock: { reason: 'not_read' } });
    const multiGets = proxy.log.filter((l) => l.method === 'GET' && l.path.startsWith('/items?'));
    expect(multiGets).toHaveLength(3);
    expect(proxy.log.filter((l) => /^\/items\/[^/?]+$/.test(l.path))).toHaveLength(0);
    // An edit of a cell not read yet is refused before anything is queued.
    expect(() => engine!.queueCount({ userProductId: sorted[30]!, type: 'seller_warehouse', storeId: market.stores[0]!, quantity: 3 })).toThrow(
      expect.objectContaining({ error: 'stock_not_read', status: 409 }),
    );
    expect(replica.db.prepare('SELECT count(*) AS n FROM sync_outbox').get()).toEqual({ n: 0 });
    expect(engine.status().stockRead).toMatchObject({ read: 0, total: 60 });

    // The screen shows two rows, a scan found a third: those go next, in that order.
    engine.showing([sorted[50]!, sorted[51]!]);
    engine.touched(sorted[40]!);
    // The pull itself is over (brands, orders, messages pulled) while the stock is read behind it.
    await pulling;
    expect(engine.status().stockRead).toMatchObject({ read: 0, total: 60 });
    first.release();
    await engine.stockReadDone();
    const order = stockReads(proxy);
    expect(order.slice(0, 4)).toEqual([sorted[0], sorted[50], sorted[51], sorted[40]]);
    expect([...order].sort()).toEqual(sorted);
    expect(engine.status().stockRead).toBeUndefined();
    const after = gridRows(replica.db, { sellerId: market.sellerId, limit: 100 });
    expect(after.rows.some((r) => r.stockUnread)).toBe(false);
    // Read now: the cell alone has its quantity and no lock, as its row in the grid.
    const readCell = cellView(replica.db, { userProductId: sorted[30]!, type: 'seller_warehouse', storeKey: market.stores[0]! });
    expect(readCell).toEqual(after.rows.find((r) => r.userProductId === sorted[30])!.cells[market.stores[0]!]);
    expect(readCell.lock).toBeUndefined();
    expect(readCell.remote.quantity).not.toBeNull();
    // Read now: the same edit is queued.
    expect(engine.queueCount({ userProductId: sorted[30]!, type: 'seller_warehouse', storeId: market.stores[0]!, quantity: 3 })).toMatchObject({
      how: 'queued',
    });
  });

  it('writes the rows of each page of item ids as it arrives: the first page’s rows are in while the listing’s next page is held', async () => {
    const market = syncMarket({ products: 250, stores: 1 });
    server = await startTestServer(market.fixtures);
    proxy = await startFaultProxy(server.url);
    replica = newReplica();
    engine = newEngine(replica, { url: proxy.url, token: market.token, sellerId: market.sellerId });
    engine.start();
    const later = proxy.hold((method, path) => method === 'GET' && path.includes('/items/search') && !/[?&]offset=0(&|$)/.test(path), 2);
    const pulling = engine.pull();
    await later.arrived;
    // The first page's 100 items are read and their rows written before the listing goes on.
    await waitFor(() => gridRows(replica!.db, { sellerId: market.sellerId, limit: 300 }).total === 100, 'the first page’s 100 rows');
    expect(proxy.log.filter((l) => l.path.startsWith('/items?'))).toHaveLength(5);
    later.release();
    const report = await pulling;
    expect(report.items).toEqual({ total: 250, fetched: 250 });
    await engine.stockReadDone();
    expect(gridRows(replica.db, { sellerId: market.sellerId, limit: 300 }).rows.filter((r) => r.stockUnread)).toEqual([]);
  });

  it('pulls orders and messages while the stock is read: a buyer message sent during a held stock read is pulled', async () => {
    server = await startTestServer();
    proxy = await startFaultProxy(server.url);
    replica = newReplica();
    // One stock reader (concurrency 1), and the pool's spare connection for everything else.
    engine = newEngine(replica, { url: proxy.url, token: demo.seller.token, sellerId: demo.seller.id }, { concurrency: 1 });
    engine.start();
    const held = proxy.hold(isStockGet, 1);
    const report = await engine.pull();
    await held.arrived;
    const total = engine.status().stockRead!.total;
    expect(total).toBeGreaterThan(1);
    expect(engine.status().stockRead).toMatchObject({ read: 0 });
    expect(report.orders).toBeGreaterThan(0);
    const packs = engine.outbox.mirror.packKeysOf(demo.seller.id);
    expect(packs.length).toBeGreaterThan(0);

    // A buyer writes while the stock read is still held on the wire: the next poll brings it.
    const incoming: string[] = [];
    engine.on('message', (m) => incoming.push(m.text));
    const pack = packs[0]!;
    const sent = await server.as(demo.buyer.token).post(sendPath(pack), sendBody(demo.buyer.id, demo.seller.id, 'Hola, ¿sale hoy el envío?'));
    expect(sent.status).toBe(201);
    const mark = proxy.log.length;
    await engine.pull();
    expect(incoming).toEqual(['Hola, ¿sale hoy el envío?']);
    expect(proxy.log.slice(mark).some((l) => l.path.startsWith(`/messages/packs/${pack}/`))).toBe(true);
    // No stock was read meanwhile, and the later pull did not start a second reader.
    expect(engine.status().stockRead).toMatchObject({ read: 0, total });
    expect(stockReads(proxy)).toHaveLength(1);

    held.release();
    await engine.stockReadDone();
    expect(engine.status().stockRead).toBeUndefined();
    expect(stockReads(proxy)).toHaveLength(total);
  });

  it('resumes after a SIGKILL of the pulling process without reading again any product it read', async () => {
    const market = syncMarket({ products: 80, stores: 2 });
    server = await startTestServer(market.fixtures);
    proxy = await startFaultProxy(server.url);
    replica = newReplica();
    replica.close();
    const config = JSON.stringify({ replicaDir: replica.dir, url: proxy.url, token: market.token, sellerId: market.sellerId });
    const run = () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/first-pull-child.ts', config], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      children.add(child);
      let out = '';
      child.stdout!.on('data', (d: Buffer) => void (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => void (out += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => (children.delete(child), resolve(code))));
      return { child, exited, out: () => out };
    };
    const readCount = (db: ReturnType<typeof openDatabase>) =>
      db.prepare<[], { n: number }>('SELECT count(*) AS n FROM user_products WHERE stock_read = 1').get()!.n;

    // Killed mid-pull: the stock of the products after the 30th (in id order) is held at the
    // proxy, so both readers wait there once the first 30 are answered and written.
    const later = new Set([...market.products].sort().slice(30));
    const hold = proxy.hold((method, path) => isStockGet(method, path) && later.has(decodeURIComponent(STOCK.exec(path.split('?')[0]!)![1]!)), 2);
    const one = run();
    await hold.arrived;
    const watch = openDatabase(replica.dbFile);
    await waitFor(() => readCount(watch) === 30, 'the first run writing the 30 answered reads', 30_000);
    one.child.kill('SIGKILL');
    await one.exited;
    hold.release();
    const readBefore = new Set(
      watch
        .prepare<[], { id: string }>('SELECT id FROM user_products WHERE stock_read = 1')
        .all()
        .map((r) => r.id),
    );
    expect(readBefore).toEqual(new Set([...market.products].sort().slice(0, 30)));
    const firstRun = stockReads(proxy);
    const mark = proxy.log.length;

    const two = run();
    expect(await two.exited).toBe(0);
    expect(two.out()).toMatch(/pulled/);
    const secondRun = stockReads(proxy, mark);
    // Exactly the products left unread, each once: none that was read before the kill.
    expect(secondRun.filter((id) => readBefore.has(id))).toEqual([]);
    expect([...secondRun].sort()).toEqual(market.products.filter((id) => !readBefore.has(id)).sort());
    // The two held when it died were never answered to it: read (once) by the second run.
    expect(firstRun).toHaveLength(32);
    expect(readCount(watch)).toBe(80);
    watch.close();
  }, 60_000);
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RelaxedWrites } from '../../../main/db/relaxed-writes.js';
import { gridPage } from '../../../main/desktop/grid.js';
import { systemClock } from '../../../main/service/clock.js';
import { fileStorage } from '../../../main/service/messages/attachments/storage.js';
import { RemoteClient, type ClientOptions, staticTokenProvider } from '../../../main/sync/client.js';
import type { SyncEngine } from '../../../main/sync/engine.js';
import { Puller } from '../../../main/sync/pull.js';
import { DEFAULT_RETRY } from '../../../main/sync/retry.js';
import {
  ATTACHMENT_DECLARED,
  ATTACHMENT_ID,
  BUYER,
  HOSTILE_NAMES,
  ORDER,
  type HostileRemote,
  UNKNOWN,
  startHostileRemote,
} from '../../support/hostile-remote.js';
import { FAST_RETRY, type Replica, newEngine, newReplica } from '../../support/sync-harness.js';

/**
 * Issue 25: each attack of the hostile marketplace against the real pull, in this process, with
 * short limits passed in options (the crash-loop test runs the defaults in a child process).
 */
describe('the pull against a hostile marketplace', () => {
  let remote: HostileRemote;
  let replica: Replica;
  let engine: SyncEngine;
  let client: RemoteClient;

  beforeAll(async () => {
    remote = await startHostileRemote();
  });
  afterAll(async () => {
    await remote.close();
  });
  afterEach(async () => {
    await client.close();
    replica.remove();
  });

  /** A puller over the engine's own outbox and a client with the limits of the test. */
  function puller(limits: Partial<ClientOptions> = {}): Puller {
    replica = newReplica();
    engine = newEngine(replica, { url: remote.url, token: remote.token, sellerId: remote.sellerId });
    client = new RemoteClient({ baseUrl: remote.url, auth: staticTokenProvider(remote.token, 1), ...limits });
    return new Puller(engine.outbox, client, new RelaxedWrites(replica.db), systemClock, {
      sellerId: remote.sellerId,
      concurrency: 2,
      stockBatch: 100,
      files: fileStorage(replica.filesDir),
      retry: { ...DEFAULT_RETRY, ...FAST_RETRY },
      getAttempts: 2,
    });
  }

  it('a body that drips one byte at a time ends at the deadline, a clear error', async () => {
    remote.set('slow-drip');
    const p = puller({ deadlineMs: 300, bodyTimeoutMs: 5000 });
    await expect(p.pull()).rejects.toThrow(/^GET \/users\/7001: no complete answer within 300 ms$/);
  });

  it('an answer over the cap is read once, not retried, and refused', async () => {
    remote.set('endless-body');
    remote.hits.clear();
    const p = puller({ maxBodyBytes: 64 * 1024 });
    await expect(p.pull()).rejects.toThrow(/GET \/users\/7001: the answer is larger than the 65536 bytes accepted/);
    expect(remote.hits.get('/users/7001')).toBe(1);
  });

  it('malformed JSON is a clear error', async () => {
    remote.set('malformed-json');
    await expect(puller().pull()).rejects.toThrow(/GET \/users\/7001: the marketplace's answer is not JSON/);
  });

  it('a redirect is refused, never followed to another origin', async () => {
    let followed = 0;
    const elsewhere = createServer((_req, res) => (followed++, res.end('{}')));
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
    try {
      remote.redirectTo = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/steal`;
      remote.set('redirect');
      await expect(puller().pull()).rejects.toThrow(
        /GET \/users\/7001: the marketplace answered a redirect \(302 to http:\/\/127\.0\.0\.1:\d+\/steal\), which the app does not follow/,
      );
      expect(followed).toBe(0);
    } finally {
      await new Promise<void>((r) => elsewhere.close(() => r()));
    }
  });

  it('unknown statuses, reasons, logistic and location types are stored as sent, and the next pull works too', async () => {
    remote.set('unknown-enums');
    const p = puller();
    await p.pull();
    const db = replica.db;
    expect(db.prepare('SELECT status, logistic_type FROM orders WHERE id = ?').get(ORDER)).toEqual({
      status: UNKNOWN.orderStatus,
      logistic_type: UNKNOWN.logistic,
    });
    expect(db.prepare('SELECT moderation_status, moderation_reason FROM messages WHERE id = ?').get('m0')).toEqual({
      moderation_status: UNKNOWN.moderation,
      moderation_reason: UNKNOWN.reason,
    });
    // A location of a kind without rules is kept as sent, apart from the cells the app edits.
    expect(db.prepare('SELECT type, quantity FROM stock_locations').all()).toEqual([{ type: 'selling_address', quantity: 3 }]);
    expect(db.prepare('SELECT type, store_key, quantity FROM remote_other_locations').all()).toEqual([{ type: 'drone_hangar', store_key: '', quantity: 9 }]);
    // The grid shows it read-only, with the type as sent, beside the product's cells.
    const [row] = gridPage(db, remote.sellerId, { limit: 10, offset: 0 }).rows;
    expect(row?.others).toEqual([{ type: 'drone_hangar', storeId: null, quantity: 9 }]);
    expect(Object.keys(row?.cells ?? {})).toEqual(['selling_address']);
    // The next pull (which used to fail for good on a CHECK) works.
    await expect(p.pull()).resolves.toMatchObject({ orders: 1 });
    expect(db.prepare('SELECT count(*) AS n FROM messages WHERE from_user_id = ?').get(BUYER)).toEqual({ n: 2 });
    // A newer snapshot without that kind replaces it: the row shows none.
    remote.set('normal');
    await p.pull();
    expect(db.prepare('SELECT count(*) AS n FROM remote_other_locations').get()).toEqual({ n: 0 });
    expect(gridPage(db, remote.sellerId, { limit: 10, offset: 0 }).rows[0]).not.toHaveProperty('others');
  });

  it("the remote's attachment names follow the app's own rules", async () => {
    remote.set('unknown-enums');
    await puller().pull();
    const names = replica.db.prepare<[], { original_filename: string }>('SELECT original_filename FROM attachments ORDER BY position').all();
    expect(names.map((n) => n.original_filename)).toEqual(['invoicefdp.exe', '.._.._startup_run.bat']);
    expect(HOSTILE_NAMES).toHaveLength(2);
  });

  it('an attachment larger than declared is cut, refused and leaves no file; the declared size is then accepted', async () => {
    remote.set('normal');
    const p = puller();
    await p.pull();
    remote.attachmentBytes = 300 * 1024;
    await expect(p.attachmentFile(ATTACHMENT_ID)).rejects.toThrow(/more bytes than the 1000 declared/);
    const left = (dir: string): string[] => {
      try {
        return readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => join(e.parentPath, e.name));
      } catch {
        return [];
      }
    };
    expect(left(replica.filesDir)).toEqual([]);
    remote.attachmentBytes = ATTACHMENT_DECLARED - 1;
    await expect(p.attachmentFile(ATTACHMENT_ID)).rejects.toThrow(/sent 999 bytes for an attachment declared at 1000/);
    expect(left(replica.filesDir)).toEqual([]);
    remote.attachmentBytes = ATTACHMENT_DECLARED;
    const path = await p.attachmentFile(ATTACHMENT_ID);
    expect(left(replica.filesDir)).toEqual([path]);
  });

  it('an attachment that drips ends at its deadline and leaves no file', async () => {
    remote.set('normal');
    replica = newReplica();
    engine = newEngine(replica, { url: remote.url, token: remote.token, sellerId: remote.sellerId });
    client = new RemoteClient({ baseUrl: remote.url, auth: staticTokenProvider(remote.token, 1) });
    const p = new Puller(engine.outbox, client, new RelaxedWrites(replica.db), systemClock, {
      sellerId: remote.sellerId,
      concurrency: 2,
      stockBatch: 100,
      files: fileStorage(replica.filesDir),
      retry: { ...DEFAULT_RETRY, ...FAST_RETRY },
      downloads: { deadlineMs: 200 },
    });
    await p.pull();
    remote.set('slow-drip');
    await expect(p.attachmentFile(ATTACHMENT_ID)).rejects.toThrow(/^The attachment could not be downloaded: no complete answer within 200 ms$/);
    expect(readdirSync(join(replica.filesDir, 'tmp'))).toEqual([]);
  });
});

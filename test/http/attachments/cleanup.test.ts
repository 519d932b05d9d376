import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXPIRE_UNATTACHED, UNATTACHED_TTL_MS } from '../../../main/service/messages/attachments/service.js';
import { downloadPath, filesUnder, uploadId } from '../../support/attachments.js';
import { demo, demoFixtures } from '../../support/fixtures.js';
import { type TestServer, errorBody, startTestServer } from '../../support/server.js';

/** A clock the test moves by hand; the service and its job runner both read it. */
const clock = {
  t: 0,
  now() {
    return this.t;
  },
};
const HOUR = 3600_000;

let server: TestServer;
beforeEach(async () => {
  clock.t = Date.parse('2026-11-20T12:00:00.000Z');
  server = await startTestServer(demoFixtures(), { clock });
});
afterEach(() => server.close());

const ids = () => (server.db.prepare('SELECT id FROM attachments ORDER BY id').all() as { id: string }[]).map((r) => r.id).sort();
const stored = () => filesUnder(join(server.dir, 'attachments')).filter((f) => !f.startsWith('tmp/'));
const sellerClean = '1a1b2c3d4e5f40718293a4b5c6d7e8f9';
const buyerClean = '0a1b2c3d4e5f40718293a4b5c6d7e8f9';

describe('uploads never attached to a message are deleted after 48 hours', () => {
  it('enqueues one durable job per upload, due 48 hours after it', async () => {
    const id = await uploadId(server, demo.seller.token, 'x', 'x.txt');
    const jobs = server.db.prepare('SELECT kind, payload, run_at, state FROM jobs WHERE kind = ?').all(EXPIRE_UNATTACHED);
    expect(jobs).toEqual([{ kind: EXPIRE_UNATTACHED, payload: JSON.stringify({ id }), run_at: clock.t + 48 * HOUR, state: 'pending' }]);
    expect(UNATTACHED_TTL_MS).toBe(48 * HOUR);
  });

  it('deletes unattached rows and unshared files at 48 h, keeps attached ones and files still referenced', async () => {
    const shared = 'the same bytes twice';
    const a = await uploadId(server, demo.seller.token, shared, 'a.txt');
    const b = await uploadId(server, demo.buyer.token, shared, 'b.txt');
    const c = await uploadId(server, demo.seller.token, 'only c has these bytes', 'c.txt');
    const d = await uploadId(server, demo.seller.token, 'attached at once', 'd.txt');
    server.service.attachments.attach(sellerClean, [d]);
    expect(stored()).toHaveLength(3);

    clock.t += 48 * HOUR - 1;
    await server.service.jobs.drain();
    expect(ids()).toEqual([a, b, c, d].sort());

    // b gets attached in the last millisecond of its window.
    server.service.attachments.attach(buyerClean, [b]);
    clock.t += 1;
    await server.service.jobs.drain();

    expect(ids()).toEqual([b, d].sort());
    // c's file is gone; the shared file stays for b; d's stays.
    expect(stored()).toHaveLength(2);
    expect(errorBody(await server.as(demo.seller.token).get(downloadPath(a))).status).toBe(404);
    expect(errorBody(await server.as(demo.seller.token).get(downloadPath(c))).status).toBe(404);
    const rb = await server.as(demo.seller.token).get(downloadPath(b));
    expect([rb.status, rb.body]).toEqual([200, shared]);
    expect((await server.as(demo.buyer.token).get(downloadPath(d))).status).toBe(200);
    const states = server.db.prepare('SELECT state FROM jobs WHERE kind = ?').all(EXPIRE_UNATTACHED) as { state: string }[];
    expect(states.map((s) => s.state)).toEqual(['done', 'done', 'done', 'done']);
  });

  it('removes a file shared by two unattached uploads once both expired', async () => {
    const first = await uploadId(server, demo.seller.token, 'twice', 'one.txt');
    clock.t += HOUR;
    const second = await uploadId(server, demo.seller.token, 'twice', 'two.txt');
    clock.t += 47 * HOUR;
    await server.service.jobs.drain();
    expect(ids()).toEqual([second]);
    expect(stored()).toHaveLength(1);
    clock.t += HOUR;
    await server.service.jobs.drain();
    expect(ids()).toEqual([]);
    expect(stored()).toEqual([]);
    expect(first).not.toBe(second);
  });

  it('an expired upload can no longer be attached to a message', async () => {
    const id = await uploadId(server, demo.seller.token, 'late', 'late.txt');
    clock.t += 49 * HOUR;
    await server.service.jobs.drain();
    const principal = { userId: demo.seller.id, applicationId: demo.app };
    expect(() => server.service.attachments.requireAttachable(principal, [id], 'MLA')).toThrow('Attachment key is invalid or not found');
  });
});

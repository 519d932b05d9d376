import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_MS, SWEEP_IDEMPOTENCY } from '../../main/service/idempotency/idempotency.js';
import { fileForm, uploadPath } from '../support/attachments.js';
import { demo } from '../support/fixtures.js';
import { demoOrders, manualClock, packPath, sendBody, sendPath } from '../support/messages.js';
import { errorBody, startTestServer } from '../support/server.js';
import { serverWithSeller } from '../support/seller.js';

const termo = demo.userProducts.termo;
const mate = demo.userProducts.mate;
const swPath = (up: string = termo) => `/user-products/${up}/stock/type/seller_warehouse`;
const saPath = (up: string = mate) => `/user-products/${up}/stock/type/selling_address`;
const swBody = (quantity: number, store: string = demo.stores.palermo) => ({ locations: [{ store_id: store, quantity }] });

let clock: ReturnType<typeof manualClock>;
/**
 * Jobs run when a test drains them, never on their own: the job runner's background poll reads
 * the manual clock, so a poll every 50 ms of real time would run a sweep the moment a test moves
 * the clock past it, racing the test. An hour-long poll never fires during a test (a job enqueued
 * by a request still starts at once, as in production).
 */
const JOBS_ONLY_WHEN_DRAINED = 3_600_000;
const api = serverWithSeller(() => {
  clock = manualClock(Date.now());
  return startTestServer(undefined, { clock, jobPollMs: JOBS_ONLY_WHEN_DRAINED });
});
const { seller } = api;
const putSw = (key: string | null, version: string, quantity: number, up: string = termo, token: string = demo.seller.token, store?: string) =>
  api.server.as(token).put(swPath(up), swBody(quantity, store), { 'x-version': version, ...(key === null ? {} : { 'x-idempotency-key': key }) });
const readStock = async (up: string = termo) => {
  const res = await seller().get(`/user-products/${up}/stock`);
  return { version: res.headers.get('x-version'), locations: res.body.locations as { store_id?: string; quantity: number; type: string }[] };
};
const palermoQty = async () => (await readStock()).locations.find((l) => l.store_id === demo.stores.palermo)!.quantity;

describe('X-Idempotency-Key on PUT .../stock/type/seller_warehouse', () => {
  it('a retry with the same key replays the first answer (status, body, x-version) and applies nothing again', async () => {
    const first = await putSw('edit-1', '1', 15);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-version')).toBe('2');
    expect(first.headers.get('x-idempotent-replay')).toBeNull();
    const again = await putSw('edit-1', '1', 15);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('x-version')).toBe('2');
    expect(again.headers.get('x-idempotent-replay')).toBe('true');
    expect(await readStock()).toMatchObject({ version: '2' });
    expect(await palermoQty()).toBe(15);
  });

  it('after a success, a request with a newer version or quantity under the same key is refused (422), not answered with the old edit', async () => {
    await putSw('edit-2', '1', 20);
    const rebuilt = await putSw('edit-2', '2', 99);
    expect(rebuilt.status).toBe(422);
    expect(errorBody(rebuilt)).toMatchObject({ error: 'idempotency_key_reused' });
    expect(await readStock()).toMatchObject({ version: '2' });
    expect(await palermoQty()).toBe(20);
  });

  it('a 409 is not stored: the same key with the fresh version then applies', async () => {
    await putSw(null, '1', 13);
    const stale = await putSw('edit-3', '1', 50);
    expect(stale.status).toBe(409);
    expect(errorBody(stale).message).toBe('Version mismatch');
    const rebased = await putSw('edit-3', '2', 50);
    expect(rebased.status).toBe(200);
    expect(rebased.headers.get('x-idempotent-replay')).toBeNull();
    expect(await palermoQty()).toBe(50);
    expect((await putSw('edit-3', '2', 50)).headers.get('x-idempotent-replay')).toBe('true');
  });

  it('a 400 is not stored', async () => {
    const bad = await api.server
      .as(demo.seller.token)
      .put(swPath(), { locations: [{ store_id: demo.stores.showroom, quantity: 1 }] }, { 'x-version': '1', 'x-idempotency-key': 'edit-4' });
    expect(bad.status).toBe(400);
    const good = await putSw('edit-4', '1', 7);
    expect(good.status).toBe(200);
    expect(good.headers.get('x-idempotent-replay')).toBeNull();
  });

  it('concurrent copies of one request are applied once and all get the same answer', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => putSw('edit-5', '1', 33)));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(new Set(results.map((r) => r.headers.get('x-version')))).toEqual(new Set(['2']));
    expect(results.filter((r) => r.headers.get('x-idempotent-replay') === 'true')).toHaveLength(11);
    expect(await readStock()).toMatchObject({ version: '2' });
  });

  it('keys are per user: the same key from another seller is a different request', async () => {
    expect((await putSw('shared-key', '1', 3)).status).toBe(200);
    const other = await putSw('shared-key', '1', 4, demo.userProducts.otherSellers, demo.other.token, demo.stores.otherSellers);
    expect(other.status).toBe(200);
    expect(other.headers.get('x-idempotent-replay')).toBeNull();
  });

  it('a key reused on another resource is 422 idempotency_key_reused and changes nothing', async () => {
    expect((await putSw('edit-6', '1', 3)).status).toBe(200);
    const before = await readStock(mate);
    const res = await seller().put(saPath(), { quantity: 9 }, { 'x-version': '4', 'x-idempotency-key': 'edit-6' });
    expect(res.status).toBe(422);
    expect(errorBody(res)).toMatchObject({ error: 'idempotency_key_reused' });
    expect(await readStock(mate)).toEqual(before);
  });

  it('the same key with a different request (body or x-version) is 422 and changes nothing; the same request replays', async () => {
    expect((await putSw('edit-8', '1', 3)).status).toBe(200);
    const before = await readStock();
    for (const [version, quantity] of [
      ['1', 4],
      ['2', 3],
    ] as const) {
      const res = await putSw('edit-8', version, quantity);
      expect(res.status).toBe(422);
      expect(errorBody(res)).toMatchObject({
        error: 'idempotency_key_reused',
        status: 422,
        message: `The X-Idempotency-Key was already used for a different request to PUT ${swPath()} (another body or x-version)`,
      });
    }
    expect(await readStock()).toEqual(before);
    const again = await putSw('edit-8', '1', 3);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-idempotent-replay')).toBe('true');
  });

  it('a malformed key is 400 and changes nothing', async () => {
    for (const key of ['x'.repeat(101), 'with space', 'ñandú', '']) {
      const res = await putSw(key, '1', 77);
      expect(res.status, key).toBe(400);
      expect(errorBody(res).message).toMatch(/^Invalid X-Idempotency-Key header/);
    }
    // A header sent twice reaches the server joined ("a, b"): refused as well.
    const twice = await request(`${api.server.url}${swPath()}`, {
      method: 'PUT',
      headers: [
        'authorization',
        `Bearer ${demo.seller.token}`,
        'x-version',
        '1',
        'content-type',
        'application/json',
        'x-idempotency-key',
        'a',
        'x-idempotency-key',
        'b',
      ],
      body: JSON.stringify(swBody(77)),
    });
    expect(twice.statusCode).toBe(400);
    await twice.body.dump();
    expect(await readStock()).toMatchObject({ version: '1' });
    expect((await putSw('x'.repeat(100), '1', 8)).status).toBe(200);
  });

  it('keys expire after 24 hours: the sweep job deletes them and the key is free again', async () => {
    expect((await putSw('edit-7', '1', 5)).status).toBe(200);
    const count = () => (api.server.db.prepare('SELECT count(*) AS n FROM idempotency_keys').get() as { n: number }).n;
    expect(count()).toBe(1);
    clock.advance(IDEMPOTENCY_TTL_MS - 1000);
    expect((await putSw('edit-7', '1', 5)).headers.get('x-idempotent-replay')).toBe('true');
    clock.advance(2000);
    const fresh = await putSw('edit-7', '2', 6);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-idempotent-replay')).toBeNull();
    expect(await palermoQty()).toBe(6);
    // The sweep is a durable job; it deletes what is older than 24 h and queues the next sweep.
    const sweeps = () =>
      (api.server.db.prepare('SELECT state FROM jobs WHERE kind = ? ORDER BY id').all(SWEEP_IDEMPOTENCY) as { state: string }[]).map((j) => j.state);
    clock.advance(IDEMPOTENCY_TTL_MS + 1000);
    // Due for two days of the manual clock, and still not run: only the drain below runs jobs.
    expect(sweeps()).toEqual(['pending']);
    expect(count()).toBe(1);
    await api.server.service.jobs.drain();
    // Expired keys are gone; every sweep before the last is done, and exactly one sweep is queued.
    expect(count()).toBe(0);
    const states = sweeps();
    expect(
      states.slice(0, -1).every((s) => s === 'done'),
      states.join(),
    ).toBe(true);
    expect(states.filter((s) => s === 'pending')).toHaveLength(1);
    expect(states.at(-1)).toBe('pending');
    expect(states).toEqual(['done', 'pending']);
  });
});

describe('X-Idempotency-Key on PUT .../selling_address', () => {
  it('replays 204 with the same x-version', async () => {
    const first = await seller().put(saPath(), { quantity: 9 }, { 'x-version': '4', 'x-idempotency-key': 'sa-1' });
    expect(first.status).toBe(204);
    expect(first.headers.get('x-version')).toBe('5');
    const again = await seller().put(saPath(), { quantity: 9 }, { 'x-version': '4', 'x-idempotency-key': 'sa-1' });
    expect(again.status).toBe(204);
    expect(again.body).toBe('');
    expect(again.headers.get('x-version')).toBe('5');
    expect(again.headers.get('x-idempotent-replay')).toBe('true');
    expect(await readStock(mate)).toMatchObject({ version: '5' });
  });
});

describe('X-Idempotency-Key on POST /messages/packs/...', () => {
  const pack = demoOrders.packed.pack;
  const count = async () => (await seller().get(`${packPath(pack)}?mark_as_read=false&limit=100`)).body.paging.total as number;

  it('a retried send stores one message and replays it', async () => {
    const before = await count();
    const body = sendBody(demo.seller.id, demo.buyer.id, 'Ya lo despachamos, gracias');
    const first = await seller().post(sendPath(pack), body, { 'x-idempotency-key': 'msg-1' });
    expect(first.status).toBe(201);
    const results = await Promise.all([1, 2, 3].map(() => seller().post(sendPath(pack), body, { 'x-idempotency-key': 'msg-1' })));
    for (const r of results) {
      expect(r.status).toBe(201);
      expect(r.body).toEqual(first.body);
      expect(r.headers.get('x-idempotent-replay')).toBe('true');
    }
    expect(await count()).toBe(before + 1);
  });

  it('a refused send (400) is not stored', async () => {
    const tooLong = await seller().post(sendPath(pack), sendBody(demo.seller.id, demo.buyer.id, 'a'.repeat(351)), { 'x-idempotency-key': 'msg-2' });
    expect(tooLong.status).toBe(400);
    const ok = await seller().post(sendPath(pack), sendBody(demo.seller.id, demo.buyer.id, 'Hola'), { 'x-idempotency-key': 'msg-2' });
    expect(ok.status).toBe(201);
    expect(ok.headers.get('x-idempotent-replay')).toBeNull();
  });
});

describe('X-Idempotency-Key on POST /messages/attachments', () => {
  const up = (key: string, text = 'factura') =>
    seller().raw<{ id: string }>('POST', uploadPath(), { raw: fileForm(text, 'factura.txt', 'text/plain'), headers: { 'x-idempotency-key': key } });
  const rows = () => (api.server.db.prepare('SELECT count(*) AS n FROM attachments').get() as { n: number }).n;

  it('a retried upload gets the same attachment id', async () => {
    const before = rows();
    const first = await up('file-1');
    expect(first.status).toBe(200);
    const again = await up('file-1');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('x-idempotent-replay')).toBe('true');
    expect(rows()).toBe(before + 1);
  });

  it('racing copies of one upload all answer the same id (first stored wins)', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => up('file-2')));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
  });

  it('the same key with another file is 422 in the spec’s shape and stores nothing (issue 25: it replayed the first file)', async () => {
    const first = await up('file-3', 'factura de marzo');
    expect(first.status).toBe(200);
    const before = rows();
    const other = await up('file-3', 'factura de abril');
    expect(other.status).toBe(422);
    expect(other.headers.get('x-idempotent-replay')).toBeNull();
    expect(errorBody(other)).toEqual({
      error: 'idempotency_key_reused',
      message: expect.stringContaining('X-Idempotency-Key') as unknown,
      status: 422,
      cause: [],
    });
    const renamed = await seller().raw<{ id: string }>('POST', uploadPath(), {
      raw: fileForm('factura de marzo', 'otra.txt', 'text/plain'),
      headers: { 'x-idempotency-key': 'file-3' },
    });
    expect(renamed.status).toBe(422);
    expect(rows()).toBe(before);
    // The first file under its key still replays.
    const again = await up('file-3', 'factura de marzo');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('a malformed key is refused before the body is read', async () => {
    const res = await up('bad key');
    expect(res.status).toBe(400);
    expect(errorBody(res).message).toMatch(/^Invalid X-Idempotency-Key header/);
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../main/db/group-commit.js';
import { openDatabase } from '../../main/db/open.js';
import { answeredByOwnWrite, durabilityBarrier } from '../../main/http/durability.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** A real server with one write route and one read route over a GroupCommit whose fdatasyncs the test releases. */
async function start() {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'durable-')), 'd.db'));
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
  const syncs: (() => void)[] = [];
  const writes = new GroupCommit(db, { sync: () => new Promise<void>((resolve) => syncs.push(resolve)) });
  const app = Fastify();
  durabilityBarrier(app, writes);
  const insert = db.prepare('INSERT INTO t (k) VALUES (?)');
  const count = db.prepare('SELECT count(*) FROM t').pluck();
  app.put<{ Params: { k: string } }>('/w/:k', async (req) => {
    const n = await writes.run(() => insert.run(req.params.k).changes);
    answeredByOwnWrite(req);
    return { n };
  });
  app.get('/r', async () => ({ count: count.get() }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  closers.push(async () => {
    syncs.forEach((release) => release());
    await app.close();
    db.close();
  });
  return { url, syncs };
}

/** Sends a request and records when its answer arrived. */
function send(url: string, method: 'GET' | 'PUT', path: string) {
  const state = { answered: false };
  const done = request(`${url}${path}`, { method }).then(async (r) => {
    state.answered = true;
    return (await r.body.json()) as Record<string, number>;
  });
  return { state, done };
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await sleep(5);
  expect(check()).toBe(true);
}

describe('durability barrier (main/http/durability.ts)', () => {
  it('a read that could see a commit not yet on disk is answered only once it is', async () => {
    const { url, syncs } = await start();
    const write = send(url, 'PUT', '/w/a');
    await until(() => syncs.length === 1); // committed, its fdatasync running
    const read = send(url, 'GET', '/r');
    await sleep(50);
    expect(read.state.answered).toBe(false);
    expect(write.state.answered).toBe(false);
    syncs[0]!();
    expect(await read.done).toEqual({ count: 1 });
    expect(await write.done).toEqual({ n: 1 });
  });

  it('a write is answered with its own flush, without waiting for batches committed after it', async () => {
    const { url, syncs } = await start();
    const first = send(url, 'PUT', '/w/a');
    await until(() => syncs.length === 1);
    const second = send(url, 'PUT', '/w/b');
    await until(() => syncs.length === 2);
    syncs[0]!();
    expect(await first.done).toEqual({ n: 1 });
    await sleep(20);
    expect(second.state.answered).toBe(false);
    syncs[1]!();
    expect(await second.done).toEqual({ n: 1 });
  });

  it('with nothing waiting to be flushed, a read is answered at once', async () => {
    const { url, syncs } = await start();
    expect(await send(url, 'GET', '/r').done).toEqual({ count: 0 });
    expect(syncs).toHaveLength(0);
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../main/db/group-commit.js';
import { openDatabase } from '../../main/db/open.js';
import { answeredByOwnWrite, durabilityBarrier } from '../../main/http/durability.js';
import { waitFor } from '../support/wait.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/**
 * A real server with one write route and one read route over a GroupCommit whose fdatasyncs the
 * test releases. `released` counts the fdatasyncs released so far; `parked` the answers that
 * reached the barrier and are waiting there for `durable()`.
 */
async function start() {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'durable-')), 'd.db'));
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
  const syncs: (() => void)[] = [];
  const state = { released: 0, parked: 0 };
  const writes = new GroupCommit(db, {
    sync: () =>
      new Promise<void>((resolve) =>
        syncs.push(() => {
          state.released++;
          resolve();
        }),
      ),
  });
  const durable = writes.durable.bind(writes);
  writes.durable = () => {
    state.parked++;
    return durable();
  };
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
  return { url, syncs, state };
}

/** Sends a request and records how many fdatasyncs had been released when its answer arrived. */
function send(url: string, method: 'GET' | 'PUT', path: string, server: { state: { released: number } }) {
  const state = { answered: false, releasedBefore: -1 };
  const done = request(`${url}${path}`, { method }).then(async (r) => {
    state.answered = true;
    state.releasedBefore = server.state.released;
    return (await r.body.json()) as Record<string, number>;
  });
  return { state, done };
}

describe('durability barrier (main/http/durability.ts)', () => {
  it('a read that could see a commit not yet on disk is answered only once it is', async () => {
    const server = await start();
    const { url, syncs } = server;
    const write = send(url, 'PUT', '/w/a', server);
    await waitFor(() => syncs.length === 1, 'the commit, its fdatasync running');
    const read = send(url, 'GET', '/r', server);
    // The read's answer is built and held at the barrier, which only the release below opens.
    await waitFor(() => server.state.parked === 1, 'the read to reach the barrier');
    expect(read.state.answered).toBe(false);
    expect(write.state.answered).toBe(false);
    syncs[0]!();
    expect(await read.done).toEqual({ count: 1 });
    expect(await write.done).toEqual({ n: 1 });
    // Neither answer left before the fdatasync of the commit it could see.
    expect(read.state.releasedBefore).toBe(1);
    expect(write.state.releasedBefore).toBe(1);
  });

  it('a write is answered with its own flush, without waiting for batches committed after it', async () => {
    const server = await start();
    const { url, syncs } = server;
    const first = send(url, 'PUT', '/w/a', server);
    await waitFor(() => syncs.length === 1, 'the first commit, its fdatasync running');
    const second = send(url, 'PUT', '/w/b', server);
    await waitFor(() => syncs.length === 2, 'the second commit, its fdatasync running');
    syncs[0]!();
    // Answered while the second batch's fdatasync is still held: it did not wait for it.
    expect(await first.done).toEqual({ n: 1 });
    expect(first.state.releasedBefore).toBe(1);
    expect(second.state.answered).toBe(false);
    syncs[1]!();
    expect(await second.done).toEqual({ n: 1 });
    // And the second was not answered by the first flush: only once its own was released.
    expect(second.state.releasedBefore).toBe(2);
  });

  it('with nothing waiting to be flushed, a read is answered at once', async () => {
    const server = await start();
    expect(await send(server.url, 'GET', '/r', server).done).toEqual({ count: 0 });
    expect(server.syncs).toHaveLength(0);
  });
});

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GroupCommit } from '../db/group-commit.js';

/**
 * No answer leaves before every commit it could have seen is on disk. GroupCommit makes a batch
 * visible a moment before its fdatasync ends (main/db/group-commit.ts), so an answer built from a
 * read waits for the commits made so far (nothing to wait for most of the time).
 *
 * An answer that is exactly what its own write returned was built inside that write's
 * transaction, and the write resolved only once it was durable: waiting for later batches would
 * only add their fdatasync to its latency. Routes mark those with `answeredByOwnWrite`.
 */
const ownWrite = new WeakSet<FastifyRequest>();

export function answeredByOwnWrite(req: FastifyRequest): void {
  ownWrite.add(req);
}

export function durabilityBarrier(app: FastifyInstance, writes: GroupCommit): void {
  app.addHook('onSend', (req, _reply, payload, done) => {
    if (writes.settled || ownWrite.has(req)) return done(null, payload);
    writes.durable().then(
      () => done(null, payload),
      (e: Error) => done(e),
    );
  });
}

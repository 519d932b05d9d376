import type { FastifyInstance } from 'fastify';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';
import { startCheckpointer } from '../db/checkpointer.js';
import { type Db, openDatabase } from '../db/open.js';
import { DEMO_FIXTURES, isEmptyDatabase, loadFixtures, readFixtureFile } from '../fixtures/load.js';
import { type Service, type ServiceOptions, createService } from '../service/index.js';
import { buildHttpApp, type HttpOptions } from './app.js';

export interface ServerOptions extends ServiceOptions, HttpOptions {
  /** SQLite file. */
  dbFile: string;
  /** Fixture file loaded into a new database; the demo data when omitted. */
  fixtures?: string;
  host?: string;
  port?: number;
  synchronous?: 'FULL' | 'NORMAL';
}

export interface RunningServer {
  url: string;
  port: number;
  app: FastifyInstance;
  service: Service;
  db: Db;
  close(): Promise<void>;
}

/**
 * Opens the database (loading fixtures when it is new), starts background jobs and listens.
 * Fixtures are only ever loaded into an empty database: a bad file changes nothing.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const db = openDatabase(options.dbFile, { synchronous: options.synchronous ?? 'FULL' });
  try {
    if (options.fixtures !== undefined || isEmptyDatabase(db)) {
      loadFixtures(db, readFixtureFile(options.fixtures ?? DEMO_FIXTURES));
    }
  } catch (e) {
    db.close();
    throw e;
  }
  // Attachment files live next to the database unless told otherwise.
  const service = createService(db, { ...options, attachmentsDir: options.attachmentsDir ?? join(dirname(options.dbFile), 'attachments') });
  // A server bound to a name answers sign-in under that name too.
  const boundName = options.host !== undefined && isIP(options.host) === 0 ? [options.host] : [];
  const app = buildHttpApp(service, { ...options, allowedHosts: [...(options.allowedHosts ?? []), ...boundName] });
  // WAL checkpoints in a worker: SQLite's automatic one would copy the WAL and fsync the database
  // inside the commit that crosses 1000 pages, on the event loop every request waits for.
  const checkpointer = startCheckpointer(db);
  service.start();
  try {
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  } catch (e) {
    // The port is taken (or refused): nothing stays open behind the error.
    await app.close();
    await service.stop();
    await checkpointer?.stop();
    db.close();
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let closed = false;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    app,
    service,
    db,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await service.stop();
      await checkpointer?.stop();
      db.close();
    },
  };
}

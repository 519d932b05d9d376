import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { FixtureError } from './fixtures/load.js';
import { startServer } from './http/server.js';

/**
 * `npm start`: the embedded marketplace service on loopback with a persistent local database
 * (demo data the first time), so the app's data survives restarts. The Electron shell and the
 * screens are built on top of this entry.
 */
async function main(): Promise<void> {
  const dataDir = process.env.STOCKROOM_DATA ?? join(homedir(), '.stockroom');
  mkdirSync(dataDir, { recursive: true });
  const server = await startServer({ dbFile: join(dataDir, 'stockroom.db'), port: Number(process.env.PORT ?? 8787) });
  console.log(`Stockroom local service on ${server.url} (data: ${dataDir}); demo token APP_USR-5503910054141466-demo-seller`);
  const shutdown = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((e: unknown) => {
  console.error(e instanceof FixtureError ? e.message : `start: ${(e as Error).message}`);
  process.exit(1);
});

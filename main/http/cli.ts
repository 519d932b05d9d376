import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FixtureError } from '../fixtures/load.js';
import { RATE_LIMIT_ENV, describeRateLimits, parseRateLimits } from './rate-limit.js';
import { startServer } from './server.js';

/**
 * `npm run serve -- --port <n> --data <dir> --fixtures <file> --token-ttl <seconds> --rate-limit <limits>`:
 * the spec's API on 127.0.0.1. `--token-ttl` is the lifetime of OAuth access tokens (default 21600,
 * 6 h). `--rate-limit stock=100/min,messages-write=500/min` (or STOCKROOM_RATE_LIMIT; the flag wins)
 * answers 429 beyond the real marketplace's limits (main/http/rate-limit.ts); none by default.
 * Without --data the database lives in a new temporary folder (a fresh demo every run).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      data: { type: 'string' },
      fixtures: { type: 'string' },
      'token-ttl': { type: 'string' },
      'rate-limit': { type: 'string' },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, got ${values.port}`);
  const ttlText = values['token-ttl'];
  const tokenTtl = ttlText === undefined ? undefined : Number(ttlText);
  if (tokenTtl !== undefined && (!/^[0-9]{1,9}$/.test(ttlText!) || tokenTtl < 1))
    throw new Error(`--token-ttl must be a whole number of seconds >= 1, got ${ttlText}`);
  const envLimits = process.env[RATE_LIMIT_ENV];
  const rateLimits =
    values['rate-limit'] !== undefined
      ? parseRateLimits(values['rate-limit'])
      : envLimits !== undefined && envLimits !== ''
        ? parseRateLimits(envLimits, RATE_LIMIT_ENV)
        : undefined;
  const dataDir = values.data ? resolve(values.data) : mkdtempSync(join(tmpdir(), 'stockroom-serve-'));
  const server = await startServer({
    dbFile: join(dataDir, 'marketplace.db'),
    port,
    ...(values.fixtures ? { fixtures: resolve(values.fixtures) } : {}),
    ...(tokenTtl !== undefined ? { accessTokenTtlSeconds: tokenTtl } : {}),
    ...(rateLimits !== undefined ? { rateLimit: { limits: rateLimits } } : {}),
  });
  const limitsNote = rateLimits === undefined ? '' : `; rate limits: ${describeRateLimits(rateLimits)}`;
  console.log(`Stockroom marketplace service listening on ${server.url} (data: ${dataDir}${limitsNote})`);
  const shutdown = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((e: unknown) => {
  console.error(e instanceof FixtureError ? e.message : `serve: ${(e as Error).message}`);
  process.exit(1);
});

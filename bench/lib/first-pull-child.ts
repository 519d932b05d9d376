/**
 * The app's first pull in a process of its own, to be SIGKILLed (bench/first-pull.ts): a replica
 * in `dir` pulling from `url` under a stock budget of `perMinute`, as the sync engine runs it (the
 * stock read behind the pull). Prints one JSON line when the grid's first page (50 rows, as the
 * screen asks for it) is there: `{"rowsMs": <ms from the engine's start>}`; then pulls until killed.
 *
 * Usage: node --import tsx bench/lib/first-pull-child.ts '{"dir":…,"url":…,"perMinute":6000}'
 */
import { join } from 'node:path';
import { openDatabase } from '../../main/db/open.js';
import { gridPage } from '../../main/desktop/grid.js';
import { remoteEngine } from './replica.js';
import { BENCH_SELLER } from './seed.js';

const { dir, url, perMinute } = JSON.parse(process.argv[2] ?? '{}') as { dir: string; url: string; perMinute: number };
const db = openDatabase(join(dir, 'replica.db'));
const engine = remoteEngine(db, dir, url, { concurrency: 8, budget: { stock: perMinute } });
engine.on('sync-error', (e) => process.stderr.write(`sync-error ${e.message}\n`));
const started = performance.now();
engine.start();
engine.pull().catch((e: unknown) => process.stderr.write(`pull: ${String(e)}\n`));
// Polled (a bench, not a test): the first moment the screen's first page has all its rows.
const watch = setInterval(() => {
  if (gridPage(db, BENCH_SELLER, { limit: 50, offset: 0 }).rows.length < 50) return;
  clearInterval(watch);
  process.stdout.write(`${JSON.stringify({ rowsMs: performance.now() - started })}\n`);
}, 5);

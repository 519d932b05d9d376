/**
 * The long mode of the outbox's model-based test (issue 24): `npm run soak -- --runs N [--steps M] [--seed S]`
 * runs N random programs (fresh remote, proxy and replica each; the engine in a child process
 * killed with SIGKILL at random points) and prints programs run, steps, faults, kills, restarts,
 * settles, conflicts, unknown outcomes and every violation with the program that found it.
 * Exits 1 when any violation was found.
 */
import fc from 'fast-check';
import { outboxProperty } from '../test/sync/model/harness/run.js';
import { emptyFigures } from '../test/sync/model/harness/system.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} takes a whole number`);
  return v;
}

// The engine child bundled once with esbuild (tsx's own; node_modules stay external): each start
// about a second faster than through tsx's loader. Without esbuild the child runs through tsx.
const bundle = 'test-output/engine-child.mjs';
try {
  const esbuild = await import('esbuild');
  esbuild.buildSync({
    entryPoints: ['test/sync/model/harness/engine-child.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: bundle,
    logLevel: 'warning',
  });
  process.env.MODEL_CHILD_BUNDLE = bundle;
} catch (e) {
  process.stderr.write(`the engine child runs through tsx (no bundle: ${(e as Error).message})\n`);
}

const runs = arg('runs', 100);
const steps = arg('steps', 30);
const seed = arg('seed', Date.now() % 2 ** 31);
const figures = emptyFigures();
const started = Date.now();
const timer = setInterval(() => {
  const { programs, steps: s, kills, violations } = figures;
  process.stderr.write(`… ${programs}/${runs} programs, ${s} steps, ${kills} kills, ${violations.length} violation lines\n`);
}, 30_000);
let failure: string | null = null;
try {
  // Not stopped at the first failure: every program runs, every violation is counted (keepGoing).
  await fc.assert(outboxProperty(figures, steps, true), { numRuns: runs, seed, endOnFailure: true });
} catch (e) {
  failure = e instanceof Error ? e.message.split('\n').slice(0, 3).join('\n') : String(e);
}
clearInterval(timer);
const out = {
  seed,
  programs: figures.programs,
  steps: figures.steps,
  faults: figures.faults,
  kills: figures.kills,
  restarts: figures.restarts,
  settles: figures.settles,
  conflicts: figures.conflicts,
  unknownOutcomes: figures.unknowns,
  violations: figures.violations.filter((v) => !v.startsWith('  ')).length,
  minutes: Math.round((Date.now() - started) / 6000) / 10,
};
console.log(JSON.stringify(out, null, 2));
for (const v of figures.violations) console.log(v);
if (failure) console.log(failure);
process.exit(out.violations > 0 || failure ? 1 : 0);

/**
 * `npm run test:stress -- [--runs n] [--burners n] [-- <vitest arguments>]`: proof that the suite
 * is not flaky. Starts one CPU-burning child process per core (os.availableParallelism(), or
 * `--burners`), runs `npm test` `--runs` times in a row (default 5) while every core is busy,
 * prints each run's duration and result, stops at the first failure (its output is saved under
 * test-output/stress/), and kills the burners at the end, on Ctrl+C too. Arguments after `--` go
 * to vitest (`-- test/http/idempotency.test.ts` runs one file under the same load). Exit code 0
 * when every run passed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LOGS = join(ROOT, 'test-output', 'stress');

export interface StressOptions {
  runs: number;
  burners: number;
  /** Passed to `npm test --`. */
  vitestArgs: string[];
}

/** `--runs n`, `--burners n`, then everything after `--` for vitest. */
export function parseStressArgs(argv: string[]): StressOptions {
  const options: StressOptions = { runs: 5, burners: availableParallelism(), vitestArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      options.vitestArgs = argv.slice(i + 1);
      break;
    }
    const [flag, inline] = a.split('=', 2) as [string, string | undefined];
    if (flag !== '--runs' && flag !== '--burners') throw new Error(`stress: unknown argument ${a} (use --runs n, --burners n, and -- <vitest arguments>)`);
    const value = Number(inline ?? argv[++i]);
    if (!Number.isInteger(value) || value < (flag === '--runs' ? 1 : 0))
      throw new Error(`stress: ${flag} needs a whole number${flag === '--runs' ? ' of at least 1' : ''}`);
    if (flag === '--runs') options.runs = value;
    else options.burners = value;
  }
  return options;
}

/** A child that keeps one core busy until killed, and ends itself if this process dies first. */
function startBurner(): ChildProcess {
  const code = `const parent = ${process.pid}; for (let i = 0; ; i++) if (i % 5e7 === 0 && process.ppid !== parent) process.exit(0);`;
  return spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
}

/** `npm test` with the output in `log`; resolves with its exit code. */
function npmTest(vitestArgs: string[], log: string): { done: Promise<number | null>; child: ChildProcess } {
  const out = createWriteStream(log);
  const args = ['test', ...(vitestArgs.length ? ['--', ...vitestArgs] : [])];
  // Under `npm run`, npm_execpath is npm's own CLI: run it with this Node; else `npm` from the PATH.
  // Its own process group (not on Windows), so a stop takes vitest and its workers down with it.
  const npmCli = process.env.npm_execpath;
  const options = { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] as ('ignore' | 'pipe')[], detached: process.platform !== 'win32' };
  const child = npmCli?.endsWith('.js')
    ? spawn(process.execPath, [npmCli, ...args], options)
    : spawn('npm', args, { ...options, shell: process.platform === 'win32' });
  child.stdout!.pipe(out, { end: false });
  child.stderr!.pipe(out, { end: false });
  const done = new Promise<number | null>((resolveDone) =>
    child.on('close', (code) => {
      out.end();
      resolveDone(code);
    }),
  );
  return { done, child };
}

async function main(): Promise<number> {
  const o = parseStressArgs(process.argv.slice(2));
  mkdirSync(LOGS, { recursive: true });
  const burners = Array.from({ length: o.burners }, startBurner);
  let current: ChildProcess | undefined;
  const stopAll = () => {
    for (const b of burners) b.kill('SIGKILL');
    if (current?.pid === undefined || current.exitCode !== null) return;
    try {
      if (process.platform === 'win32') current.kill('SIGTERM');
      else process.kill(-current.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  process.on('exit', stopAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stopAll();
      console.log(`stress: stopped (${signal}); the CPU burners are gone`);
      process.exit(130);
    });
  }
  const what = `npm test${o.vitestArgs.length ? ` -- ${o.vitestArgs.join(' ')}` : ''}`;
  console.log(`stress: ${o.runs} run(s) of \`${what}\` with ${o.burners} CPU-burning processes on ${availableParallelism()} cores`);
  const durations: number[] = [];
  let failed = 0;
  for (let run = 1; run <= o.runs; run++) {
    const log = join(LOGS, `run-${run}.log`);
    const started = Date.now();
    const t = npmTest(o.vitestArgs, log);
    current = t.child;
    const code = await t.done;
    current = undefined;
    const seconds = (Date.now() - started) / 1000;
    durations.push(seconds);
    console.log(`stress: run ${run}/${o.runs} ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(1)} s (output: ${log})`);
    if (code !== 0) {
      failed = run;
      break;
    }
  }
  stopAll();
  if (failed) {
    console.log(`stress: stopped at the first failure, run ${failed}; see test-output/stress/run-${failed}.log`);
    return 1;
  }
  const total = durations.reduce((a, b) => a + b, 0);
  console.log(`stress: ${o.runs} of ${o.runs} runs passed under load, ${total.toFixed(1)} s in all (slowest ${Math.max(...durations).toFixed(1)} s)`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error((e as Error).message);
      process.exit(2);
    },
  );
}

/**
 * The test side of the stand-in Electron: builds the app as `npm run build:app` does, into a
 * folder of its own (never dist/, which the packaging test empties), and runs the built main
 * process under plain Node with `electron` mapped to the stand-in, one child process per start.
 *
 * The build: tsc of tsconfig.build.json's files plus the stand-in (one compiler run; `noCheck`,
 * because type errors are `npm run typecheck`'s job and this test is about what the emitted
 * JavaScript does), the demo fixtures, the preload bundle (Vite, under a second), and the real
 * renderer build: the one the e2e tier keeps in test-output/e2e-renderer, built there when stale
 * (ensureRenderer), copied here. The renderer is real so that the protocol test serves the very
 * files a window loads, with the assets index.html names.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureRenderer } from '../../e2e/support/browser.js';
import { waitFor } from '../wait.js';
import { type StandInCommand, type StandInRecord, childMessage } from './control.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const STAND_IN_SOURCES = ['control.ts', 'electron.ts', 'hooks.ts', 'register.ts'].map((f) => join(ROOT, 'test', 'support', 'electron-stand-in', f));

export interface StandInBuild {
  /** The built app's root (its dist/ mirrors the repository's). */
  dir: string;
  dist: string;
  appJs: string;
  registerJs: string;
  remove(): void;
}

/** A build step in a child process; several run at once (two cores: tsc and Vite overlap). */
function run(args: string[], what: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.on('error', fail);
    child.on('exit', (code, signal) => (code === 0 ? done() : fail(new Error(`${what} failed (exit ${code ?? signal}):\n${output}`))));
  });
}

/** Builds of test processes that are gone (a run killed before its afterAll). */
function removeLeftovers(): void {
  const output = join(ROOT, 'test-output');
  if (!existsSync(output)) return;
  for (const name of readdirSync(output)) {
    const pid = /^stand-in-(\d+)$/.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid) continue;
    try {
      process.kill(Number(pid), 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(output, name), { recursive: true, force: true });
    }
  }
}

/**
 * Builds the app into test-output/stand-in-<pid>/ (inside the repository, so that the built files
 * find node_modules as dist/ does).
 */
export async function buildStandInApp(): Promise<StandInBuild> {
  const dir = join(ROOT, 'test-output', `stand-in-${process.pid}`);
  removeLeftovers();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const dist = join(dir, 'dist');
  const build = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as { include: string[]; exclude?: string[] };
  const tsconfig = {
    extends: join(ROOT, 'tsconfig.build.json'),
    compilerOptions: { outDir: dist, rootDir: ROOT, noCheck: true },
    include: [...build.include.map((p) => join(ROOT, p)), ...STAND_IN_SOURCES],
    exclude: (build.exclude ?? []).map((p) => join(ROOT, p)),
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const tsc = run([join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')], 'tsc of the main process');
  // NODE_ENV=production, as `npm run build:app` (vitest sets `test`).
  const preload = run(
    [
      join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'vite.preload.config.ts',
      '--outDir',
      join(dist, 'preload'),
      '--logLevel',
      'warn',
    ],
    'the preload bundle',
    { ...process.env, NODE_ENV: 'production' },
  );
  // While those run: the renderer (a synchronous Vite build when the e2e tier's copy is stale).
  const renderer = await ensureRenderer();
  await Promise.all([tsc, preload]);
  cpSync(renderer, join(dist, 'renderer'), { recursive: true });
  cpSync(join(ROOT, 'main', 'fixtures', 'demo.json'), join(dist, 'main', 'fixtures', 'demo.json'));
  const appJs = join(dist, 'main', 'app.js');
  const registerJs = join(dist, 'test', 'support', 'electron-stand-in', 'register.js');
  for (const f of [appJs, registerJs, join(dist, 'preload', 'index.cjs'), join(dist, 'renderer', 'index.html')]) {
    if (!existsSync(f)) throw new Error(`the stand-in build has no ${f}`);
  }
  return { dir, dist, appJs, registerJs, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One run of the built main process on the stand-in. */
export interface StandInApp {
  readonly records: StandInRecord[];
  readonly output: () => string;
  readonly exited: Promise<Exit>;
  /** Sends a command; resolves with the child's answer, rejects with its error message. */
  command(c: StandInCommand): Promise<unknown>;
  /** The first record (after `from`) for which `pick` gives a value. */
  record<T>(pick: (r: StandInRecord) => T | undefined | null | false, what: string, from?: number): Promise<T>;
  kill(signal: NodeJS.Signals): Promise<Exit>;
}

const running = new Set<ChildProcess>();

export function startStandInApp(build: StandInBuild, o: { dataDir: string; env?: Record<string, string> }): StandInApp {
  const env: NodeJS.ProcessEnv = { ...process.env, STOCKROOM_DATA: o.dataDir, NODE_ENV: 'production', ...o.env };
  // What would change the app's behaviour from outside: a dev server, an update feed, extra Node flags.
  for (const name of ['VITE_DEV_SERVER_URL', 'STOCKROOM_UPDATE_FEED', 'NODE_OPTIONS', 'ELECTRON_RUN_AS_NODE']) if (!o.env?.[name]) delete env[name];
  const child = spawn(process.execPath, ['--import', pathToFileURL(build.registerJs).href, build.appJs], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  running.add(child);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (output += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (output += s));
  const records: StandInRecord[] = [];
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  child.on('message', (raw: unknown) => {
    const m = childMessage.parse(raw);
    if ('record' in m) {
      records.push(m.record);
      return;
    }
    const waiting = pending.get(m.reply.id);
    pending.delete(m.reply.id);
    if (m.reply.ok) waiting?.resolve(m.reply.value);
    else waiting?.reject(new Error(m.reply.error));
  });
  const exited = new Promise<Exit>((done) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      for (const p of pending.values()) p.reject(new Error(`the app exited (${code ?? signal}) before answering; its output:\n${output}`));
      pending.clear();
      done({ code, signal });
    }),
  );
  return {
    records,
    output: () => output,
    exited,
    command(c) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, command: c }, (e) => {
          if (e) {
            pending.delete(id);
            reject(e);
          }
        });
      });
    },
    record(pick, what, from = 0) {
      const find = () => {
        for (const r of records.slice(from)) {
          const v = pick(r);
          if (v !== undefined && v !== null && v !== false) return v;
        }
        return undefined;
      };
      // An app that exits without the record fails at once, with its output.
      const gone = exited.then((e) => {
        const v = find();
        if (v !== undefined) return v;
        throw new Error(`the app exited (${e.code ?? e.signal}) before ${what}; its output:\n${output}`);
      });
      return Promise.race([waitFor(find, what, 30_000), gone]);
    },
    async kill(signal) {
      child.kill(signal);
      return exited;
    },
  };
}

/** Kills what a failed test left running. */
export async function killStandInApps(): Promise<void> {
  const left = [...running];
  for (const c of left) c.kill('SIGKILL');
  await waitFor(() => left.every((c) => c.exitCode !== null || c.signalCode !== null), 'the stand-in apps to exit');
}

import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type RunResult, connectTarget, httpsProxy, reachable, runBounded } from './bounded-run.js';
import type { Bounds, Progress } from './electron-prepare.js';
import { addonAbi, bindingFile, sqlitePackage } from './native-binding.js';

/**
 * better-sqlite3 built for Electron's ABI, prepared into its own folder (native-binding.ts says
 * where and why): better-sqlite3's prebuilt binary for the Electron version (its own
 * prebuild-install, from its GitHub releases), else @electron/rebuild on a copy of the package.
 * node_modules/better-sqlite3/build, the Node build, is never touched.
 */

/** npm settings that would make node-gyp build for Node instead of Electron (npm passes its config as npm_config_*). */
const REDIRECTS = /^npm_config_(nodedir|target|runtime|disturl|dist_url|build_from_source|arch|platform)$/i;

export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  // npm_package_resolved/from make prebuild-install think the package came from git and skip the download.
  return Object.fromEntries(Object.entries(env).filter(([k]) => !REDIRECTS.test(k) && !/^npm_package_(resolved|from)$/i.test(k)));
}

export interface PrepareSqlite {
  /** The project root: better-sqlite3, prebuild-install and @electron/rebuild are resolved from it. */
  root: string;
  electronVersion: string;
  /** Electron's ABI (node_modules/electron/abi_version): a build for any other one is refused. */
  electronAbi: number | null;
  platform: string;
  arch: string;
  env: NodeJS.ProcessEnv;
  bounds: Bounds;
  progress: Progress;
  /** Skip the rebuild from sources (tests: a prebuilt binary or nothing). */
  prebuiltOnly?: boolean;
}

export type SqliteResult = { ok: true; file: string; how: 'present' | 'prebuilt' | 'rebuilt' } | { ok: false; why: string };

/** The Electron build of better-sqlite3 in its own folder: there already, a prebuilt binary, or a rebuild of a copy. */
export async function prepareSqlite(o: PrepareSqlite): Promise<SqliteResult> {
  const pkg = sqlitePackage(join(o.root, 'package.json'));
  const file = bindingFile(dirname(pkg.dir), { sqliteVersion: pkg.version, electronVersion: o.electronVersion, platform: o.platform, arch: o.arch });
  if (existsSync(file)) return { ok: true, file, how: 'present' };
  const head = `Preparing better-sqlite3 ${pkg.version} for Electron ${o.electronVersion} (${o.platform}-${o.arch}, once)…`;
  o.progress.start(head);
  const temp = mkdtempSync(join(tmpdir(), 'stockroom-sqlite-'));
  try {
    const env = childEnv(o.env);
    const fetched = await prebuiltBinary(o, pkg, temp, env);
    const prebuilt = fetched.ok ? place(fetched.built, file, o.electronAbi) : fetched;
    if (prebuilt.ok) return done(o.progress, head, 'prebuilt binary', { ok: true, file, how: 'prebuilt' });
    if (o.prebuiltOnly) return done(o.progress, head, 'failed', { ok: false, why: `no prebuilt binary: ${prebuilt.why}` });
    o.progress.update(`${head} no prebuilt binary, building from sources`);
    const rebuilt = await rebuildCopy(o, pkg, temp, env);
    const placed = rebuilt.ok ? place(rebuilt.built, file, o.electronAbi) : rebuilt;
    if (placed.ok) return done(o.progress, head, 'built from sources', { ok: true, file, how: 'rebuilt' });
    return done(o.progress, head, 'failed', { ok: false, why: `no prebuilt binary (${prebuilt.why}) and the rebuild failed (${placed.why})` });
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

function done(progress: Progress, head: string, how: string, r: SqliteResult): SqliteResult {
  progress.end(`${head} ${how}`);
  return r;
}

type Built = { ok: true; built: string } | { ok: false; why: string };

/** better-sqlite3's own prebuild-install, run in a folder holding a copy of its package.json: node_modules/better-sqlite3/build is never touched. */
async function prebuiltBinary(o: PrepareSqlite, pkg: { dir: string }, temp: string, env: NodeJS.ProcessEnv): Promise<Built> {
  const mirror = env.npm_config_better_sqlite3_binary_host || env.npm_config_better_sqlite3_binary_host_mirror || 'https://github.com/';
  const target = connectTarget(mirror, httpsProxy(env));
  const unreachable = await reachable(target.host, target.port, o.bounds.probeMs);
  if (unreachable) return { ok: false, why: unreachable };
  const dir = join(temp, 'prebuilt');
  mkdirSync(dir);
  copyFileSync(join(pkg.dir, 'package.json'), join(dir, 'package.json'));
  let bin: string;
  try {
    bin = createRequire(join(pkg.dir, 'package.json')).resolve('prebuild-install/bin.js');
  } catch {
    return { ok: false, why: 'prebuild-install is not installed' };
  }
  const args = [bin, '--runtime', 'electron', '--target', o.electronVersion, '--arch', o.arch, '--platform', o.platform];
  const r = await runBounded({ command: process.execPath, args, cwd: dir, env, overallMs: o.bounds.prebuiltMs });
  if (!r.ok) return r;
  return { ok: true, built: join(dir, 'build', 'Release', 'better_sqlite3.node') };
}

/** @electron/rebuild on a copy of the package (sources, no build folder) in an app folder of its own. */
async function rebuildCopy(o: PrepareSqlite, pkg: { dir: string; version: string }, temp: string, env: NodeJS.ProcessEnv): Promise<Built> {
  const headers = connectTarget('https://www.electronjs.org/headers', httpsProxy(env));
  const unreachable = await reachable(headers.host, headers.port, o.bounds.probeMs);
  if (unreachable) return { ok: false, why: unreachable };
  let entry: string;
  try {
    entry = createRequire(join(o.root, 'package.json')).resolve('@electron/rebuild');
  } catch {
    return { ok: false, why: '@electron/rebuild is not installed' };
  }
  const app = join(temp, 'app');
  const copy = join(app, 'node_modules', 'better-sqlite3');
  cpSync(pkg.dir, copy, { recursive: true, filter: (src) => src !== join(pkg.dir, 'build') });
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'stockroom-sqlite-electron', version: '0.0.0', dependencies: { 'better-sqlite3': pkg.version } }),
  );
  const job = JSON.stringify({ entry: pathToFileURL(entry).href, buildPath: app, electronVersion: o.electronVersion, arch: o.arch });
  const script =
    'const j = JSON.parse(process.env.STOCKROOM_REBUILD); const { rebuild } = await import(j.entry); ' +
    "await rebuild({ buildPath: j.buildPath, electronVersion: j.electronVersion, arch: j.arch, onlyModules: ['better-sqlite3'], force: true, buildFromSource: true });";
  const r = await runBounded({
    command: process.execPath,
    args: ['--input-type=module', '-e', script],
    cwd: app,
    env: { ...env, STOCKROOM_REBUILD: job },
    overallMs: o.bounds.rebuildMs,
  });
  if (!r.ok) return r;
  return { ok: true, built: join(copy, 'build', 'Release', 'better_sqlite3.node') };
}

/** Moves a built binary into its folder, refusing one built for another ABI (a build that quietly targeted Node). */
function place(built: string, file: string, abi: number | null): RunResult {
  if (!existsSync(built)) return { ok: false, why: `nothing at ${built}` };
  const found = addonAbi(readFileSync(built));
  if (abi !== null && found !== null && found !== abi) return { ok: false, why: `it was built for NODE_MODULE_VERSION ${found}, not ${abi}` };
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  copyFileSync(built, partial);
  renameSync(partial, file);
  return { ok: true };
}

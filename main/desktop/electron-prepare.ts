import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type RunResult, connectTarget, folderBytes, httpsProxy, reachable, runBounded } from './bounded-run.js';
import { electronBinary, electronBinaryIn } from './launch.js';
import { ELECTRON_PREPARE_COMMAND } from './native-binding.js';
import { prepareSqlite } from './sqlite-electron.js';

/**
 * What `npm start` and `npm run electron:prepare` do before opening the desktop app: the Electron
 * binary (Electron's own installer, node_modules/electron/install.js, which honours ELECTRON_MIRROR,
 * its cache and proxy settings) and better-sqlite3 built for Electron's ABI (kept apart, see
 * native-binding.ts). Every step is a child process with bounds, preceded by a short reachability
 * check of the host it downloads from, so a machine without network falls back within seconds.
 */

export interface Bounds {
  /** The reachability check of a download host. */
  probeMs: number;
  downloadMs: number;
  /** The Electron download is stopped when no byte arrives for this long. */
  downloadStallMs: number;
  prebuiltMs: number;
  rebuildMs: number;
}

export const DEFAULT_BOUNDS: Bounds = { probeMs: 3000, downloadMs: 10 * 60_000, downloadStallMs: 30_000, prebuiltMs: 2 * 60_000, rebuildMs: 10 * 60_000 };

/** One progress line: rewritten in place on a terminal, printed once elsewhere. */
export interface Progress {
  start(text: string): void;
  update(text: string): void;
  end(text: string): void;
}

export const silentProgress: Progress = { start() {}, update() {}, end() {} };

export function streamProgress(out: NodeJS.WriteStream): Progress {
  if (!out.isTTY) return { start: (text) => out.write(`${text}\n`), update() {}, end() {} };
  let last = 0;
  const rewrite = (text: string) => out.write(`\r${text}\x1b[K`);
  return {
    start: rewrite,
    update(text) {
      if (Date.now() - last < 200) return;
      last = Date.now();
      rewrite(text);
    },
    end: (text) => rewrite(`${text}\n`),
  };
}

/** Why the desktop app does not open; the browser mode opens instead. */
export type Fallback =
  | { kind: 'disabled' }
  | { kind: 'no-package' }
  | { kind: 'override'; dir: string }
  | { kind: 'skip-download' }
  | { kind: 'download-failed'; version: string; why: string }
  | { kind: 'sqlite-failed'; electronVersion: string; why: string };

const on = (v: string | undefined) => v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';

/** Why no download is attempted, or null to attempt it. Only called when the binary is missing. */
export function downloadBlocker(env: NodeJS.ProcessEnv, packageFound: boolean): Fallback | null {
  if (on(env.STOCKROOM_NO_ELECTRON)) return { kind: 'disabled' };
  if (!packageFound) return { kind: 'no-package' };
  // The developer's own Electron folder: a download into node_modules would not be used.
  if (env.ELECTRON_OVERRIDE_DIST_PATH) return { kind: 'override', dir: env.ELECTRON_OVERRIDE_DIST_PATH };
  if (on(env.ELECTRON_SKIP_BINARY_DOWNLOAD)) return { kind: 'skip-download' };
  return null;
}

/** Why the desktop app cannot open (the first half of the fallback line, and what electron:prepare says). */
export function fallbackWhy(f: Fallback): string {
  const missing = 'Electron is not installed on this machine';
  switch (f.kind) {
    case 'disabled':
      return 'STOCKROOM_NO_ELECTRON is set';
    case 'no-package':
      return `${missing} (no electron package in node_modules)`;
    case 'override':
      return `${missing} (ELECTRON_OVERRIDE_DIST_PATH has no Electron binary: ${f.dir})`;
    case 'skip-download':
      return `${missing} (ELECTRON_SKIP_BINARY_DOWNLOAD is set)`;
    case 'download-failed':
      return `${missing} (downloading Electron ${f.version} failed: ${f.why})`;
    case 'sqlite-failed':
      return `better-sqlite3 is not built for Electron ${f.electronVersion} (${f.why})`;
  }
}

/** How to get the desktop app after all; null when the person chose the browser mode. */
export function fallbackHint(f: Fallback): string | null {
  switch (f.kind) {
    case 'disabled':
      return null;
    case 'no-package':
      return 'To install it: npm install';
    case 'override':
      return 'To download it instead: unset ELECTRON_OVERRIDE_DIST_PATH';
    case 'skip-download':
      return `To download it: unset ELECTRON_SKIP_BINARY_DOWNLOAD and run ${ELECTRON_PREPARE_COMMAND}`;
    case 'download-failed':
    case 'sqlite-failed':
      return `To retry: ${ELECTRON_PREPARE_COMMAND}`;
  }
}

/** The one line `npm start` prints when it opens the browser mode instead of the desktop app. */
export function fallbackLine(f: Fallback, url: string, dataDir: string): string {
  const hint = fallbackHint(f);
  return `${fallbackWhy(f)}; starting the browser mode at ${url} (data: ${dataDir})${hint ? `. ${hint}` : ''}`;
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/** Electron's package in this checkout: its folder, version and the ABI of its Node. */
export function electronPackage(root: string): { dir: string; version: string; abi: number | null } | null {
  let file: string;
  try {
    file = createRequire(join(root, 'package.json')).resolve('electron/package.json');
  } catch {
    return null;
  }
  const dir = dirname(file);
  const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version: string };
  const abiFile = join(dir, 'abi_version');
  const abi = existsSync(abiFile) ? Number(readFileSync(abiFile, 'utf8').trim()) : null;
  return { dir, version, abi: Number.isInteger(abi) ? abi : null };
}

/**
 * The arch Electron's installer downloads (install.js): ELECTRON_INSTALL_ARCH or npm's arch, and
 * arm64 for an x64 Node under Rosetta on macOS. The native build must match it, not Node's arch.
 */
export function electronArch(env: NodeJS.ProcessEnv, platform: string, arch: string, underRosetta: () => boolean): string {
  const chosen = env.ELECTRON_INSTALL_ARCH || env.npm_config_arch || arch;
  if (platform === 'darwin' && chosen === 'x64' && env.npm_config_arch === undefined && !env.ELECTRON_INSTALL_ARCH && underRosetta()) return 'arm64';
  return chosen;
}

/** macOS: whether this (x64) Node runs under Rosetta, as install.js asks it. */
export function underRosetta(): boolean {
  if (process.platform !== 'darwin') return false;
  try {
    return execFileSync('sysctl', ['-in', 'sysctl.proc_translated'], { encoding: 'utf8' }).trim() === '1';
  } catch {
    return false;
  }
}

/** The mirror base @electron/get downloads from (its mirrorVar('mirror'): npm config, package config, then the environment). */
export function electronMirror(env: NodeJS.ProcessEnv): string {
  return (
    env.npm_config_electron_mirror ||
    env.NPM_CONFIG_ELECTRON_MIRROR ||
    env.npm_package_config_electron_mirror ||
    env.ELECTRON_MIRROR ||
    'https://github.com/electron/electron/releases/download/'
  );
}

/** @electron/get's cache (env-paths('electron').cache, or electron_config_cache): a cached zip needs no network. */
export function electronCacheRoot(env: NodeJS.ProcessEnv, platform: string, home: string): string {
  if (env.electron_config_cache) return env.electron_config_cache;
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'electron');
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'electron', 'Cache');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'electron');
}

function zipCached(cacheRoot: string, zip: string): boolean {
  try {
    return readdirSync(cacheRoot, { withFileTypes: true }).some((d) => d.isDirectory() && existsSync(join(cacheRoot, d.name, zip)));
  } catch {
    return false;
  }
}

export interface FetchElectron {
  /** node_modules/electron (a copy of it in tests). */
  pkgDir: string;
  version: string;
  env: NodeJS.ProcessEnv;
  bounds: Bounds;
  progress: Progress;
  /** The clock of the bounds (default Date.now). */
  now?: () => number;
}

/** Runs Electron's installer: one progress line with the bytes received, stopped at its bounds. */
export async function fetchElectron(o: FetchElectron): Promise<RunResult> {
  const platform = o.env.ELECTRON_INSTALL_PLATFORM || o.env.npm_config_platform || process.platform;
  const arch = electronArch(o.env, platform, process.arch, underRosetta);
  const head = `Downloading Electron ${o.version} for ${platform}-${arch} (once)…`;
  o.progress.start(head);
  const zip = `electron-v${o.version}-${platform}-${arch}.zip`;
  if (!zipCached(electronCacheRoot(o.env, process.platform, homedir()), zip)) {
    const target = connectTarget(electronMirror(o.env), o.env.ELECTRON_GET_USE_PROXY ? httpsProxy(o.env) : undefined);
    const why = await reachable(target.host, target.port, o.bounds.probeMs);
    if (why) {
      o.progress.end(`${head} failed`);
      return { ok: false, why };
    }
  }
  // @electron/get downloads into os.tmpdir(): a folder of our own shows the bytes as they arrive.
  const temp = mkdtempSync(join(tmpdir(), 'stockroom-electron-get-'));
  try {
    const result = await runBounded({
      command: process.execPath,
      args: [join(o.pkgDir, 'install.js')],
      env: { ...o.env, TMPDIR: temp, TEMP: temp, TMP: temp, ELECTRON_GET_NO_PROGRESS: '1' },
      overallMs: o.bounds.downloadMs,
      stallMs: o.bounds.downloadStallMs,
      progress: () => folderBytes(temp) + folderBytes(join(o.pkgDir, 'dist')),
      onProgress: (bytes) => o.progress.update(`${head} ${megabytes(bytes)}`),
      ...(o.now ? { now: o.now } : {}),
    });
    if (result.ok && !electronBinaryIn(o.pkgDir, o.env)) return finish(o.progress, head, { ok: false, why: 'the installer finished without a binary' });
    return finish(o.progress, head, result);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

function finish(progress: Progress, head: string, r: RunResult): RunResult {
  progress.end(`${head} ${r.ok ? 'done' : 'failed'}`);
  return r;
}

export type Prepared = { ok: true; electron: string; binding: string; did: string[] } | { ok: false; fallback: Fallback };

/**
 * Everything the desktop app needs on a developer's machine, fetched or built when missing:
 * Electron's binary, then better-sqlite3 for its ABI. `did` says what was there and what was made.
 */
export async function prepareDesktop(o: { root: string; env: NodeJS.ProcessEnv; bounds?: Bounds; progress: Progress }): Promise<Prepared> {
  const bounds = o.bounds ?? DEFAULT_BOUNDS;
  if (on(o.env.STOCKROOM_NO_ELECTRON)) return { ok: false, fallback: { kind: 'disabled' } };
  const pkg = electronPackage(o.root);
  let electron = electronBinary(o.root, o.env);
  const did: string[] = [];
  if (!electron || !pkg) {
    const blocker = downloadBlocker(o.env, pkg !== null);
    if (blocker || !pkg) return { ok: false, fallback: blocker ?? { kind: 'no-package' } };
    const fetched = await fetchElectron({ pkgDir: pkg.dir, version: pkg.version, env: o.env, bounds, progress: o.progress });
    electron = electronBinary(o.root, o.env);
    if (!fetched.ok || !electron)
      return { ok: false, fallback: { kind: 'download-failed', version: pkg.version, why: fetched.ok ? 'no binary after the installer' : fetched.why } };
    did.push(`Electron ${pkg.version}: downloaded to ${electron}`);
  } else {
    did.push(`Electron ${pkg.version}: ${electron}`);
  }
  const platform = o.env.ELECTRON_INSTALL_PLATFORM || o.env.npm_config_platform || process.platform;
  const arch = electronArch(o.env, platform, process.arch, underRosetta);
  const sqlite = await prepareSqlite({
    root: o.root,
    electronVersion: pkg.version,
    electronAbi: pkg.abi,
    platform,
    arch,
    env: o.env,
    bounds,
    progress: o.progress,
  });
  if (!sqlite.ok) return { ok: false, fallback: { kind: 'sqlite-failed', electronVersion: pkg.version, why: sqlite.why } };
  const how = { present: 'already prepared', prebuilt: 'prebuilt binary downloaded', rebuilt: 'built from sources' }[sqlite.how];
  did.push(`better-sqlite3 for Electron ${pkg.version} (NODE_MODULE_VERSION ${pkg.abi ?? '?'}): ${how}, ${sqlite.file}`);
  return { ok: true, electron, binding: sqlite.file, did };
}

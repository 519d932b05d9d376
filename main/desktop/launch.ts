import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Where the Electron binary of this checkout is, or null when it is not installed — found without
 * `require('electron')`: that module downloads the binary when it is missing, which fails (and
 * hangs) on machines that cannot reach the download host. ELECTRON_OVERRIDE_DIST_PATH is honoured
 * as Electron's own launcher does.
 */
export function electronBinary(root: string, env: NodeJS.ProcessEnv = process.env): string | null {
  let pkgDir: string;
  try {
    pkgDir = dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'));
  } catch {
    return null;
  }
  return electronBinaryIn(pkgDir, env);
}

/** The same, given the electron package's folder (node_modules/electron, or a copy of it). */
export function electronBinaryIn(pkgDir: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const pathFile = join(pkgDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const exe = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative ?? (process.platform === 'win32' ? 'electron.exe' : 'electron'));
    return existsSync(exe) ? exe : null;
  }
  if (!relative) return null;
  const exe = join(pkgDir, 'dist', relative);
  return existsSync(exe) ? exe : null;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when dist/ is missing or older than a source of the main process, the preload or the renderer. */
export function buildNeeded(root: string): boolean {
  const outputs = ['dist/main/app.js', 'dist/preload/index.cjs', 'dist/renderer/index.html'].map((f) => join(root, f));
  if (!outputs.every(existsSync)) return true;
  const built = Math.min(...outputs.map((f) => statSync(f).mtimeMs));
  return ['main', 'preload', 'renderer'].some((d) => newestMtime(join(root, d)) > built);
}

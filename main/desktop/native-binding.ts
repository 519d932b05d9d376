import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * better-sqlite3 for two runtimes. `npm install` builds it for Node's ABI (tests, `serve`, `web`);
 * Electron's main process needs Electron's ABI (150 for Electron 45). The Electron build is kept
 * apart, under node_modules/.cache/stockroom-electron/<key>/, and handed to better-sqlite3 through
 * its `nativeBinding` option in the Electron main process only:
 * - inside node_modules, so a clean install (rm -rf node_modules) drops it with the build it was
 *   made from, and the usual place of tool caches (git-ignored, never packed by electron-builder,
 *   which copies dependency packages only);
 * - keyed by better-sqlite3's version, Electron's version, platform and arch, so upgrading either
 *   makes a new key (prepared again by `npm start`) instead of loading a stale build.
 * Packaged apps never use it: electron-builder rebuilds better-sqlite3 in place for the installer.
 */

/** What fixes a missing or wrong-ABI Electron build; said by every line about it. */
export const ELECTRON_PREPARE_COMMAND = 'npm run electron:prepare';

export interface BindingTarget {
  sqliteVersion: string;
  electronVersion: string;
  platform: string;
  arch: string;
}

export function bindingKey(t: BindingTarget): string {
  return `${t.sqliteVersion}-electron-${t.electronVersion}-${t.platform}-${t.arch}`;
}

/** The Electron build's file, given node_modules (the folder that holds better-sqlite3). */
export function bindingFile(nodeModules: string, t: BindingTarget): string {
  return join(nodeModules, '.cache', 'stockroom-electron', bindingKey(t), 'better_sqlite3.node');
}

/** better-sqlite3's package folder and version, resolved from `from` (a file or file: URL). */
export function sqlitePackage(from: string): { dir: string; version: string } {
  const pkgFile = createRequire(from).resolve('better-sqlite3/package.json');
  const { version } = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: unknown };
  if (typeof version !== 'string') throw new Error(`no version in ${pkgFile}`);
  return { dir: dirname(pkgFile), version };
}

/**
 * The ABI a Node addon was built for, read from the name of its entry point: NODE_MODULE_INIT
 * exports `node_register_module_v<ABI>` (a string in the export table of ELF, Mach-O and PE
 * files). Null when the file has none (an N-API module, or not an addon).
 */
export function addonAbi(bytes: Uint8Array): number | null {
  const m = /node_register_module_v(\d+)/.exec(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'));
  return m ? Number(m[1]) : null;
}

/**
 * Which binding the main process passes to better-sqlite3: none when packaged (rebuilt in place)
 * or not in Electron (the stand-in test runs under Node, with Node's build); the prepared Electron
 * build when it is there; else none, and a wrong ABI shows as one line (abiMismatchLine).
 */
export function chooseBinding(input: {
  packaged: boolean;
  electronVersion: string | undefined;
  prepared: string;
  exists: (file: string) => boolean;
}): string | undefined {
  if (input.packaged || !input.electronVersion) return undefined;
  return input.exists(input.prepared) ? input.prepared : undefined;
}

/** The binding of this Electron main process (main/app.ts), `from` being the caller's import.meta.url. */
export function electronSqliteBinding(options: { packaged: boolean; electronVersion: string | undefined; from: string }): string | undefined {
  if (options.packaged || !options.electronVersion) return undefined;
  const pkg = sqlitePackage(options.from);
  const prepared = bindingFile(dirname(pkg.dir), {
    sqliteVersion: pkg.version,
    electronVersion: options.electronVersion,
    platform: process.platform,
    arch: process.arch,
  });
  return chooseBinding({ ...options, prepared, exists: existsSync });
}

const ABI_TEXT = /NODE_MODULE_VERSION (\d+)\. This version of (?:Node\.js|Electron) requires\s+NODE_MODULE_VERSION (\d+)/;

function causes(e: unknown): Error[] {
  const seen: Error[] = [];
  for (let c = e; c instanceof Error && !seen.includes(c) && seen.length < 10; c = c.cause) seen.push(c);
  return seen;
}

/**
 * A native module built for another runtime's ABI, as Node (and Electron) report it:
 * ERR_DLOPEN_FAILED "... was compiled against a different Node.js version using
 * NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 150 ...",
 * found on the error or any of its causes.
 */
export function abiMismatch(e: unknown): { built: number; needed: number } | null {
  for (const c of causes(e)) {
    if ((c as NodeJS.ErrnoException).code !== 'ERR_DLOPEN_FAILED') continue;
    const m = ABI_TEXT.exec(c.message);
    if (m) return { built: Number(m[1]), needed: Number(m[2]) };
  }
  return null;
}

/** The one line the main process prints (then exits 1) instead of a crash dialog. */
export function abiMismatchLine(m: { built: number; needed: number }): string {
  return `Stockroom cannot start: better-sqlite3 is built for another runtime (NODE_MODULE_VERSION ${m.built}; this Electron needs ${m.needed}). Fix: ${ELECTRON_PREPARE_COMMAND}`;
}

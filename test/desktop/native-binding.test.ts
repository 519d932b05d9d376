import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../main/db/checkpointer.js';
import { nativeBinding, openDatabase, useNativeBinding } from '../../main/db/open.js';
import {
  ELECTRON_PREPARE_COMMAND,
  abiMismatch,
  abiMismatchLine,
  addonAbi,
  bindingFile,
  bindingKey,
  chooseBinding,
  electronSqliteBinding,
  sqlitePackage,
} from '../../main/desktop/native-binding.js';
import { tempDirs } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
/** The Node build `npm install` made: what tests, serve and web load. */
const nodeBuild = require.resolve('better-sqlite3/build/Release/better_sqlite3.node');
const tmp = tempDirs('stockroom-binding-', 'all');

afterEach(() => useNativeBinding(undefined));

const target = { sqliteVersion: '12.11.1', electronVersion: '45.4.1', platform: 'win32', arch: 'arm64' };

describe('where the Electron build of better-sqlite3 is kept', () => {
  it('one folder per better-sqlite3 version, Electron version, platform and arch, under node_modules/.cache', () => {
    expect(bindingKey(target)).toBe('12.11.1-electron-45.4.1-win32-arm64');
    expect(bindingFile('/p/node_modules', target)).toBe(
      join('/p/node_modules', '.cache', 'stockroom-electron', '12.11.1-electron-45.4.1-win32-arm64', 'better_sqlite3.node'),
    );
    // Upgrading either package, or another machine's arch, is another file: never a stale build.
    const keys = new Set(
      [
        target,
        { ...target, sqliteVersion: '12.12.0' },
        { ...target, electronVersion: '46.0.0' },
        { ...target, arch: 'x64' },
        { ...target, platform: 'darwin' },
      ].map(bindingKey),
    );
    expect(keys.size).toBe(5);
  });

  it("finds this checkout's better-sqlite3 and its version", () => {
    const pkg = sqlitePackage(join(root, 'package.json'));
    expect(pkg.dir).toBe(join(root, 'node_modules', 'better-sqlite3'));
    expect(pkg.version).toBe((JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as { version: string }).version);
  });
});

describe('which binding the main process passes', () => {
  const prepared = '/p/node_modules/.cache/stockroom-electron/k/better_sqlite3.node';
  const there = () => true;
  const missing = () => false;

  it('the prepared Electron build in a checkout, when it is there', () => {
    expect(chooseBinding({ packaged: false, electronVersion: '45.4.1', prepared, exists: there })).toBe(prepared);
  });

  it("none when packaged: electron-builder rebuilt the package's own build for the installer", () => {
    expect(chooseBinding({ packaged: true, electronVersion: '45.4.1', prepared, exists: there })).toBeUndefined();
  });

  it('none under plain Node (the stand-in Electron of the tests): the Node build is the right one', () => {
    expect(chooseBinding({ packaged: false, electronVersion: undefined, prepared, exists: there })).toBeUndefined();
    expect(electronSqliteBinding({ packaged: false, electronVersion: process.versions.electron, from: import.meta.url })).toBeUndefined();
  });

  it('none when nothing was prepared: the default build loads, or fails with the one ABI line', () => {
    expect(chooseBinding({ packaged: false, electronVersion: '45.4.1', prepared, exists: missing })).toBeUndefined();
    // This checkout has no Electron build for a version nobody installed.
    expect(electronSqliteBinding({ packaged: false, electronVersion: '0.0.1-none', from: import.meta.url })).toBeUndefined();
  });

  it("the prepared file of this checkout's key, when it exists", () => {
    const pkg = sqlitePackage(join(root, 'package.json'));
    const file = bindingFile(dirname(pkg.dir), { sqliteVersion: pkg.version, electronVersion: '0.0.2-test', platform: process.platform, arch: process.arch });
    const exists = (f: string) => f === file;
    expect(chooseBinding({ packaged: false, electronVersion: '0.0.2-test', prepared: file, exists })).toBe(file);
  });
});

describe('the ABI a build is for', () => {
  it("reads the real Node build's ABI from its entry point's name", () => {
    expect(addonAbi(readFileSync(nodeBuild))).toBe(Number(process.versions.modules));
  });

  it('reads an Electron ABI, and nothing from a file that is not an addon', () => {
    expect(addonAbi(Buffer.from('\0\0node_register_module_v150\0napi'))).toBe(150);
    expect(addonAbi(Buffer.from('just some bytes'))).toBeNull();
  });
});

describe('a wrong-ABI load is one line, never a crash dialog', () => {
  /** Node's own text for it (src/node_binding.cc), as Electron's main process reports it for today's build. */
  const dlopenError = (built: number, needed: number) =>
    Object.assign(
      new Error(
        `The module '/p/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION ${built}. This version of Node.js requires\nNODE_MODULE_VERSION ${needed}. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`,
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );

  it('recognizes the error, on its own or as the cause of another', () => {
    expect(abiMismatch(dlopenError(115, 150))).toEqual({ built: 115, needed: 150 });
    expect(abiMismatch(new Error('cannot open the profile', { cause: dlopenError(115, 150) }))).toEqual({ built: 115, needed: 150 });
  });

  it('says what happened and the command that fixes it, on one line', () => {
    const line = abiMismatchLine({ built: 115, needed: 150 });
    expect(line).toBe(
      `Stockroom cannot start: better-sqlite3 is built for another runtime (NODE_MODULE_VERSION 115; this Electron needs 150). Fix: ${ELECTRON_PREPARE_COMMAND}`,
    );
    expect(line).not.toContain('\n');
  });

  it('leaves other load failures to the dialog: a real ERR_DLOPEN_FAILED that is not about the ABI', () => {
    const dir = tmp();
    const broken = join(dir, 'broken.node');
    writeFileSync(broken, 'not a shared library');
    let real: unknown;
    try {
      require(broken);
    } catch (e) {
      real = e;
    }
    expect((real as NodeJS.ErrnoException).code).toBe('ERR_DLOPEN_FAILED');
    expect(abiMismatch(real)).toBeNull();
    expect(abiMismatch(new Error('SQLITE_CANTOPEN'))).toBeNull();
    // The same text without the code is not Node's report.
    expect(abiMismatch(new Error(dlopenError(115, 150).message))).toBeNull();
  });
});

describe('every database of the process loads the chosen binding', () => {
  it('openDatabase passes it to better-sqlite3', () => {
    const dir = tmp();
    useNativeBinding(join(dir, 'missing.node'));
    expect(() => openDatabase(join(dir, 'a.db'))).toThrow(/missing\.node/);
    useNativeBinding(nodeBuild);
    expect(nativeBinding()).toBe(nodeBuild);
    const db = openDatabase(join(dir, 'b.db'));
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThan(0);
    db.close();
  });

  it("the checkpointer's worker gets it too", async () => {
    const dir = tmp();
    const db = openDatabase(join(dir, 'c.db'));
    try {
      // A binding the worker cannot load: it fails, and the app's connection takes back SQLite's automatic checkpoints.
      useNativeBinding(join(dir, 'missing.node'));
      const failing = startCheckpointer(db, { everyMs: 10, safetyPages: 20_000 });
      expect(failing).not.toBeNull();
      await waitFor(() => db.pragma('wal_autocheckpoint', { simple: true }) === 1000, 'the worker to fail on the missing binding');
      await failing!.stop();
      // The real build: the worker runs, the safety net stays raised until it stops.
      useNativeBinding(nodeBuild);
      const working = startCheckpointer(db, { everyMs: 10, safetyPages: 20_000 });
      // Only the worker copies the WAL into the database file (the app's threshold is raised to 20,000 pages).
      const before = statSync(join(dir, 'c.db')).size;
      db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (randomblob(200000))');
      await waitFor(() => statSync(join(dir, 'c.db')).size > before, "the worker's checkpoint");
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(20_000);
      await working!.stop();
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    } finally {
      db.close();
    }
  });
});

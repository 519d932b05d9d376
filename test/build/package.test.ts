import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNeeded } from '../../main/desktop/launch.js';
import { tempDirs } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const tmp = tempDirs('stockroom-package-', 'all');

/**
 * The fuse wire as Electron's binaries carry it (read by @electron/fuses): a sentinel, the wire's
 * version (1), its length, then one byte per fuse, '1' on and '0' off. These are Electron's
 * defaults (docs/tutorial/fuses.md): RunAsNode on, cookie encryption off, NODE_OPTIONS on,
 * --inspect on, asar integrity off, only-asar off, browser V8 snapshot off, file:// privileges on.
 */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const ELECTRON_DEFAULT_FUSES = '10110001';
const fuseWire = (fuses: string) => Buffer.concat([Buffer.from(FUSE_SENTINEL), Buffer.from([1, fuses.length]), Buffer.from(fuses)]);
const ON = 49; // '1'
const OFF = 48; // '0'

/** Builds dist/ (main, preload, renderer) when it is missing or older than the sources. */
function ensureBuilt(): void {
  if (!buildNeeded(root)) return;
  const r = spawnSync('npm', ['run', 'build:app'], { cwd: root, encoding: 'utf8', shell: process.platform === 'win32' });
  if (r.status !== 0) throw new Error(`npm run build:app failed:\n${r.stdout}\n${r.stderr}`);
}

beforeAll(() => {
  ensureBuilt();
}, 120_000);

describe('packaging (electron-builder --dir with a stand-in Electron)', () => {
  let executable: string;
  let electronDist: string;
  let resources: string;
  let files: string[];

  beforeAll(() => {
    // What TOOLCHAIN.md describes: Electron cannot be downloaded here, so a folder stands in for it.
    electronDist = tmp('stockroom-electron-dist-');
    mkdirSync(join(electronDist, 'resources'));
    // A script that exits before reaching the bytes after it: the fuse wire electron-builder flips.
    writeFileSync(join(electronDist, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\nexit 0\n'), fuseWire(ELECTRON_DEFAULT_FUSES), Buffer.from('\n')]));
    chmodSync(join(electronDist, 'electron'), 0o755);
    writeFileSync(join(electronDist, 'LICENSE'), 'stand-in');
    writeFileSync(join(electronDist, 'LICENSES.chromium.html'), '<html></html>');
    const out = tmp('stockroom-release-');
    const cli = require.resolve('electron-builder/cli.js');
    const r = spawnSync(process.execPath, [cli, '--dir', '--linux', `-c.electronDist=${electronDist}`, '-c.npmRebuild=false', `-c.directories.output=${out}`], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
    });
    if (r.status !== 0) throw new Error(`electron-builder failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
    executable = join(out, 'linux-unpacked', 'stockroom');
    resources = join(out, 'linux-unpacked', 'resources');
    const asar = require('@electron/asar') as { listPackage(archive: string, options: { isPack: boolean }): string[] };
    files = asar.listPackage(join(resources, 'app.asar'), { isPack: false }).map((f) => f.replaceAll('\\', '/'));
  }, 90_000);

  it('puts the main process, the preload, the renderer and the demo data into app.asar', () => {
    for (const f of [
      '/package.json',
      '/dist/main/app.js',
      '/dist/main/desktop/core.js',
      '/dist/main/fixtures/demo.json',
      '/dist/preload/index.cjs',
      '/dist/renderer/index.html',
    ]) {
      expect(files, f).toContain(f);
    }
    expect(files.some((f) => /^\/dist\/renderer\/assets\/index-[\w-]+\.js$/.test(f))).toBe(true);
    const asar = require('@electron/asar') as { extractFile(archive: string, file: string): Buffer };
    const pkg = JSON.parse(asar.extractFile(join(resources, 'app.asar'), 'package.json').toString('utf8')) as { main: string };
    expect(pkg.main).toBe('dist/main/app.js');
  });

  it("holds better-sqlite3's JavaScript, and its native module unpacked beside the archive", () => {
    expect(files).toContain('/node_modules/better-sqlite3/lib/index.js');
    expect(files).toContain('/node_modules/better-sqlite3/package.json');
    expect(existsSync(join(resources, 'app.asar.unpacked', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
    // Not the SQLite sources it was compiled from.
    expect(files.some((f) => f.startsWith('/node_modules/better-sqlite3/deps/') || f.endsWith('sqlite3.c'))).toBe(false);
  });

  it("flips the packed Electron's fuses: no run-as-node, NODE_OPTIONS or --inspect; only app.asar, checked; cookies encrypted", async () => {
    const wire = await getCurrentFuseWire(executable);
    expect(wire.version).toBe('1');
    expect({
      runAsNode: wire[FuseV1Options.RunAsNode],
      nodeOptions: wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable],
      inspect: wire[FuseV1Options.EnableNodeCliInspectArguments],
      asarIntegrity: wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation],
      onlyAsar: wire[FuseV1Options.OnlyLoadAppFromAsar],
      cookieEncryption: wire[FuseV1Options.EnableCookieEncryption],
      browserV8Snapshot: wire[FuseV1Options.LoadBrowserProcessSpecificV8Snapshot],
      fileProtocolPrivileges: wire[FuseV1Options.GrantFileProtocolExtraPrivileges],
    }).toEqual({
      runAsNode: OFF,
      nodeOptions: OFF,
      inspect: OFF,
      asarIntegrity: ON,
      onlyAsar: ON,
      cookieEncryption: ON,
      browserV8Snapshot: OFF,
      fileProtocolPrivileges: OFF,
    });
    // The stand-in started with Electron's defaults: the build flipped them.
    const before = await getCurrentFuseWire(join(electronDist, 'electron'));
    expect(before[FuseV1Options.RunAsNode]).toBe(ON);
    expect(before[FuseV1Options.OnlyLoadAppFromAsar]).toBe(OFF);
    // The asar integrity fuse is on here too, but electron-builder writes the hash it checks only
    // for macOS (Info.plist ElectronAsarIntegrity) and Windows (a resource of the .exe); Electron
    // has no such check on Linux.
  });

  it('leaves out the sources, the tests and every devDependency', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    // A devDependency that a production dependency also needs (js-yaml, under electron-updater) ships
    // as that one's dependency: the lock file marks what only development installs (`dev: true`).
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const devOnly = Object.keys(pkg.devDependencies).filter((dev) => lock.packages[`node_modules/${dev}`]?.dev === true);
    expect(devOnly).toContain('vitest');
    for (const dev of devOnly) expect(files, dev).not.toContain(`/node_modules/${dev}`);
    const own = files.filter((f) => !f.startsWith('/node_modules'));
    expect(own.filter((f) => f.endsWith('.ts') || /^\/(test|main|renderer|preload|bench|assets|build|\.github)\//.test(f))).toEqual([]);
    expect(own.filter((f) => !/^\/(dist|package\.json)/.test(f))).toEqual([]);
    expect(files.some((f) => f.endsWith('.map'))).toBe(false);
    expect(files.some((f) => f.startsWith('/node_modules/react/'))).toBe(false);
  });
});

describe('the configuration for the other platforms', () => {
  const yml = readFileSync(join(root, 'electron-builder.yml'), 'utf8');

  it('builds a per-user NSIS installer with shortcuts, DMGs for both Mac architectures with a hardened runtime, and an AppImage', () => {
    expect(yml).toMatch(/win:\s+target:\s+- target: nsis/);
    expect(yml).toMatch(/perMachine: false/);
    expect(yml).toMatch(/oneClick: false/);
    expect(yml).toMatch(/createStartMenuShortcut: true/);
    expect(yml).toMatch(/- target: dmg\s+arch: \[x64, arm64\]/);
    expect(yml).toMatch(/hardenedRuntime: true/);
    expect(yml).toMatch(/entitlements: build\/entitlements\.mac\.plist/);
    expect(yml).toMatch(/linux:\s+target:\s+- target: AppImage/);
    expect(yml).toMatch(/npmRebuild: true/);
    expect(existsSync(join(root, 'build', 'entitlements.mac.plist'))).toBe(true);
    expect(readFileSync(join(root, 'build', 'entitlements.mac.plist'), 'utf8')).toContain('com.apple.security.cs.allow-jit');
  });

  it('has PNG icons of 512 and 1024 pixels', () => {
    for (const [file, size] of [
      ['icon.png', 1024],
      ['icon-512.png', 512],
    ] as const) {
      const png = readFileSync(join(root, 'assets', file));
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
    }
  });

  it('has a workflow for Windows and macOS runners with Node 22', () => {
    const wf = readFileSync(join(root, '.github', 'workflows', 'installers.yml'), 'utf8');
    expect(wf).toMatch(/os: \[windows-latest, macos-latest\]/);
    expect(wf).toMatch(/node-version: 22/);
    expect(wf).toMatch(/npm ci/);
    expect(wf).toMatch(/electron-builder --publish never/);
  });
});

describe('npm start where Electron is not installed', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('says so in one line, serves the browser mode, and stops cleanly', async () => {
    const data = tmp('stockroom-start-');
    const noElectron = tmp('stockroom-no-electron-');
    // As package.json's start script (node with tsx's loader; see test/desktop/start.test.ts).
    child = spawn(process.execPath, ['--import', 'tsx', 'main/start.ts'], {
      cwd: root,
      env: { ...process.env, STOCKROOM_DATA: data, ELECTRON_OVERRIDE_DIST_PATH: noElectron },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    const running = child;
    await waitFor(() => out.includes('\n') || running.exitCode !== null, 'the first line of npm start', 30_000);
    expect(err).toBe('');
    const line = out.split('\n')[0]!;
    // The override names the developer's own Electron folder: no download into node_modules is tried (test/desktop/start.test.ts has that).
    expect(line).toMatch(
      /^Electron is not installed on this machine \(ELECTRON_OVERRIDE_DIST_PATH has no Electron binary: .+\); starting the browser mode at http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+ \(data: .+\)\. To download it instead: unset ELECTRON_OVERRIDE_DIST_PATH$/,
    );
    const url = /(http:\/\/127\.0\.0\.1:\d+)\/#token=([\w-]+)/.exec(line)!;
    const page = await fetch(`${url[1]}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(await page.text()).toMatch(/<div id="root"><\/div>/);
    const status = await fetch(`${url[1]}/bridge/sync.status`, { method: 'POST', headers: { authorization: `Bearer ${url[2]}` } });
    expect(await status.json()).toMatchObject({ ok: true, value: { mode: 'local-only' } });
    // 'close' comes after the exit and the end of both output streams: all it ever printed.
    const closed = new Promise<number | null>((r) => child!.once('close', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await closed).toBe(0);
    // One line, for the whole run: none after the first while it served, none while it stopped.
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(err).toBe('');
    // The data folder was released (no lock left behind) and the database is there.
    expect(existsSync(join(data, 'stockroom.lock'))).toBe(false);
    expect(existsSync(join(data, 'stockroom.db'))).toBe(true);
  }, 60_000);
});

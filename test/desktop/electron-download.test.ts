/**
 * The preparation steps of `npm start` as real child processes against servers on loopback:
 * Electron's own installer (a copy of node_modules/electron, so nothing is ever written into the
 * real one) with ELECTRON_MIRROR pointing at a server that holds the request or answers 404, and
 * better-sqlite3's prebuild-install (in a project folder of its own) against a mirror serving a
 * prebuilt binary. The bounds run on a clock the test moves when the mirror holds a request.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Bounds, type Progress, fetchElectron } from '../../main/desktop/electron-prepare.js';
import { bindingFile } from '../../main/desktop/native-binding.js';
import { prepareSqlite } from '../../main/desktop/sqlite-electron.js';
import { tempDirs } from '../support/temp-dir.js';

const root = resolve(import.meta.dirname, '../..');
const electronDir = join(root, 'node_modules', 'electron');
const electronVersion = (JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')) as { version: string }).version;
const sqliteDir = join(root, 'node_modules', 'better-sqlite3');
const sqliteVersion = (JSON.parse(readFileSync(join(sqliteDir, 'package.json'), 'utf8')) as { version: string }).version;

const tmp = tempDirs('stockroom-prepare-', 'all');
const servers: Server[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A mirror on loopback: what it was asked for, answered by `answer`. */
async function mirror(answer: (path: string, res: ServerResponse) => void): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    answer(req.url ?? '', res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

function recorder(): Progress & { lines: string[] } {
  const lines: string[] = [];
  return { lines, start: (t) => lines.push(`start ${t}`), update: () => {}, end: (t) => lines.push(`end ${t}`) };
}

/** The environment without anything of the developer's that would redirect a download. */
function cleanEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/electron|proxy|better_sqlite3|^npm_/i.test(k)));
  return { ...env, ...extra };
}

/** A copy of the electron package (its installer and what it needs): a success could only ever fill this copy. */
function electronCopy(): string {
  const nm = join(tmp(), 'node_modules');
  const dir = join(nm, 'electron');
  mkdirSync(dir, { recursive: true });
  for (const f of ['install.js', 'package.json', 'checksums.json']) copyFileSync(join(electronDir, f), join(dir, f));
  mkdirSync(join(nm, '@electron'));
  symlinkSync(join(root, 'node_modules', '@electron', 'get'), join(nm, '@electron', 'get'), 'junction');
  return dir;
}

const bounds = (b: Partial<Bounds>): Bounds => ({
  probeMs: 5000,
  downloadMs: 3_600_000,
  downloadStallMs: 3_600_000,
  prebuiltMs: 60_000,
  rebuildMs: 60_000,
  ...b,
});

describe("Electron's installer, bounded", () => {
  it('gives up at its no-progress bound when the mirror holds the request, with one progress line', async () => {
    // The clock of the bounds moves past the no-progress bound once the request is held, not before.
    let clock = 0;
    const m = await mirror(() => {
      clock += 30_001;
    });
    const progress = recorder();
    const pkgDir = electronCopy();
    const env = cleanEnv({ ELECTRON_MIRROR: `${m.url}/`, electron_config_cache: tmp() });
    const r = await fetchElectron({ pkgDir, version: electronVersion, env, bounds: bounds({ downloadStallMs: 30_000 }), progress, now: () => clock });
    expect(r).toEqual({ ok: false, why: 'no progress for 30 s' });
    // The installer really asked the mirror for this version's zip.
    expect(m.asked).toEqual([`/v${electronVersion}/electron-v${electronVersion}-${process.platform}-${process.arch}.zip`]);
    const head = `Downloading Electron ${electronVersion} for ${process.platform}-${process.arch} (once)…`;
    expect(progress.lines).toEqual([`start ${head}`, `end ${head} failed`]);
    expect(existsSync(join(pkgDir, 'path.txt'))).toBe(false);
  });

  it('gives up at its overall bound', async () => {
    let clock = 0;
    const m = await mirror(() => {
      clock += 600_000;
    });
    const env = cleanEnv({ ELECTRON_MIRROR: `${m.url}/`, electron_config_cache: tmp() });
    const r = await fetchElectron({
      pkgDir: electronCopy(),
      version: electronVersion,
      env,
      bounds: bounds({ downloadMs: 600_000 }),
      progress: recorder(),
      now: () => clock,
    });
    expect(r).toEqual({ ok: false, why: 'not done after 10 min' });
    expect(m.asked).toHaveLength(1);
  });

  it("reports the installer's own error when the mirror answers 404", async () => {
    const m = await mirror((_path, res) => res.writeHead(404).end('no such release'));
    const r = await fetchElectron({
      pkgDir: electronCopy(),
      version: electronVersion,
      env: cleanEnv({ ELECTRON_MIRROR: `${m.url}/`, electron_config_cache: tmp() }),
      bounds: bounds({}),
      progress: recorder(),
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.why).toMatch(/^HTTPError: Response code 404 \(Not Found\) for http:\/\/127\.0\.0\.1:\d+\/v[\d.]+\/electron-v[\d.]+-\w+-\w+\.zip$/);
  });

  it('never starts the installer when the download host does not answer a connection', async () => {
    const m = await mirror(() => {});
    const closed = m.url;
    await new Promise((r) => servers.pop()!.close(r));
    const r = await fetchElectron({
      pkgDir: electronCopy(),
      version: electronVersion,
      env: cleanEnv({ ELECTRON_MIRROR: `${closed}/`, electron_config_cache: tmp() }),
      bounds: bounds({}),
      progress: recorder(),
    });
    expect(r).toEqual({ ok: false, why: `${closed.replace('http://', '')} is unreachable (ECONNREFUSED)` });
  });
});

describe('better-sqlite3 for Electron, prepared apart', () => {
  /** A project folder with its own node_modules: better-sqlite3's package.json and the real prebuild-install. */
  function project(): string {
    const dir = tmp();
    writeFileSync(join(dir, 'package.json'), '{"name":"p","private":true}');
    const pkg = join(dir, 'node_modules', 'better-sqlite3');
    mkdirSync(pkg, { recursive: true });
    copyFileSync(join(sqliteDir, 'package.json'), join(pkg, 'package.json'));
    symlinkSync(join(root, 'node_modules', 'prebuild-install'), join(dir, 'node_modules', 'prebuild-install'), 'junction');
    return dir;
  }

  /** A prebuilt archive as better-sqlite3 publishes them: build/Release/better_sqlite3.node, gzipped tar. */
  function archive(abi: number): Buffer {
    const dir = tmp();
    mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
    writeFileSync(join(dir, 'build', 'Release', 'better_sqlite3.node'), `\x7fELF stand-in\0node_register_module_v${abi}\0`);
    const r = spawnSync('tar', ['-czf', join(dir, 'a.tar.gz'), '-C', dir, 'build/Release/better_sqlite3.node']);
    if (r.status !== 0) throw new Error(`tar: ${r.stderr.toString()}`);
    return readFileSync(join(dir, 'a.tar.gz'));
  }

  const expectedAsset = `/v${sqliteVersion}/better-sqlite3-v${sqliteVersion}-electron-v150-linux-x64.tar.gz`;
  const options = (dir: string, mirrorUrl: string) => ({
    root: dir,
    electronVersion,
    electronAbi: 150,
    platform: 'linux',
    arch: 'x64',
    // npm's cache of prebuilt archives, of this test only.
    env: cleanEnv({ npm_config_better_sqlite3_binary_host: mirrorUrl, npm_config_cache: tmp() }),
    bounds: bounds({ prebuiltMs: 30_000 }),
    progress: recorder(),
    prebuiltOnly: true,
  });

  it("fetches the prebuilt binary for Electron's ABI into its own folder, then finds it there", async () => {
    const body = archive(150);
    const m = await mirror((path, res) => (path === expectedAsset ? res.writeHead(200).end(body) : res.writeHead(404).end()));
    const dir = project();
    const o = options(dir, m.url);
    const r = await prepareSqlite(o);
    const file = bindingFile(join(dir, 'node_modules'), { sqliteVersion, electronVersion, platform: 'linux', arch: 'x64' });
    expect(r).toEqual({ ok: true, file, how: 'prebuilt' });
    expect(m.asked).toEqual([expectedAsset]);
    expect(readFileSync(file, 'latin1')).toContain('node_register_module_v150');
    // prebuild-install ran in a copy: the package's own folder got no build.
    expect(existsSync(join(dir, 'node_modules', 'better-sqlite3', 'build'))).toBe(false);
    expect(o.progress.lines).toEqual([
      `start Preparing better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (linux-x64, once)…`,
      `end Preparing better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (linux-x64, once)… prebuilt binary`,
    ]);
    const again = await prepareSqlite(options(dir, m.url));
    expect(again).toEqual({ ok: true, file, how: 'present' });
    expect(m.asked).toHaveLength(1);
  });

  it('refuses a binary built for another ABI', async () => {
    const body = archive(115);
    const m = await mirror((_path, res) => res.writeHead(200).end(body));
    const dir = project();
    const r = await prepareSqlite(options(dir, m.url));
    expect(r).toEqual({ ok: false, why: 'no prebuilt binary: it was built for NODE_MODULE_VERSION 115, not 150' });
    expect(existsSync(dirname(bindingFile(join(dir, 'node_modules'), { sqliteVersion, electronVersion, platform: 'linux', arch: 'x64' })))).toBe(false);
  });

  it('says so when there is none for this Electron', async () => {
    const m = await mirror((_path, res) => res.writeHead(404).end());
    const r = await prepareSqlite(options(project(), m.url));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.why).toMatch(/^no prebuilt binary: .*No prebuilt binaries found \(target=45\.4\.1 runtime=electron arch=x64 libc= platform=linux\)$/);
  });
});

/**
 * `npm start` (tsx main/start.ts) as a real child process on a machine without Electron's binary:
 * it tries Electron's installer (here against a loopback mirror answering 404, so a machine with
 * network never downloads anything into node_modules), then serves the browser mode with one line
 * saying why and how to retry. The ELECTRON_OVERRIDE_DIST_PATH case is in test/build/package.test.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { electronBinary } from '../../main/desktop/launch.js';
import { tempDirs } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const root = resolve(import.meta.dirname, '../..');
const tmp = tempDirs('stockroom-start-', 'all');
let child: ChildProcess | undefined;
let server: Server | undefined;

afterEach(async () => {
  child?.kill('SIGKILL');
  child = undefined;
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/** A mirror that has no Electron: what it was asked for. */
async function emptyMirror(): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = [];
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, asked };
}

/** Runs npm start until it serves the browser mode; its output up to that line, then stops it. */
async function start(env: NodeJS.ProcessEnv): Promise<{ lines: string[]; err: string; code: number | null }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^electron_|^npm_config_electron|^STOCKROOM_/i.test(k)));
  // As package.json's start script: node with tsx's loader, no tsx CLI between (its signal relay
  // gives the child 30 ms to claim a signal, and kills it with the signal when a busy machine is slower).
  child = spawn(process.execPath, ['--import', 'tsx', 'main/start.ts'], { cwd: root, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const running = child;
  await waitFor(() => out.includes('starting the browser mode') || running.exitCode !== null, 'the browser mode line', 60_000);
  const url = /starting the browser mode at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1];
  expect((await fetch(`${url}/`)).status).toBe(200);
  const closed = new Promise<number | null>((r) => running.once('close', r));
  running.kill('SIGTERM');
  const code = await closed;
  return { lines: out.trimEnd().split('\n'), err, code };
}

// Where this checkout has Electron (after `npm run electron:prepare`), npm start opens the real app instead.
describe.skipIf(electronBinary(root, {}) !== null)('npm start without Electron', () => {
  it('tries the download, then serves the browser mode with one line saying why and how to retry', async () => {
    const m = await emptyMirror();
    const data = tmp();
    const r = await start({ STOCKROOM_DATA: data, ELECTRON_MIRROR: m.url, electron_config_cache: tmp() });
    expect(m.asked).toHaveLength(1);
    expect(r.lines).toHaveLength(2);
    expect(r.lines[0]).toMatch(/^Downloading Electron \d+\.\d+\.\d+ for \w+-\w+ \(once\)…$/);
    expect(r.lines[1]).toMatch(
      /^Electron is not installed on this machine \(downloading Electron [\d.]+ failed: HTTPError: Response code 404 \(Not Found\) for http:\/\/127\.0\.0\.1:\d+\/\S+\.zip\); starting the browser mode at http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+ \(data: (.+)\)\. To retry: npm run electron:prepare$/,
    );
    expect(r.lines[1]).toContain(`(data: ${data})`);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  }, 90_000);
});

describe('npm start with STOCKROOM_NO_ELECTRON', () => {
  it('opens the browser mode at once, with or without Electron, and downloads nothing', async () => {
    const m = await emptyMirror();
    const r = await start({ STOCKROOM_DATA: tmp(), STOCKROOM_NO_ELECTRON: '1', ELECTRON_MIRROR: m.url });
    expect(m.asked).toEqual([]);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatch(/^STOCKROOM_NO_ELECTRON is set; starting the browser mode at http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+ \(data: .+\)$/);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  }, 90_000);
});

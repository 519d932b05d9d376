import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

/**
 * Child processes that fetch or build things for `npm start`, bounded in time: an overall cap, and
 * optionally a no-progress cap measured by `progress()` (bytes written so far). A run that hits a
 * bound is killed with its whole process tree (node-gyp starts compilers).
 */
export type RunResult = { ok: true } | { ok: false; why: string };

export interface BoundedRun {
  command: string;
  args: string[];
  cwd?: string;
  env: NodeJS.ProcessEnv;
  overallMs: number;
  stallMs?: number;
  /** Bytes done so far: a run whose count does not move for stallMs is stalled. */
  progress?: () => number;
  onProgress?: (bytes: number) => void;
  /** How often the bounds and the progress are checked (default 250 ms). */
  pollMs?: number;
  /** The clock of the bounds (tests move a clock of their own). */
  now?: () => number;
}

export function seconds(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 100) / 10} s`;
}

/** The line of a failed child's output that says what went wrong: the first "…Error…" line, else the last line. */
export function failureLine(output: string): string {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at '));
  return lines.find((l) => /error/i.test(l)) ?? lines.at(-1) ?? 'no output';
}

function killTree(pid: number): void {
  try {
    if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' });
    else process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

export function runBounded(r: BoundedRun): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(r.command, r.args, {
      cwd: r.cwd,
      env: r.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    let output = '';
    const keep = (b: Buffer) => (output = (output + b.toString()).slice(-20_000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let settled = false;
    const finish = (result: RunResult) => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      resolve(result);
    };
    const stop = (why: string) => {
      if (child.pid !== undefined) killTree(child.pid);
      finish({ ok: false, why });
    };
    const now = r.now ?? Date.now;
    const started = now();
    let last = r.progress?.() ?? 0;
    let lastChange = started;
    const poll = setInterval(() => {
      const t = now();
      if (t - started >= r.overallMs) return stop(`not done after ${seconds(r.overallMs)}`);
      if (!r.progress) return;
      const bytes = r.progress();
      if (bytes !== last) {
        last = bytes;
        lastChange = t;
        r.onProgress?.(bytes);
      } else if (r.stallMs !== undefined && t - lastChange >= r.stallMs) {
        stop(`no progress for ${seconds(r.stallMs)}`);
      }
    }, r.pollMs ?? 250);
    child.on('error', (e) => finish({ ok: false, why: e.message }));
    child.on('close', (code, signal) => {
      if (code === 0) finish({ ok: true });
      else finish({ ok: false, why: signal ? `stopped by ${signal}` : failureLine(output) });
    });
  });
}

/** Bytes under a folder (0 when it is missing): how far a download or an extraction got. */
export function folderBytes(dir: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    try {
      total += e.isDirectory() ? folderBytes(p) : statSync(p).size;
    } catch {
      // Renamed or removed while counting.
    }
  }
  return total;
}

/** Whether a host answers a TCP connection within `timeoutMs`: null when it does, else why not. */
export function reachable(host: string, port: number, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (why: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(why);
    };
    const timer = setTimeout(() => done(`${host}:${port} did not answer within ${seconds(timeoutMs)}`), timeoutMs);
    socket.once('connect', () => done(null));
    socket.once('error', (e: NodeJS.ErrnoException) => done(`${host}:${port} is unreachable (${e.code ?? e.message})`));
  });
}

/** Where a download connects first: the proxy when one is used, else the URL's host. */
export function connectTarget(url: string, proxy: string | undefined): { host: string; port: number } {
  const u = new URL(proxy || url);
  const port = u.port ? Number(u.port) : u.protocol === 'http:' ? 80 : 443;
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port };
}

/** The proxy an https download goes through, from the usual variables. */
export const httpsProxy = (env: NodeJS.ProcessEnv): string | undefined => env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy;

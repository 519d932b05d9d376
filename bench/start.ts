/**
 * `npm run bench start`: the browser mode from a cold process to the stock grid on screen, over a
 * replica of 100,000 user products × 10 stores (bench/ui.ts's seed, written once before timing):
 *
 * 1. process start → the grid's first rows painted in Debian's Chromium: each round spawns the
 *    browser mode compiled as the app ships it (tsconfig.build.json, what Electron runs from
 *    dist/; built into test-output/start-build before timing, so dist/ is left as it is) in a
 *    fresh process, opens the address it prints in a fresh browser context of an already running
 *    browser, and reads the frame the first row's title is on screen (the page's clock,
 *    performance.timeOrigin + now) against the moment of the spawn; median of the rounds (target
 *    under 1.5 s). Its floor, in the same rounds: a bare `node -e` process start to a listening
 *    http server. The same from the sources through tsx (`npm run web`), in the same rounds, as a
 *    figure of its own: development's start, where tsx's loader hooks add to every import.
 * 2. the core's resident memory then (VmRSS of that process, /proc/<pid>/status), under 300 MB.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { SettingsStore } from '../main/desktop/settings.js';
import { plainCipher } from '../main/sync/auth/index.js';
import { requireBrowser } from '../scripts/browser.js';
import { ROOT, ensureRenderer, launchChromium } from '../test/e2e/support/browser.js';
import { type Row, percentile, printTable } from './lib/report.js';
import { UI_PRODUCTS, UI_STORES, firstRowsVisible, seedReplica } from './ui.js';

const SECTION = 'start';
const ROUNDS = 5;
/** A bare Node process with an http server on 127.0.0.1, printing its address once it listens. */
const BARE_SERVER = `require('node:http').createServer((q, s) => s.end()).listen(0, '127.0.0.1', function () { console.log('http://127.0.0.1:' + this.address().port + '/'); });`;

/** The main process's code compiled as `npm run build:app` compiles it, into a folder of the bench's own; its browser-mode entry. */
function buildCompiled(): string {
  const out = join(ROOT, 'test-output', 'start-build');
  rmSync(out, { recursive: true, force: true });
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', out], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  // build:app copies the demo data beside the compiled fixtures loader, as here.
  mkdirSync(join(out, 'main', 'fixtures'), { recursive: true });
  copyFileSync(join(ROOT, 'main', 'fixtures', 'demo.json'), join(out, 'main', 'fixtures', 'demo.json'));
  return join(out, 'main', 'web', 'cli.js');
}

/** How a round starts the browser mode: the compiled entry, or the sources through tsx. */
type Entry = string[];

/** Spawns `args` with node; resolves with the first line matching `pattern` on its standard output. */
function spawnUntil(args: string[], pattern: RegExp): { child: ChildProcess; printed: Promise<string> } {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const printed = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
  return { child, printed };
}

/** SIGTERM, then the exit (the browser mode closes its core and releases the data folder's lock). */
const stop = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });

/** A /proc/<pid>/status field in MB (kB there). */
function procMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${field} for process ${pid}`);
  return Number(m[1]) / 1024;
}

/** Bare node: process start → an http server listening (ms). */
async function bareStart(): Promise<number> {
  const t0 = Date.now();
  const { child, printed } = spawnUntil(['-e', BARE_SERVER], /http:\/\/127\.0\.0\.1:\d+\//);
  await printed;
  const ms = Date.now() - t0;
  await stop(child);
  return ms;
}

/** `p`, or a failure with `why()`'s text after `ms` (a page that never shows the grid fails the bench instead of hanging it). */
async function withTimeout<T>(p: Promise<T>, ms: number, why: () => Promise<string>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => void why().then((text) => reject(new Error(text))), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

interface AppStart {
  /** Process start → the address printed (the server listens). */
  listening: number;
  /** Process start → the first rows painted. */
  firstRows: number;
  rssMb: number;
  peakMb: number;
}

/** The browser mode in a fresh process over `dataDir`, opened in a fresh context of `browser`. */
async function appStart(browser: Browser, entry: Entry, dataDir: string, rendererDir: string): Promise<AppStart> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, locale: 'en-US', timezoneId: 'America/Argentina/Buenos_Aires' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const t0 = Date.now();
  const { child, printed } = spawnUntil([...entry, '--port', '0', '--data', dataDir, '--renderer', rendererDir], /http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+/);
  try {
    const url = await printed;
    const listening = Date.now() - t0;
    await page.goto(url, { waitUntil: 'commit' });
    const sinceNavigation = await withTimeout(firstRowsVisible(page), 60_000, async () => {
      const text = (await page.evaluate('document.body.innerText').catch(() => '')) as string;
      return `bench start: no grid rows in 60 s; the page shows: ${text.slice(0, 300).replace(/\s+/g, ' ')}`;
    });
    const timeOrigin = (await page.evaluate('performance.timeOrigin')) as number;
    const rssMb = procMb(child.pid!, 'VmRSS');
    const peakMb = procMb(child.pid!, 'VmHWM');
    if (errors.length > 0) throw new Error(`bench start: errors in the page: ${errors.join('; ')}`);
    return { listening, firstRows: timeOrigin + sinceNavigation - t0, rssMb, peakMb };
  } finally {
    await stop(child);
    await context.close();
  }
}

export async function benchStart(o: { products?: number; stores?: number; rounds?: number } = {}): Promise<Row[]> {
  requireBrowser();
  const products = o.products ?? UI_PRODUCTS;
  const stores = o.stores ?? UI_STORES;
  const rounds = o.rounds ?? ROUNDS;
  // Before any timing: the renderer built (the e2e build: `npm run web` serves dist/renderer the
  // same way), the replica seeded, the browser running.
  const rendererDir = await ensureRenderer();
  const compiled: Entry = [buildCompiled()];
  const dev: Entry = ['--import', 'tsx', 'main/web/cli.ts'];
  const dataDir = mkdtempSync(join(tmpdir(), 'stockroom-bench-start-'));
  let browser: Browser | null = null;
  try {
    await seedReplica(dataDir, products, stores);
    // The browser mode greets a first run with the welcome screen: this person chose an account before.
    await (await SettingsStore.open(dataDir, plainCipher)).update({ start: 'account' });
    browser = await launchChromium();
    // One round of each not counted (tsx's transform cache, the file cache, the browser's first context).
    await bareStart();
    await appStart(browser, compiled, dataDir, rendererDir);
    await appStart(browser, dev, dataDir, rendererDir);
    const bare: number[] = [];
    const app: AppStart[] = [];
    const fromSources: AppStart[] = [];
    for (let round = 0; round < rounds; round++) {
      bare.push(await bareStart());
      app.push(await appStart(browser, compiled, dataDir, rendererDir));
      fromSources.push(await appStart(browser, dev, dataDir, rendererDir));
    }
    const med = (xs: number[]) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        50,
      );
    const size = `${products.toLocaleString('en')} products × ${stores} stores`;
    const firstRows = app.map((a) => a.firstRows);
    const devRows = fromSources.map((a) => a.firstRows);
    return [
      {
        section: SECTION,
        name: 'browser mode: process start → first grid rows painted',
        value: med(firstRows),
        unit: 'ms',
        floor: { name: 'bare node -e to a listening http server', value: med(bare) },
        lowerIsBetter: true,
        limit: { max: 1500, unit: 'ms' },
        note: `compiled as shipped; median of ${rounds} fresh processes after one not counted, ${size}; listening after ${med(app.map((a) => a.listening)).toFixed(0)} ms; rounds ${firstRows.map((t) => t.toFixed(0)).join(', ')} ms`,
      },
      {
        section: SECTION,
        name: 'browser mode from the sources (tsx, npm run web): process start → first grid rows painted',
        value: med(devRows),
        unit: 'ms',
        floor: { name: 'bare node -e to a listening http server', value: med(bare) },
        lowerIsBetter: true,
        note: `development's start, in the same rounds; listening after ${med(fromSources.map((a) => a.listening)).toFixed(0)} ms; rounds ${devRows.map((t) => t.toFixed(0)).join(', ')} ms`,
      },
      {
        section: SECTION,
        name: 'browser mode: resident memory once the first rows show',
        value: med(app.map((a) => a.rssMb)),
        unit: 'MB',
        limit: { max: 300, unit: 'MB' },
        note: `VmRSS of the process, median of ${rounds}, ${size}; peak (VmHWM) ${Math.max(...app.map((a) => a.peakMb)).toFixed(0)} MB`,
      },
    ];
  } finally {
    await browser?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  benchStart()
    .then((rows) => printTable(rows))
    .catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
}

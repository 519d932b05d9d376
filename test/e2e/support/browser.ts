/**
 * The shared end-to-end harness: the real app in real headless Chromium.
 *
 * - `ensureRenderer()` builds dist/renderer with Vite when it is missing or older than the
 *   renderer/preload sources (one build at a time across test workers: a lock folder).
 * - `startBrowserApp()` opens the real desktop core (main/desktop/core.ts, the embedded service
 *   over SQLite) on a temporary data folder, serves it with the browser mode's server
 *   (main/web/server.ts) on 127.0.0.1:0, launches Debian's Chromium through playwright-core and
 *   opens the page with the per-run token. Nothing is faked: calls go through the bridge.
 * - `screenshot(page, name)` saves under test-output/screenshots/ (git ignores test-output/).
 *
 * Chromium missing is a failure with a clear message, never a silent skip (`.ci/browser-deps`
 * installs it in CI).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { type CoreOptions, DesktopCore } from '../../../main/desktop/core.js';
import { type WebServer, startWebServer } from '../../../main/web/server.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const RENDERER_DIR = join(ROOT, 'dist', 'renderer');
export const SCREENSHOT_DIR = join(ROOT, 'test-output', 'screenshots');
export const CHROMIUM = process.env.STOCKROOM_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Newest modification time of the files under `dir` (0 when absent). */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let max = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, name.name);
    max = Math.max(max, name.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return max;
}

function rendererFresh(): boolean {
  const index = join(RENDERER_DIR, 'index.html');
  if (!existsSync(index)) return false;
  const built = statSync(index).mtimeMs;
  const sources = Math.max(newest(join(ROOT, 'renderer')), newest(join(ROOT, 'preload')), statSync(join(ROOT, 'vite.config.ts')).mtimeMs);
  return built >= sources;
}

/**
 * dist/renderer, built when missing or stale. Test files run in parallel workers: the first takes
 * a lock folder and builds (a child `vite build`), the others wait for it and reuse the result.
 */
export async function ensureRenderer(): Promise<string> {
  if (rendererFresh()) return RENDERER_DIR;
  const lock = join(ROOT, 'dist', '.renderer-build.lock');
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another worker builds; a lock older than 3 minutes is a leftover of a killed run.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // gone meanwhile
      }
      if (Date.now() > deadline) throw new Error(`e2e: waited 3 minutes for another renderer build (${lock})`);
      await sleep(250);
    }
  }
  try {
    if (rendererFresh()) return RENDERER_DIR;
    const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
    // NODE_ENV=production: under vitest it is `test`, and Vite would then bundle React's development build.
    const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: ROOT, encoding: 'utf8', timeout: 170_000, env: { ...process.env, NODE_ENV: 'production' } });
    if (r.status !== 0) throw new Error(`e2e: vite build of the renderer failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
    return RENDERER_DIR;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Headless Debian Chromium; a clear failure when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`e2e: Chromium not found at ${CHROMIUM}. Install it with \`apt-get install -y chromium\` (or run .ci/browser-deps), or set STOCKROOM_CHROMIUM.`);
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
}

export interface BrowserAppOptions {
  /** The data folder (a new temporary one by default, removed on close). */
  dataDir?: string;
  /** Runs before the core opens the data folder (seed the database directly, write settings). */
  prepare?: (dataDir: string) => void | Promise<void>;
  /** Options of the desktop core (engine tuning, language, fixtures file...). */
  core?: Partial<Omit<CoreOptions, 'dataDir'>>;
  viewport?: { width: number; height: number };
  /** Browser locale (default en-US). */
  locale?: string;
  /** An already launched browser to open the page in (it is not closed with the app). */
  browser?: Browser;
  /** Wait for the frame's tab bar after navigation (default true). */
  waitForFrame?: boolean;
}

export interface BrowserApp {
  core: DesktopCore;
  web: WebServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  dataDir: string;
  /** The page's address with the per-run token. */
  url: string;
  /** Saves a full-window PNG under test-output/screenshots/<name>.png; returns the path. */
  screenshot(name: string): Promise<string>;
  /** Console errors and page errors seen so far (assert it is empty at the end of a flow). */
  errors: string[];
  close(): Promise<void>;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = join(SCREENSHOT_DIR, `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** The real app (core + browser-mode server) in a real Chromium page, ready on the frame. */
export async function startBrowserApp(o: BrowserAppOptions = {}): Promise<BrowserApp> {
  const rendererDir = await ensureRenderer();
  const ownDir = o.dataDir === undefined;
  const dataDir = o.dataDir ?? mkdtempSync(join(tmpdir(), 'stockroom-e2e-'));
  const cleanups: (() => Promise<void> | void)[] = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) {
      try {
        await c();
      } catch (e) {
        console.error('e2e: cleanup failed', e);
      }
    }
  };
  try {
    if (ownDir) cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    await o.prepare?.(dataDir);
    const core = await DesktopCore.open({ language: 'en', jobPollMs: 50, log: (e) => console.error('core:', e), ...(o.core ?? {}), dataDir, host: { shell: 'browser', ...(o.core?.host ?? {}) } });
    cleanups.push(() => core.close());
    const web = await startWebServer({ core, port: 0, rendererDir });
    cleanups.push(() => web.close());
    const browser = o.browser ?? (await launchChromium());
    if (!o.browser) cleanups.push(() => browser.close());
    const context = await browser.newContext({ viewport: o.viewport ?? { width: 1280, height: 800 }, locale: o.locale ?? 'en-US', timezoneId: 'America/Argentina/Buenos_Aires' });
    cleanups.push(() => context.close());
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      // The browser asks for /favicon.ico on its own; the app has none (not an app error).
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(`console: ${m.text()} (${m.location().url})`);
    });
    await page.goto(web.url);
    if (o.waitForFrame !== false) await page.getByRole('tablist').waitFor({ timeout: 15_000 });
    return {
      core,
      web,
      browser,
      context,
      page,
      dataDir,
      url: web.url,
      errors,
      screenshot: (name) => screenshot(page, name),
      close: cleanup,
    };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
